"""Applications for a FOG permit: draft, and start a renewal or change (B3, B4, B6, B8).

Submission and review are in fogcontrol.permits.services.application_review.

Every service takes keyword-only arguments and an `acting_user`, runs in one transaction, checks
the state transition (fogcontrol.permits.states) and leaves an audit entry and a timeline event.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from fogcontrol.audit.services import snapshot
from fogcontrol.core.actors import person
from fogcontrol.core.concurrency import check_fresh, save_versioned
from fogcontrol.permits.models import (
    ApplicationDocument,
    ApplicationFixture,
    ApplicationKind,
    ApplicationStatus,
    ChangeReason,
    FeeKind,
    Permit,
    PermitApplication,
    PermitStatus,
)
from fogcontrol.permits.services.common import (
    audited_save,
    record_event,
    require_applicant_or_reviewer,
)
from fogcontrol.permits.states import (
    CHANGEABLE,
    RENEWABLE,
    TransitionNotAllowed,
    check_application_transition,
    renewal_not_open_yet,
)
from fogcontrol.permits.uploads import check_upload
from fogcontrol.program.selectors import ruleset_on, town_today
from fogcontrol.registry.models import GreaseControlDevice
from fogcontrol.rules.sizing import fmt_pipe, inlet_pipe_max_dfu, inlet_pipe_sizes

# The fields an applicant fills (B3, B4); everything else is the Town's.
APPLICANT_FIELDS = (
    "route",
    "applicant_name",
    "applicant_address",
    "applicant_phone",
    "applicant_email",
    "wastewater_volume_gpd",
    "wastewater_type",
    "food_preparation_hours",
    "cleaning_hours",
    "food_preparation_description",
    "food_types",
    "meals_per_day",
    "clean_up_procedures",
    "dining_capacity",
    "employees",
    "kitchen_size_sqft",
    "device",
    "device_kind",
    "device_capacity_gallons",
    "device_rated_flow_gpm",
    "inlet_pipe_size_in",
    "building_permit_number",
    "change_reasons",
    "change_description",
)
FIXTURE_FIELDS = (
    "kind",
    "description",
    "count",
    "compartments",
    "compartment_length_in",
    "compartment_width_in",
    "compartment_depth_in",
    "drains_to_device",
    "flow_gpm",
)
# B3: what a full application must say before it can be submitted.
B3_REQUIRED = (
    "applicant_name",
    "applicant_address",
    "wastewater_volume_gpd",
    "wastewater_type",
    "food_preparation_hours",
    "cleaning_hours",
    "food_preparation_description",
    "food_types",
    "meals_per_day",
    "clean_up_procedures",
    "dining_capacity",
    "employees",
    "kitchen_size_sqft",
)
FEE_FOR_KIND = {
    ApplicationKind.NEW: FeeKind.NEW_PERMIT,
    ApplicationKind.RENEWAL: FeeKind.RENEWAL,
    ApplicationKind.CHANGE: FeeKind.REISSUE,
}


def choose_from(values) -> str:
    """A refusal of a value outside a fixed list: the codes the API accepts, as they are."""
    return _("Choose from: %(values)s.") % {"values": ", ".join(values)}


def move_application(
    application: PermitApplication, target: str, *, acting_user, action: str, note: str = ""
) -> None:
    """Check and record a change of state; the caller saves the application."""
    check_application_transition(application.status, target)
    record_event(
        acting_user=acting_user,
        action=action,
        application=application,
        from_status=application.status,
        to_status=target,
        note=note,
    )
    application.status = target


def save_application(application, *, acting_user, action, before, note="", creating=False):
    return audited_save(
        application, acting_user=acting_user, action=action, before=before, note=note, creating=creating
    )


def lock_application(application: PermitApplication) -> PermitApplication:
    """Re-read the application under a row lock, so two reviewers cannot both move it."""
    return PermitApplication.objects.select_for_update().get(pk=application.pk)


# --- Drafting ------------------------------------------------------------------------------


def _prefill_from_establishment(establishment) -> dict[str, Any]:
    """What the registry already knows, so the applicant only checks it (A1, B3)."""
    operator = establishment.operator
    devices = [d for d in establishment.devices.all() if d.status == GreaseControlDevice.Status.ACTIVE]
    device = devices[0] if len(devices) == 1 else None
    return {
        "applicant_name": establishment.business_name,
        "applicant_address": (operator.mailing_address if operator and operator.mailing_address else "")
        or establishment.site_address,
        "applicant_phone": (operator.phone if operator else "") or "",
        "applicant_email": (operator.email if operator else "") or "",
        "food_preparation_hours": establishment.food_preparation_hours,
        "cleaning_hours": establishment.cleaning_hours,
        "food_types": establishment.food_types,
        "meals_per_day": establishment.meals_per_day,
        "dining_capacity": establishment.dining_capacity,
        "employees": establishment.employees,
        "kitchen_size_sqft": establishment.kitchen_size_sqft,
        "device": device,
        "device_kind": device.kind if device else "",
        "device_capacity_gallons": device.capacity_gallons if device else None,
        "device_rated_flow_gpm": device.rated_flow_gpm if device else None,
    }


def _open_application(establishment) -> PermitApplication | None:
    return (
        PermitApplication.objects.filter(establishment=establishment)
        .exclude(
            status__in=[ApplicationStatus.ISSUED, ApplicationStatus.REJECTED, ApplicationStatus.WITHDRAWN]
        )
        .first()
    )


def _check_kind(*, establishment, kind: str, previous_permit: Permit | None) -> None:
    """B6 / B8: a renewal or change names the permit it follows; a new permit needs none in force."""
    open_app = _open_application(establishment)
    if open_app is not None:
        raise ValidationError(
            {
                "establishment": [
                    _(
                        "%(business)s already has application %(reference)s in progress (%(status)s): "
                        "continue that one, or withdraw it first."
                    )
                    % {
                        "business": establishment.business_name,
                        "reference": open_app.reference,
                        "status": open_app.get_status_display().lower(),
                    }
                ]
            }
        )
    if kind == ApplicationKind.NEW:
        in_force = establishment.permits.filter(
            status__in=[PermitStatus.ISSUED, PermitStatus.SUSPENDED]
        ).first()
        if in_force is not None:
            raise ValidationError(
                {
                    "kind": [
                        _(
                            "%(business)s already holds permit %(number)s: apply to renew it (B6), or for a "
                            "new permit on a change of ownership, food types or operations (B8)."
                        )
                        % {"business": establishment.business_name, "number": in_force.number}
                    ]
                }
            )
        return
    if previous_permit is None:
        raise ValidationError(
            {"previous_permit": [_("Name the permit this application renews or replaces.")]}
        )
    if previous_permit.establishment_id != establishment.pk:
        raise ValidationError({"previous_permit": [_("That permit belongs to another establishment.")]})
    if kind == ApplicationKind.RENEWAL and previous_permit.status not in RENEWABLE:
        raise ValidationError(
            {
                "previous_permit": [
                    _("Permit %(number)s is %(status)s: only a permit in force or expired can be renewed.")
                    % {"number": previous_permit.number, "status": previous_permit.get_status_display().lower()}
                    + (" " + _("A revoked permit needs a new application (L5).") if previous_permit.status == PermitStatus.REVOKED else "")
                ]
            }
        )  # fmt: skip
    if kind == ApplicationKind.CHANGE and previous_permit.status not in CHANGEABLE:
        raise ValidationError(
            {
                "previous_permit": [
                    _("Permit %(number)s is %(status)s.")
                    % {
                        "number": previous_permit.number,
                        "status": previous_permit.get_status_display().lower(),
                    }
                ]
            }
        )


@transaction.atomic
def application_create(
    *,
    acting_user,
    establishment,
    kind: str = ApplicationKind.NEW,
    previous_permit: Permit | None = None,
    fixtures: Iterable[dict] | None = None,
    **fields,
) -> PermitApplication:
    """Open a draft application for an FSE (B3), pre-filled from the registry.

    The FSE's own users and the FOG Manager's staff may open one. One open application per FSE.
    """
    require_applicant_or_reviewer(acting_user, establishment, "apply for a FOG permit")
    _check_kind(establishment=establishment, kind=kind, previous_permit=previous_permit)
    _reject_unknown(fields)
    values = _prefill_from_establishment(establishment)
    values.update(fields)
    application = PermitApplication(
        establishment=establishment,
        kind=kind,
        previous_permit=previous_permit,
        created_by=person(acting_user),
        **values,
    )
    _validate_device(application)
    application.full_clean()
    application.save()
    # The reference is the Town's: numbered by the database, so two clerks never get the same one.
    application.reference = f"FA-{application.created_at:%Y}-{application.pk:05d}"
    save_application(
        application, acting_user=acting_user, action="application.create", before=None, creating=True
    )
    if fixtures is not None:
        _replace_fixtures(application, fixtures)
    record_event(
        acting_user=acting_user,
        action="application.create",
        application=application,
        to_status=application.status,
    )
    return application


def _reject_unknown(fields: dict) -> None:
    unknown = sorted(set(fields) - set(APPLICANT_FIELDS))
    if unknown:
        raise ValidationError({name: [_("This field cannot be set on an application.")] for name in unknown})


def _validate_device(application: PermitApplication) -> None:
    device = application.device
    if device is not None and not device.establishments.filter(pk=application.establishment_id).exists():
        raise ValidationError(
            {"device": [_("That device does not serve this establishment: choose one of its own devices.")]}
        )
    if device is not None and not application.device_kind:
        application.device_kind = device.kind
    reasons = application.change_reasons or []
    if not isinstance(reasons, list) or any(r not in ChangeReason.values for r in reasons):
        raise ValidationError({"change_reasons": [choose_from(ChangeReason.values)]})
    _validate_inlet_pipe(application)


def _validate_inlet_pipe(application: PermitApplication) -> None:
    """A4: an inlet pipe size must be one CPC Table 703.2 (in the ruleset in force) gives a maximum for."""
    if application.inlet_pipe_size_in in (None, ""):
        application.inlet_pipe_size_in = None
        return
    try:
        size = Decimal(str(application.inlet_pipe_size_in))
    except ArithmeticError:
        raise ValidationError(
            {"inlet_pipe_size_in": [_("Give the pipe size in inches, e.g. 4 or 2.5.")]}
        ) from None
    ruleset = ruleset_on(town_today())
    if not size.is_finite() or size <= 0 or inlet_pipe_max_dfu(size, ruleset) is None:
        sizes = ", ".join(fmt_pipe(s) for s in inlet_pipe_sizes(ruleset))
        raise ValidationError(
            {"inlet_pipe_size_in": [_("CPC Table 703.2 gives no maximum for a %(size)s in pipe: give the "
                                      "inlet pipe size in inches, one of %(sizes)s.")
                                    % {"size": fmt_pipe(size), "sizes": sizes}]}
        )  # fmt: skip


def _replace_fixtures(application: PermitApplication, fixtures: Iterable[dict]) -> None:
    """The fixture list as given replaces the draft's list (B3: kind, count, sink compartments)."""
    rows = []
    errors = []
    for number, data in enumerate(fixtures, start=1):
        unknown = sorted(set(data) - set(FIXTURE_FIELDS))
        if unknown:
            errors.append(
                _("Fixture %(number)s: unknown fields %(fields)s.")
                % {"number": number, "fields": ", ".join(unknown)}
            )
            continue
        row = ApplicationFixture(application=application, **data)
        try:
            row.full_clean(exclude=["application"])
        except ValidationError as error:
            for field, messages in error.message_dict.items():
                errors.append(
                    _("Fixture %(number)s (%(field)s): %(messages)s")
                    % {"number": number, "field": field, "messages": " ".join(messages)}
                )
            continue
        rows.append(row)
    if errors:
        raise ValidationError({"fixtures": errors})
    application.fixtures.all().delete()
    ApplicationFixture.objects.bulk_create(rows)


def _require_draft(application: PermitApplication) -> None:
    if application.status != ApplicationStatus.DRAFT:
        raise TransitionNotAllowed(
            f"Application {application.reference} was submitted on "
            f"{timezone.localtime(application.submitted_at):%Y-%m-%d} and is a copy of record: it cannot be "
            "changed. Answer a request for information, or add a note, instead."
        )


@transaction.atomic
def application_update(
    *,
    application: PermitApplication,
    acting_user,
    fixtures: Iterable[dict] | None = None,
    expected_version: int | None = None,
    **fields,
) -> PermitApplication:
    """Change a draft (B3 fields, device, fixture list). A submitted application cannot change.

    Refused (`StaleRecord`, 409) if the draft moved past the `expected_version` its editor read: two
    people filling in the same draft (the FSE and staff for it) never overwrite each other unseen
    (fogcontrol/core/concurrency.py)."""
    require_applicant_or_reviewer(acting_user, application.establishment, "change this application")
    application = lock_application(application)
    _require_draft(application)
    _reject_unknown(fields)
    check_fresh(application, expected_version)
    before = snapshot(application)
    for name, value in fields.items():
        setattr(application, name, value)
    _validate_device(application)
    save_versioned(application, expected_version=expected_version)
    save_application(application, acting_user=acting_user, action="application.update", before=before)
    if fixtures is not None:
        _replace_fixtures(application, fixtures)
    return application


def store_document(application, *, acting_user, uploaded_file, kind) -> ApplicationDocument:
    if kind not in ApplicationDocument.Kind.values:
        raise ValidationError({"kind": [choose_from(ApplicationDocument.Kind.values)]})
    content_type, sha256 = check_upload(uploaded_file)
    document = ApplicationDocument(
        application=application,
        kind=kind,
        file=uploaded_file,
        original_name=(uploaded_file.name or "document")[:255],
        content_type=content_type,
        size_bytes=uploaded_file.size,
        sha256=sha256,
        uploaded_by=person(acting_user),
    )
    document.save()
    audited_save(document, acting_user=acting_user, action="application.document", creating=True)
    return document


@transaction.atomic
def application_add_document(
    *, application: PermitApplication, acting_user, uploaded_file, kind: str = ApplicationDocument.Kind.OTHER
) -> ApplicationDocument:
    """Attach a file to a draft (B4 documents, plans). After submission, files come with an answer."""
    require_applicant_or_reviewer(acting_user, application.establishment, "add documents to this application")
    application = lock_application(application)
    if application.status not in (ApplicationStatus.DRAFT, ApplicationStatus.INFORMATION_REQUESTED):
        raise TransitionNotAllowed(
            "Documents can be added to a draft, or with an answer to a request for information; "
            f"this application is {application.get_status_display().lower()}."
        )
    return store_document(application, acting_user=acting_user, uploaded_file=uploaded_file, kind=kind)


# --- Renewal (B6) and change (B8) ----------------------------------------------------------


def _carry_forward(permit: Permit) -> tuple[dict, list[dict]]:
    """The last submitted application's answers and fixtures, to pre-fill the next one."""
    last = (
        PermitApplication.objects.filter(establishment=permit.establishment, submitted_at__isnull=False)
        .order_by("-submitted_at")
        .first()
    )
    if last is None:
        return {}, []
    fields = {
        name: getattr(last, name)
        for name in APPLICANT_FIELDS
        if name not in ("change_reasons", "change_description")
    }
    fixtures = [{name: getattr(item, name) for name in FIXTURE_FIELDS} for item in last.fixtures.all()]
    return fields, fixtures


@transaction.atomic
def renewal_application_start(*, permit: Permit, acting_user) -> PermitApplication:
    """B6: open the annual renewal, pre-filled from the last application and the permit's device."""
    # Who first (403), then when (409): a role that may never renew is not told about the window.
    require_applicant_or_reviewer(acting_user, permit.establishment, "renew this permit")
    if permit.status not in RENEWABLE:
        raise TransitionNotAllowed(
            f"Permit {permit.number} is {permit.get_status_display().lower()}: it cannot be renewed."
            + (" The FSE must apply for a new permit (L5)." if permit.status == PermitStatus.REVOKED else "")
        )
    today = town_today()
    not_yet = renewal_not_open_yet(permit, today=today, ruleset=ruleset_on(today))
    if not_yet:
        raise TransitionNotAllowed(not_yet)
    fields, fixtures = _carry_forward(permit)
    if permit.device_id:
        fields.update(device=permit.device, device_kind=permit.device_kind)
    fields.setdefault("device_kind", permit.device_kind)
    fields["device_capacity_gallons"] = permit.device_capacity_gallons
    fields["device_rated_flow_gpm"] = permit.device_rated_flow_gpm
    fields.pop("route", None)
    return application_create(
        acting_user=acting_user,
        establishment=permit.establishment,
        kind=ApplicationKind.RENEWAL,
        previous_permit=permit,
        fixtures=fixtures,
        **fields,
    )


@transaction.atomic
def change_application_start(
    *, permit: Permit, acting_user, change_reasons: list[str], change_description: str = ""
) -> PermitApplication:
    """B8: a change of ownership, food types or operations needs a new application, fee and permit.

    A change of service frequency approved by the FOG Manager does not: it is the device's, proposed
    with `fogcontrol.servicing.services.frequency_change` (B7, A2).
    """
    # Who first (403), then when (409), as permit_actions answers: as for a renewal.
    require_applicant_or_reviewer(acting_user, permit.establishment, "apply for a FOG permit")
    if permit.status not in CHANGEABLE:
        raise TransitionNotAllowed(
            (
                _("Permit %(number)s is %(status)s: apply for a new permit (L5).")
                if permit.status == PermitStatus.REVOKED
                else _("Permit %(number)s is %(status)s: act on the newer permit (B8).")
            )
            % {"number": permit.number, "status": permit.get_status_display().lower()}
        )
    if not change_reasons:
        raise ValidationError(
            {"change_reasons": [_("B8: say what changed: ownership, food types or operations.")]}
        )
    if set(change_reasons) - set(ChangeReason.values):
        raise ValidationError({"change_reasons": [choose_from(ChangeReason.values)]})
    fields, fixtures = _carry_forward(permit)
    fields.pop("route", None)
    return application_create(
        acting_user=acting_user,
        establishment=permit.establishment,
        kind=ApplicationKind.CHANGE,
        previous_permit=permit,
        fixtures=fixtures,
        change_reasons=list(change_reasons),
        change_description=change_description,
        **fields,
    )
