"""The account page lists the records an outside user is bound to: the same exact number of queries
for a few and for many (fogcontrol.testing.queries)."""

import pytest
from django.test import Client

from fogcontrol.core.roles import Role
from fogcontrol.testing import factories
from fogcontrol.testing.queries import assert_queries_do_not_grow


def _bind(user, count: int) -> None:
    """`count` more establishments, parcels and haulers bound to `user`, each shown on the page."""
    for _ in range(count):
        fse = factories.EstablishmentFactory()
        hauler = factories.HaulerCompanyFactory()
        fse.haulers.add(hauler)
        if user.role == Role.FSE:
            fse.users.add(user)
        if user.role == Role.PROPERTY_OWNER:
            fse.parcel.owner_users.add(user)
        if user.role == Role.HAULER:
            hauler.users.add(user)


# Session, user, Town profile and the API token; an outside user's page adds the establishments,
# parcels and haulers it is bound to, each read once whatever their number.
@pytest.mark.parametrize(
    "role, expected",
    # Each count includes the two queries of the sign-in security card (issue #15): whether the
    # user has an authenticator, and how many backup codes are left.
    [(Role.FSE, 9), (Role.PROPERTY_OWNER, 9), (Role.HAULER, 8), (Role.FOG_MANAGER, 6)],
    ids=lambda value: getattr(value, "value", str(value)),
)
def test_the_account_page_takes_the_same_exact_queries_for_few_bound_records_and_many(town, role, expected):
    user = town.users[role]
    client = Client()
    client.force_login(user)
    few, many = assert_queries_do_not_grow(client, lambda count: _bind(user, count), {"/account/": expected})[
        "/account/"
    ]
    if role != Role.FOG_MANAGER:
        assert len(many.context["establishments"]) > len(few.context["establishments"])
