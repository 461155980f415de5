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


@register.filter
def entry_text(entry) -> str:
    """A statement line in the reader's language (issue 18; billing/entry_text.py)."""
    from fogcontrol.billing.entry_text import entry_text as text

    return text(entry)


@register.filter
def charge_text(charge) -> str:
    """A charge's description in the reader's language; what staff typed as written (issue 18)."""
    from fogcontrol.billing.entry_text import charge_text as text

    return text(charge)
