"""Review flags: what is possible but suspicious on a stored manifest is flagged for staff, who clear
it or refer it for enforcement (E1, E3, E6, E7, F4, F7).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import person
from fogcontrol.core.errors import StateConflict as Conflict
from fogcontrol.core.permissions import require_role
from fogcontrol.registry.models import GreaseControlDevice
from fogcontrol.rules import maintenance
from fogcontrol.rules.servicing_rules import (
    FLAG_BAFFLES_NOT_CLEANED,
    FLAG_DEVICE_REMOVED,
    FLAG_INTERCEPTOR_PLANS,
    FLAG_NEEDS_MORE_FREQUENT,
    FLAG_NO_DESIGN_DEPTH,
    FLAG_NO_RECEIVING_FACILITY,
    FLAG_NUMBER_SHARED,
    FLAG_TITLES,
    Flag,
    flag,
    inspection_flags,
    serviced_late_flag,
    vehicle_conflict_flag,
)
from fogcontrol.servicing.models import Manifest, ManifestFlag, SludgeReading
from fogcontrol.servicing.permissions import REVIEWERS
from fogcontrol.servicing.services.manifest_validation import chain_of
from fogcontrol.servicing.signals import manifest_flag_referred

# --- flags -------------------------------------------------------------------------------------


def flags_from_facts(
    manifest: Manifest,
    *,
    device: GreaseControlDevice,
    ruleset,
    consequences,
    conflict: Manifest | None,
    previous_full_pumpout_on: dt.date | None,
    over_limit_reading: SludgeReading | None,
) -> list[Flag]:
    """The suspicious-but-possible facts on a stored manifest (E1, E3, E6, E7, F7), from the facts
    ``judgement.review_facts`` looks up (or a chunk holds): another effective manifest of the same
    truck within the conflict window at another device (the earliest), the last full pump-out
    before this one, and the latest reading over the limit since then. No query."""
    flags: list[Flag] = []
    titles = {code: title for code, (_, title) in FLAG_TITLES.items()}
    for code in consequences.flags:
        if code == "low_volume" and not manifest.full_pumpout:
            continue
        detail = _consequence_detail(code, manifest, device, ruleset)
        flags.append(flag(code, detail or titles[code] + "."))
    if manifest.full_pumpout and not manifest.baffles_cleaned:
        flags.append(
            flag(FLAG_BAFFLES_NOT_CLEANED, "Marked fully pumped, but the baffles were not cleaned (E7).")
        )
    if device.status == GreaseControlDevice.Status.REMOVED:
        flags.append(
            flag(FLAG_DEVICE_REMOVED, f"Device {device.identifier} is recorded as removed from service.")
        )
    if not device.total_design_depth_in and manifest.fog_depth_in is not None:
        flags.append(flag(FLAG_NO_DESIGN_DEPTH, titles[FLAG_NO_DESIGN_DEPTH] + "."))
    if manifest.receiving_facility_id is None and manifest.full_pumpout:
        flags.append(
            flag(
                FLAG_NO_RECEIVING_FACILITY,
                "No receiving facility is named for the material removed (E7, F5).",
            )
        )
    if conflict is not None:
        flags.append(
            vehicle_conflict_flag(
                plate=manifest.vehicle_plate,
                serviced_at=manifest.serviced_at,
                other_site=f"{conflict.site_address or conflict.device_id} (manifest {conflict.manifest_number})",
                other_serviced_at=conflict.serviced_at,
                ruleset=ruleset,
            )
        )
    over = over_limit_reading
    flags += inspection_flags(
        service_date=manifest.service_date,
        full_pumpout=manifest.full_pumpout,
        manifest_ratio=manifest.fill_ratio,
        over_limit_reading_on=over.taken_on if over else None,
        over_limit_reading_ratio=over.fill_ratio if over else None,
        ruleset=ruleset,
    )
    previous = previous_full_pumpout_on
    if manifest.full_pumpout and previous is not None:
        frequency = device.assigned_frequency_days or maintenance.default_frequency(device.kind, ruleset)
        due = maintenance.next_service_due(previous, frequency, grace_days=ruleset.service_grace_days)
        late = serviced_late_flag(
            service_date=manifest.service_date,
            due=due.due if due else None,
            grace_days=ruleset.service_grace_days,
        )
        if late:
            flags.append(late)
    return flags


def without_repeated_e8(flags: list[Flag], *, e8_already_open: bool) -> list[Flag]:
    """E8 is flagged on the manifest that opens the requirement, not again on every later one."""
    if not e8_already_open:
        return flags
    return [f for f in flags if f.code not in (FLAG_INTERCEPTOR_PLANS, FLAG_NEEDS_MORE_FREQUENT)]


def _namesakes(manifest: Manifest):
    """Other manifests in force that name the same hauler and manifest number."""
    return (
        Manifest.objects.effective()
        .filter(hauler_id=manifest.hauler_id, manifest_number=manifest.manifest_number)
        .exclude(pk__in=chain_of(manifest))
        .select_related("device")
        .order_by("pk")
    )


def _described(manifest: Manifest) -> str:
    return (
        f"#{manifest.pk}, device {manifest.device.identifier}, serviced {manifest.service_date:%Y-%m-%d}, "
        f"sent by {manifest.submitted_by_label}"
    )


def shared_number_flags(manifest: Manifest) -> list[Flag]:
    """F1, F7: an FSE or owner named its hauler with a number that another manifest naming that
    hauler carries. Not refused (the number is the hauler's, not the FSE's), but put before staff."""
    if manifest.hauler_attested or manifest.hauler_id is None:
        return []
    other = _namesakes(manifest).first()
    if other is None:
        return []
    hauler, number = manifest.hauler_name, manifest.manifest_number
    whose = (
        "filed by the hauler or confirmed by staff"
        if other.hauler_attested
        else "also not filed by the hauler"
    )
    return [
        flag(
            FLAG_NUMBER_SHARED,
            f"{hauler}'s manifest {number} is already on another manifest ({_described(other)}; {whose}). "
            f"This one names {hauler} but was filed by the FSE or owner, not by the hauler: check with "
            f"{hauler} which is right, then withdraw or correct this one.",
        )
    ]


def flag_unconfirmed_namesakes(manifest: Manifest) -> None:
    """F1, F7: the hauler (or staff) filed a number that manifests filed by an FSE or owner already
    name: those manifests are flagged for staff review (the hauler's own is not blocked by them)."""
    if not manifest.hauler_attested or manifest.withdrawn:
        return
    others = list(_namesakes(manifest).filter(hauler_attested=False))
    hauler, number = manifest.hauler_name, manifest.manifest_number
    ManifestFlag.objects.bulk_create(
        ManifestFlag(
            manifest=other,
            code=FLAG_NUMBER_SHARED,
            provision=FLAG_TITLES[FLAG_NUMBER_SHARED][0],
            message=(
                f"{hauler} has since filed its own manifest {number} ({_described(manifest)}). This one "
                f"names {hauler} with the same number but was filed by the FSE or owner, not by the "
                "hauler: check which is right, then withdraw or correct this one."
            ),
        )
        for other in others
    )


def _consequence_detail(code: str, manifest: Manifest, device, ruleset) -> str:
    if code == "over_capacity":
        return (
            f"{manifest.gallons_removed} gallons removed from a {device.capacity_gallons}-gallon device "
            f"(more than {Decimal(1) + ruleset.manifest_capacity_tolerance:.2f} times its capacity): E6 requires immediate service."
        )
    if code == "low_volume":
        return (
            f"Only {manifest.gallons_removed} gallons removed from a {device.capacity_gallons}-gallon device "
            "marked fully pumped: check that all FOG, liquids and solids were removed (E7)."
        )
    if code == "over_limit":
        return (
            f"FOG and solids were {manifest.fill_ratio * 100:.1f}% of the design depth before pumping, over the "
            f"{ruleset.fill_limit_ratio * 100:.0f}% limit (E3); the frequency should be reviewed (E6)."
        )
    return ""


@transaction.atomic
def flag_review(*, flag: ManifestFlag, acting_user, outcome: str, note: str = "") -> ManifestFlag:
    """Staff review a flag: cleared (no action) or referred for enforcement (F4, F7)."""
    require_role(acting_user, REVIEWERS, "Only the FOG Manager and inspectors review flags.")
    if flag.review != ManifestFlag.Review.OPEN:
        raise Conflict(f"This flag was already reviewed ({flag.get_review_display().lower()}).")
    if outcome not in (ManifestFlag.Review.CLEARED, ManifestFlag.Review.REFERRED):
        raise ValidationError({"outcome": "Choose cleared or referred."})
    if outcome == ManifestFlag.Review.REFERRED and not note.strip():
        raise ValidationError({"note": "Say why the manifest is referred for enforcement."})
    before = snapshot(flag)
    flag.review = outcome
    flag.reviewed_by = person(acting_user)
    flag.reviewed_at = timezone.now()
    flag.review_note = note.strip()
    flag.save(update_fields=["review", "reviewed_by", "reviewed_at", "review_note"])
    audit_record(
        acting_user=acting_user,
        action="manifest_flag.review",
        instance=flag,
        before=before,
        after=snapshot(flag),
    )
    if outcome == ManifestFlag.Review.REFERRED:
        manifest_flag_referred.send(sender=ManifestFlag, flag=flag, acting_user=acting_user)
    return flag
