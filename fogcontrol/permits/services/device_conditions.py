"""A permit for a device the sizing check finds wanting (A4, A5) carries a condition with a compliance date.

A grease interceptor with too few compartments or a small access manhole (A4), or a device smaller than
the CPC size for the kitchen it serves (A4, A5), is not approved "with nothing further": the FOG
Manager issues the permit on a condition that says what must be done, and by when. The permit and its
PDF state both. The findings come from the pure rules in fogcontrol.rules.sizing, through the
application adapter fogcontrol.permits.sizing.
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from django.core.exceptions import ValidationError

from fogcontrol.permits.sizing import application_sizing
from fogcontrol.rules.explain import fmt_date
from fogcontrol.rules.ruleset import Ruleset
from fogcontrol.rules.sizing_verdict import sizing_verdict


@dataclasses.dataclass(frozen=True)
class DeviceCondition:
    """What a permit version carries about its device (A4, A5): the findings, and the condition."""

    findings: tuple[str, ...] = ()
    condition: str = ""
    compliance_date: dt.date | None = None


def device_findings(
    application, *, kind: str, gallons: int | None, gpm: int | None, ruleset: Ruleset
) -> tuple[str, ...]:
    """A4 / A5: what the sizing check finds wrong with the device a permit is about to approve.

    The registered device's A4 flags (compartments, access manhole), and the sizing verdict for the
    kind and size being approved when it says the device is smaller than the CPC asks.
    """
    check = application_sizing(application, ruleset)
    findings = list(check.a4_flags)
    adequate, verdict = sizing_verdict(kind, check.gravity, check.hydromechanical, gallons, gpm)
    if adequate is False:
        findings.append(verdict)
    return tuple(findings)


def require_device_condition(
    findings: tuple[str, ...], *, condition: str | None, compliance_date: dt.date | None, issued_on: dt.date
) -> DeviceCondition:
    """A4 / A5: a device with findings is approved only on a condition with a compliance date after the
    day of issue. Without findings, a condition given is kept as it is; none is needed."""
    condition = (condition or "").strip()
    if not findings:
        if compliance_date is not None and not condition:
            raise ValidationError(
                {
                    "device_condition": [
                        "Say what must be done by the compliance date, or leave the date empty."
                    ]
                }
            )
        return DeviceCondition((), condition, compliance_date if condition else None)
    found = " ".join(findings)
    errors = {}
    if not condition:
        errors["device_condition"] = [
            f"The sizing check found: {found} A permit for this device states a condition saying what must "
            "be done to bring it into line with A4 / A5 (e.g. replace it, add a compartment, enlarge the "
            "access manhole), with a compliance date."
        ]
    if compliance_date is None:
        errors["device_compliance_date"] = [
            "Give the date by which the device must comply (A4, A5): the permit states it."
        ]
    elif compliance_date <= issued_on:
        errors["device_compliance_date"] = [
            f"The compliance date must come after the day of issue ({fmt_date(issued_on)})."
        ]
    if errors:
        raise ValidationError(errors)
    return DeviceCondition(findings, condition, compliance_date)
