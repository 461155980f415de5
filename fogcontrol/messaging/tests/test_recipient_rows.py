"""Issue 16: the reminders read a page's recipients from value rows (``recipients.contacts_of``);
they must be the people ``recipients_of`` names from the model instances, in the same order."""

import pytest
from django.db.models import Prefetch

from fogcontrol.accounts.models import User
from fogcontrol.messaging.recipients import FSE, HAULER, OWNER, contacts_of, recipients_of
from fogcontrol.registry.models import FoodServiceEstablishment, HaulerCompany
from fogcontrol.testing import factories

pytestmark = pytest.mark.django_db
GROUPS = [(FSE,), (FSE, OWNER), (FSE, OWNER, HAULER), (OWNER,), (HAULER,)]


def _people():
    """Establishments with every case ``recipients_of`` handles: users active and not, with and
    without an e-mail or a name, an address twice (in other case), a party without an e-mail, no
    parcel, a parcel without owner, haulers with and without an e-mail, shared between two."""
    user = factories.UserFactory
    cook, idle = user(preferred_language="es"), user(is_active=False)
    nameless, mute = user(first_name="", last_name=""), user(email="")
    contact = factories.PartyFactory(email="Front@Example.org", contact_name="Ana", preferred_language="es")
    echo = user(email="front@example.org")
    landlord_user, driver, retired = user(), user(), user(is_active=False)
    pump = factories.HaulerCompanyFactory(email="pump@example.org")
    quiet = factories.HaulerCompanyFactory(email="")
    pump.users.add(retired, driver)
    quiet.users.add(cook)
    full = factories.EstablishmentFactory(contact=contact, operator=factories.PartyFactory(email=""))
    full.users.add(echo, mute, nameless, idle, cook)
    full.parcel.owner_users.add(landlord_user, cook)
    full.haulers.add(quiet, pump)
    bare = factories.EstablishmentFactory(parcel=None, operator=None)
    bare.users.add(landlord_user)
    bare.haulers.add(pump)
    ownerless = factories.EstablishmentFactory(parcel=factories.ParcelFactory(owner=None))
    return [full, bare, ownerless, factories.EstablishmentFactory()]


def _prefetched(ids) -> dict:
    """The establishments as the reminders loaded them before (model instances, a prefetch of
    each relation, the users by id): what ``recipients_of`` read then."""
    users = User.objects.filter(is_active=True).order_by("pk")
    return {
        fse.pk: fse
        for fse in FoodServiceEstablishment.objects.filter(pk__in=ids)
        .select_related("contact", "operator", "parcel__owner")
        .prefetch_related(
            Prefetch("users", queryset=users),
            Prefetch("parcel__owner_users", queryset=users),
            Prefetch(
                "haulers",
                queryset=HaulerCompany.objects.order_by("pk").prefetch_related(
                    Prefetch("users", queryset=users)
                ),
            ),
        )
    }


def test_contacts_of_names_the_people_recipients_of_names(django_assert_num_queries):
    fses = _people()
    with django_assert_num_queries(5):
        contacts = contacts_of(fse.pk for fse in fses)
    before = _prefetched([fse.pk for fse in fses])
    for fse in fses:
        row = contacts[fse.pk]
        assert row.values == {"business_name": fse.business_name, "site_address": fse.site_address}
        for who in GROUPS:
            assert row.recipients(who) == recipients_of(before[fse.pk], who), (fse.business_name, who)
    everyone = [r.email for r in contacts[fses[0].pk].recipients((FSE, OWNER, HAULER))]
    assert everyone[0] == "Front@Example.org" and "pump@example.org" in everyone and len(everyone) == 7
