"""Every permits list, page and API, takes the same exact number of queries for a few rows and for
many (no N+1): fogcontrol.testing.queries."""

from conftest import api_as
from fogcontrol.permits.tests.rows import add_permit_rows
from fogcontrol.testing.queries import assert_queries_do_not_grow

# Pages: session, user, Town profile, the rows' count and page with what they show joined or
# prefetched, plus the queue counts and tiles of the home page. API: count, page and prefetches.
# The permit list reads the Town once since it reads the program once (`program_read_once`): 6 before.
PAGES = {
    "/permits/": 11,
    "/permits/applications/": 7,
    "/permits/list/": 5,
    "/permits/renewals/": 7,
    "/permits/without-permit/": 6,
    "/permits/remodel/": 6,
    "/permits/fees/": 6,
}
API = {
    "/api/v1/permit-applications/": 3,
    "/api/v1/permits/": 3,
    "/api/v1/permits/without-permit/": 4,
    "/api/v1/permit-renewals/?within_days=700": 5,
    "/api/v1/permit-modifications/": 3,
    "/api/v1/permit-notices/": 3,
    "/api/v1/permit-orders/": 3,
    "/api/v1/remodel-notices/": 3,
    "/api/v1/fee-schedules/": 4,
    "/api/v1/fee-charges/": 3,
}
# What an FSE user may open: its portal, its applications and remodel notices, the fee schedules.
# Its portal adds the summary of its establishments (selectors.permit_summary_for), whatever their number.
FSE_PAGES = {"/permits/": 14, "/permits/applications/": 7, "/permits/remodel/": 6, "/permits/fees/": 6}
FSE_API = {
    "/api/v1/permit-applications/": 3,
    "/api/v1/permits/": 3,
    "/api/v1/permit-modifications/": 3,
    "/api/v1/permit-notices/": 3,
    "/api/v1/permit-orders/": 3,
    "/api/v1/remodel-notices/": 3,
    "/api/v1/fee-schedules/": 4,
    "/api/v1/fee-charges/": 3,
}


def test_the_list_pages_take_the_same_exact_queries_for_few_rows_and_many(client, town, manager, fees):
    client.force_login(manager)
    assert_queries_do_not_grow(client, lambda count: add_permit_rows(count, manager=manager), PAGES)


def test_the_api_lists_take_the_same_exact_queries_for_few_rows_and_many(town, manager, fees):
    assert_queries_do_not_grow(api_as(manager), lambda count: add_permit_rows(count, manager=manager), API)


def test_the_fse_portal_and_lists_take_the_same_exact_queries_for_few_rows_and_many(
    client, town, manager, fse_user, fees
):
    client.force_login(fse_user)
    assert_queries_do_not_grow(
        client, lambda count: add_permit_rows(count, manager=manager, bound_user=fse_user), FSE_PAGES
    )


def test_the_fse_api_lists_take_the_same_exact_queries_for_few_rows_and_many(town, manager, fse_user, fees):
    assert_queries_do_not_grow(
        api_as(fse_user), lambda count: add_permit_rows(count, manager=manager, bound_user=fse_user), FSE_API
    )
