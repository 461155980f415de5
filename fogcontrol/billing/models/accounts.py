"""Debtors, the ledger and the charges on it (Q1, P8, N1, P12, I2, O2).

A debtor is one row naming who owes: an establishment (the FSE) or a party (a property owner or
a responsible individual, I2). The ledger is double-entry: each ``LedgerEntry`` moves an amount
from one account to another (debit and credit in one row), so the books always balance. What a
debtor owes is the sum of its entries on the receivable account, never a number kept apart.
Entries are never changed or deleted: a cancellation, write-off or refund is a new entry with
its reason.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from fogcontrol.billing.querysets import DebtorQuerySet, DebtorRecordQuerySet
from fogcontrol.core.errors import RecordImmutable

MONEY = {"max_digits": 12, "decimal_places": 2}
ZERO = Decimal("0.00")


class InvoiceKind(models.TextChoices):
    """The rule an amount is billed under: it decides the invoice's due and delinquency dates. The
    periods themselves are the ruleset's: ``invoice_kind_choices`` words them for a form."""

    Q1 = "Q1", _("Fees and charges (Q1)")
    P8 = "P8", _("Administrative civil penalty (P8, P9)")
    N1 = "N1", _("Clean-up and repair costs (N1)")


def invoice_kind_choices(ruleset) -> list[tuple[str, str]]:
    """The kinds with the periods of ``ruleset`` in their words (Q1, P8, N1), for a form's choices."""
    return [
        (InvoiceKind.Q1, _("Fees and charges (Q1: due on receipt, delinquent after %(days)s days)")
         % {"days": ruleset.fee_delinquency_days}),
        (InvoiceKind.P8, _("Administrative civil penalty (P8: within %(days)s days; P9 lien)")
         % {"days": ruleset.penalty_payment_days}),
        (InvoiceKind.N1, _("Clean-up and repair costs (N1: within %(days)s days of invoicing)")
         % {"days": ruleset.cost_recovery_payment_days}),
    ]  # fmt: skip


class Account(models.TextChoices):
    """The ledger's accounts. Penalty monies have their own (P12: a special account)."""

    RECEIVABLE = "receivable", _("Owed to the Town")
    REVENUE = "revenue", _("Fees, charges and costs billed")
    PENALTY_REVENUE = "penalty_revenue", _("Penalties billed (P12)")
    CASH = "cash", _("Payments received")
    PENALTY_CASH = "penalty_cash", _("Penalty account (P12)")
    WRITTEN_OFF = "written_off", _("Written off")


class Debtor(models.Model):
    """Who owes the Town: an establishment, or a party (owner, operator, responsible individual)."""

    establishment = models.OneToOneField(
        "registry.FoodServiceEstablishment",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="billing_debtor",
    )
    party = models.OneToOneField(
        "registry.Party", null=True, blank=True, on_delete=models.PROTECT, related_name="billing_debtor"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = DebtorQuerySet.as_manager()

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(establishment__isnull=False, party__isnull=True)
                | Q(establishment__isnull=True, party__isnull=False),
                name="debtor_is_establishment_or_party",
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        if self.establishment_id:
            return self.establishment.business_name
        return self.party.name

    @property
    def kind_label(self) -> str:
        return "Establishment" if self.establishment_id else "Party"


class Charge(models.Model):
    """An amount owed, the ledger's debit: created once from a producer's record by its source
    adapter (``billing/sources.py``: a permit fee, a compliance charge, a penalty order, clean-up
    costs), or entered by staff (``source="direct"``). Billed on one invoice (its line)."""

    debtor = models.ForeignKey(Debtor, on_delete=models.PROTECT, related_name="charges")
    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="billing_charges",
        help_text="The establishment the amount concerns (its licence is held while it is delinquent).",
    )
    source = models.CharField(max_length=48, help_text="The source adapter (e.g. permits.feecharge).")
    source_id = models.PositiveBigIntegerField(null=True, blank=True)
    description = models.CharField(max_length=300)
    provision = models.CharField(max_length=16, help_text="The provision it is billed under.")
    invoice_kind = models.CharField(max_length=2, choices=InvoiceKind.choices)
    penalty = models.BooleanField(default=False, help_text="Penalty monies (P12: the penalty account).")
    amount = models.DecimalField(**MONEY, validators=[MinValueValidator(Decimal("0.01"))])
    assessed_on = models.DateField()
    invoice = models.ForeignKey(
        "billing.Invoice", null=True, blank=True, on_delete=models.PROTECT, related_name="lines"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_by_label = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = DebtorRecordQuerySet.as_manager()

    class Meta:
        ordering = ["assessed_on", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["source", "source_id"],
                condition=Q(source_id__isnull=False),
                name="charge_once_per_source",
            ),
            models.CheckConstraint(condition=Q(amount__gt=0), name="charge_amount_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.description} ${self.amount} ({self.provision})"


class LedgerEntry(models.Model):
    """One posting of the double-entry ledger: ``amount`` debited to one account and credited to
    another, for one debtor. Never changed or deleted (a reversal is a new entry with a reason)."""

    class Kind(models.TextChoices):
        CHARGE = "charge", _("Charge")
        PAYMENT = "payment", _("Payment")
        FUND = "fund", _("Penalty monies to the penalty account (P12)")
        CANCELLATION = "cancellation", _("Invoice cancelled")
        WRITE_OFF = "write_off", _("Write-off")
        REFUND = "refund", _("Refund")

    debtor = models.ForeignKey(Debtor, on_delete=models.PROTECT, related_name="entries")
    posted_on = models.DateField(db_index=True)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    debit = models.CharField(max_length=24, choices=Account.choices)
    credit = models.CharField(max_length=24, choices=Account.choices)
    amount = models.DecimalField(**MONEY)
    description = models.CharField(max_length=300)
    reason = models.TextField(blank=True)
    charge = models.ForeignKey(Charge, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    invoice = models.ForeignKey(
        "billing.Invoice", null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    payment = models.ForeignKey(
        "billing.Payment", null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_by_label = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = DebtorRecordQuerySet.as_manager()

    class Meta:
        ordering = ["posted_on", "pk"]
        verbose_name_plural = "ledger entries"
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="entry_amount_positive"),
            models.CheckConstraint(condition=~Q(debit=models.F("credit")), name="entry_two_accounts"),
        ]
        indexes = [models.Index(fields=["debtor", "posted_on"], name="entry_debtor_day")]

    def __str__(self) -> str:
        return f"{self.posted_on} {self.get_kind_display()}: {self.debit} / {self.credit} ${self.amount}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise RecordImmutable("A ledger entry is never changed: post a reversing entry with a reason.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise RecordImmutable("A ledger entry is never deleted: post a reversing entry with a reason.")

    @property
    def receivable_change(self) -> Decimal:
        """What this entry adds to (or, negative, takes from) what the debtor owes."""
        if self.debit == Account.RECEIVABLE:
            return self.amount
        if self.credit == Account.RECEIVABLE:
            return -self.amount
        return ZERO
