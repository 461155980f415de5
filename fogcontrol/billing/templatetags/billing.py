"""Money on billing's pages and documents: dollars and cents, a credit shown as such."""

from decimal import Decimal

from django import template

from fogcontrol.rules.billing import cents

register = template.Library()


@register.filter
def money(value) -> str:
    """$1,234.50; a negative amount (credit) as -$10.00."""
    if value in (None, ""):
        return ""
    amount = cents(Decimal(value))
    sign = "-" if amount < 0 else ""
    return f"{sign}${abs(amount):,.2f}"
