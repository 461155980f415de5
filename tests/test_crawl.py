"""Every link a user is shown works (issue 19): as each role of a small deterministic town, follow
every same-origin link from the home page and fail on what a user would trip over.

Forms are not submitted here; the browser journeys do that."""

from decimal import Decimal

import pytest

from fogcontrol.core.roles import Role
from fogcontrol.permits import selectors as permit_selectors
from fogcontrol.permits import services as permit_services
from fogcontrol.permits.tests.conftest import B3_ANSWERS, FIXTURES
from fogcontrol.permits.tests.factories import PermitFactory, fee_schedule
from fogcontrol.servicing.tests.helpers import days_ago, submit
from fogcontrol.testing.crawl import CrawlSession, crawl

# Pages per role: the small town has fewer, so the whole of each role's site is walked.
CAP_PER_ROLE = 150

# What each "All …" list should show a user who has such records.
ALL_LISTS = {
    "/permits/list/": permit_selectors.permit_list,
    "/permits/applications/": permit_selectors.application_list,
    "/permits/remodel/": permit_selectors.remodel_notices_visible_to,
}


@pytest.fixture
def crawled_town(town):
    """The root `town`, with permits, an application, manifests and a review flag in it."""
    fee_schedule()
    # The application first: a new one is refused while a permit is in force (B8).
    permit_services.application_create(
        acting_user=town.users[Role.FSE], establishment=town.own_fse, fixtures=FIXTURES, **B3_ANSWERS
    )
    PermitFactory(number="FOG-2025-00101", establishment=town.own_fse, device=town.own_device)
    PermitFactory(number="FOG-2025-00102", establishment=town.mall_fses[0], device=town.shared_device)
    hauler = town.users[Role.HAULER]
    submit(hauler, town.own_device, serviced_at=days_ago(40))
    # Deep FOG and solids: the 25% rule flags it for review (E3).
    submit(hauler, town.own_device, serviced_at=days_ago(5), fog_depth_in=Decimal("12"),
           solids_depth_in=Decimal("10"))  # fmt: skip
    return town


def test_every_link_each_role_is_shown_works(client, crawled_town):
    session = CrawlSession()
    problems, visited = [], {}
    for role in Role:
        user = crawled_town.users[role]
        client.force_login(user)
        result = crawl(client, role=role.value, session=session, cap=CAP_PER_ROLE)
        visited[role.value] = len(result.visited)
        problems += [str(problem) for problem in result.problems]
        for shown_on, path in result.empty_all_lists:
            records = ALL_LISTS.get(path)
            if records is None:
                problems.append(f"[{role.value}] {shown_on} → {path}: an 'All' list the test does not know")
            elif records(user).exists():
                problems.append(
                    f"[{role.value}] {shown_on} → {path}: lists nothing, but the user has records"
                )
        client.logout()
    assert not problems, "\n".join(problems)
    assert all(count > 3 for count in visited.values()), visited  # each role reached past its home
