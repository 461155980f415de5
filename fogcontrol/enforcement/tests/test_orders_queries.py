"""The later steps' API lists (complaints, hearings, penalty orders, terminations) take the same exact
number of queries for a few rows and for many (no N+1): fogcontrol.testing.queries."""

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.enforcement.services.suspensions import emergency_suspension_order
from fogcontrol.enforcement.services.terminations import service_terminate
from fogcontrol.enforcement.tests.helpers_orders import (
    FACTORS,
    a_case_of_kind,
    a_complaint,
    a_permit,
    ago,
    issue_penalty_order,
)
from fogcontrol.testing.queries import assert_queries_do_not_grow

# count and page, the prefetches each list shows (violations, continuances, costs) and one the request makes.
API = {
    "/api/v1/enforcement/complaints/": 5,
    "/api/v1/enforcement/hearings/": 4,
    "/api/v1/enforcement/penalty-orders/": 4,
    "/api/v1/enforcement/terminations/": 4,
}


def add_rows(town, count):
    manager = town.users[Role.FOG_MANAGER]
    for _ in range(count):
        case = a_case_of_kind(town)
        a_permit(town)
        a_complaint(town, case)
        issue_penalty_order(
            acting_user=manager, case=case, violation_kind="maintenance", days=2, amount=500,
            hearing_officer_name="A. Reyes", factors=FACTORS, issued_on=ago(2), service_method="personal_delivery",
            served_on=ago(2),
        )  # fmt: skip
        hearing = emergency_suspension_order(
            acting_user=manager,
            case=case,
            ordered_on=ago(2),
            determination="SSO",
            determined_by="FOG Manager",
        )
        service_terminate(acting_user=manager, case=case, terminated_on=ago(1), how="Plugged.",
                          permit_order=hearing.permit_order, cost=100, owed_by="Owner")  # fmt: skip


def test_the_api_lists_take_the_same_exact_queries_for_few_rows_and_many(town):
    manager = town.users[Role.FOG_MANAGER]
    assert_queries_do_not_grow(api_as(manager), lambda count: add_rows(town, count), API)


def test_the_fse_sees_the_same_lists_in_the_same_exact_queries(town):
    assert_queries_do_not_grow(api_as(town.users[Role.FSE]), lambda count: add_rows(town, count), API)


def test_the_hearing_list_page_takes_the_same_exact_queries_for_few_rows_and_many(client, town):
    client.force_login(town.users[Role.FOG_MANAGER])
    # the Town, the session, the user; hearings: the count, the page and its continuances; cases by
    # stage: the count, the establishment filter's choices and the page
    pages = {"/enforcement/hearings/": 6, "/enforcement/?open=true&stage=penalty": 6}
    assert_queries_do_not_grow(client, lambda count: add_rows(town, count), pages)
