"""D6 charges a sample caused (sampling, lab analysis), recorded through the inspections app's
service, which owns the Specialty FOG Compliance Charges and prices them from the fee schedule."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError

from fogcontrol.inspections.models import ComplianceCharge
from fogcontrol.inspections.services import compliance_charge_record
from fogcontrol.sampling.models import Sample

SAMPLE_CHARGE_KINDS = (ComplianceCharge.Kind.SAMPLING, ComplianceCharge.Kind.LAB_ANALYSIS)


def sample_charge(
    *, sample: Sample, kind: str, quantity, incurred_on: dt.date, reason: str, acting_user
) -> ComplianceCharge:
    """D6: the cost of taking or analysing a sample, owed by its FSE, naming the sample (and its
    inspection, if any)."""
    if kind not in SAMPLE_CHARGE_KINDS:
        raise ValidationError({"kind": f"A sample's charge is one of: {', '.join(SAMPLE_CHARGE_KINDS)}."})
    return compliance_charge_record(
        establishment=sample.establishment,
        inspection=sample.inspection,
        sample_id=sample.pk,
        kind=kind,
        quantity=quantity,
        incurred_on=incurred_on,
        reason=reason,
        acting_user=acting_user,
    )
