"""Every notices list, page and API, takes the same exact number of queries for a few rows and for
many (no N+1): fogcontrol.testing.queries."""

import pytest

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.notices.models import DocumentTemplate
from fogcontrol.notices.tests.conftest import days_ago
from fogcontrol.notices.tests.helpers import issue_letter
from fogcontrol.testing.queries import assert_queries_do_not_grow

pytestmark = pytest.mark.django_db


def _adder(town):
    def add(count: int) -> None:
        for _ in range(count):
            issue_letter(town, served_on=days_ago(0), subject=town.own_device)
            latest = DocumentTemplate.objects.filter(key="general_letter").order_by("-version").first()
            DocumentTemplate.objects.create(
                key="general_letter", version=latest.version + 1, title="T", body="{body_text}",
                effective_from=days_ago(0), adopted_by="Res. 1",
            )  # fmt: skip

    return add


# Pages: session, user, Town profile, the count and page of documents with their establishment,
# the services prefetched, the establishment filter's choices; the templates pages read the Town's
# today and every version in one query. API: the Town profile (its time zone), count, page, services.
PAGES = {"/notices/documents/": 7, "/notices/documents/?served=true&key=general_letter": 7,
         "/notices/templates/general_letter/": 5, "/notices/templates/": 5}  # fmt: skip
API = {
    "/api/v1/notices/documents/": 4,
    "/api/v1/notices/documents/?key=general_letter&served=true": 4,
    "/api/v1/notices/templates/general_letter/versions/": 2,
}
# One row per registered document (each with its version in force and its draft): its length is the
# catalogue's, not the versions added.
TEMPLATES_API = {"/api/v1/notices/templates/": 3}


def test_the_list_pages_take_the_same_exact_queries_for_few_rows_and_many(client, town, manager):
    client.force_login(manager)
    assert_queries_do_not_grow(client, _adder(town), PAGES)


def test_the_api_lists_take_the_same_exact_queries_for_few_rows_and_many(town, manager):
    assert_queries_do_not_grow(api_as(manager), _adder(town), API)


def test_the_templates_api_takes_the_same_exact_queries_for_few_versions_and_many(town, manager):
    assert_queries_do_not_grow(api_as(manager), _adder(town), TEMPLATES_API, grows=False)


def test_the_fse_lists_take_the_same_exact_queries_for_few_rows_and_many(client, town):
    client.force_login(town.users[Role.FSE])
    assert_queries_do_not_grow(client, _adder(town), {"/notices/documents/": 7})
    assert_queries_do_not_grow(api_as(town.users[Role.FSE]), _adder(town), {"/api/v1/notices/documents/": 4})
