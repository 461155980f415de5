"""Rows for the permits' query-count tests: every kind of record the lists show, per establishment."""

import datetime as dt

from fogcontrol.core.roles import Role
from fogcontrol.permits import services
from fogcontrol.permits.tests.factories import PermitFactory, fee_schedule
from fogcontrol.permits.tests.orders import noticed_order
from fogcontrol.program.selectors import town_today
from fogcontrol.testing.factories import EstablishmentFactory

DAY = dt.timedelta(days=1)


def add_permit_rows(count: int, *, manager, bound_user=None) -> None:
    """`count` more establishments, each with a draft application and its fee owed (B3), a permit with a proposed
    modification (B7) and a noticed order (L1), a remodel notice (G1) and a fee schedule; as many
    with a permit due for renewal (B6), and as many without a permit (B1). With an FSE user as `bound_user`, the
    establishments are bound to it, so its lists grow too."""
    today = town_today()
    for _ in range(count):
        fse, renewing, unpermitted = EstablishmentFactory.create_batch(3)
        if bound_user is not None and bound_user.role == Role.FSE:
            for establishment in (fse, renewing, unpermitted):
                establishment.users.add(bound_user)
        application = services.application_create(acting_user=manager, establishment=fse)
        services.fee_assess(
            acting_user=manager,
            kind="new_permit",
            establishment=fse,
            on=today,
            description="New permit",
            application=application,
        )
        PermitFactory(establishment=renewing, valid_until=today + 20 * DAY)
        permit = PermitFactory(establishment=fse, valid_until=today + 400 * DAY)
        services.permit_modification_propose(
            permit=permit,
            acting_user=manager,
            changes={"conditions": "Clean the baffles monthly."},
            reason="Repeated overflows",
            effective_on=today + 100 * DAY,
        )
        noticed_order(permit, manager)
        services.remodel_notice_file(
            acting_user=manager,
            establishment=fse,
            kind="remodel",
            description="New fryer line",
            planned_start=today + 90 * DAY,
        )
        latest = services.fee_schedule_on(dt.date(2100, 1, 1))
        fee_schedule(effective_from=(latest.effective_from if latest else today) + DAY)
