"""B6: the permit runs with the business licence, so a licence's new expiry reaches the permit.

The licence import and registry edits write an establishment's licence expiry through
`registry.services.establishment_update`, which sends `registry.signals.licence_expiry_changed`;
permits receives it (`permits/hooks.py`) and calls `permits_follow_licence` in the same transaction.
Each permit in force (or
suspended) whose term has not ended gets the expiry `rules.permit_term` gives for its term and the
licence's new expiry, never later than the B6 term: a new version (the permit as printed states its
expiry, B2), a timeline event, an audit entry with before and after, and a notice to the permittee.
A permit already expired stays expired: it is renewed by application (B6).
"""

from __future__ import annotations

import datetime as dt
import functools

from django.db import transaction
from django.utils.translation import gettext as _

from fogcontrol.audit.services import snapshot
from fogcontrol.permits.models import Permit, PermitNotice, PermitStatus, PermitVersion
from fogcontrol.permits.services.common import audited_save, record_event
from fogcontrol.permits.services.notices import notice_day, notice_send
from fogcontrol.permits.services.permit_versions import current_conditions, write_version
from fogcontrol.program.selectors import ruleset_on, town_calendar, town_today
from fogcontrol.rules.permit_term import permit_term


def _licence_notice(number: str, licence: str, expires, valid_until, was) -> tuple[str, str]:
    """B6: the notice that the permit's expiry follows the licence, in the active language."""
    values = {"number": number, "licence": licence, "expires": notice_day(expires),
              "until": notice_day(valid_until), "was": notice_day(was)}  # fmt: skip
    subject = _("FOG permit %(number)s: expiry follows your business licence") % values
    body = (
        _(
            "Your FOG permit %(number)s is renewed annually and concurrently with your business licence "
            "(Chapter 10.02, B6). Business licence %(licence)s now expires on %(expires)s, so the permit is "
            "valid until %(until)s (it was %(was)s). Renew the permit with the licence. The revised permit "
            "is on the FOG permit portal."
        )
        % values
    )
    return subject, body


@transaction.atomic
def permits_follow_licence(*, establishment, acting_user, previous_expiry: dt.date | None) -> list[Permit]:
    """B6: move the renewal date of the establishment's permits in force to follow its licence's new
    expiry (within the B6 term). Returns the permits changed. A licence with no expiry changes nothing."""
    expires = establishment.licence_expires_on
    if expires is None:
        return []
    today = town_today()
    calendar = town_calendar()
    changed = []
    permits = Permit.objects.select_for_update().filter(
        establishment=establishment,
        status__in=[PermitStatus.ISSUED, PermitStatus.SUSPENDED],
        valid_until__gte=today,
    )
    for permit in permits:
        term = permit_term(
            permit.term_start,
            licence_number=establishment.licence_number,
            licence_expires_on=expires,
            ruleset=ruleset_on(permit.term_start),
            calendar=calendar,
        )
        if term.valid_until == permit.valid_until:
            continue
        before = snapshot(permit)
        was = permit.valid_until
        note = (
            f"Business licence {establishment.licence_number} now expires {expires:%Y-%m-%d}"
            + (f" (was {previous_expiry:%Y-%m-%d})" if previous_expiry else "")
            + f": permit valid until {term.valid_until:%Y-%m-%d} (was {was:%Y-%m-%d}) (B6)."
        )
        permit.valid_until = term.valid_until
        permit.version_number += 1
        record_event(acting_user=acting_user, action="permit.licence_expiry", permit=permit, note=note)
        audited_save(
            permit, acting_user=acting_user, action="permit.licence_expiry", before=before, note=note
        )
        permit.establishment = establishment
        write_version(
            permit,
            acting_user=acting_user,
            reason=PermitVersion.Reason.LICENCE,
            effective_from=today,
            conditions=current_conditions(permit),
        )
        notice_send(
            acting_user=acting_user,
            establishment=establishment,
            kind=PermitNotice.Kind.LICENCE_EXPIRY,
            wording=functools.partial(
                _licence_notice, permit.number, establishment.licence_number, expires, term.valid_until, was
            ),
            sent_on=today,
            permit=permit,
        )
        changed.append(permit)
    return changed
