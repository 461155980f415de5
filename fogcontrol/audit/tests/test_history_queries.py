"""A record's change history (staff only, on its page) takes the same exact number of queries for a
few audit entries and for many (fogcontrol.testing.queries)."""

from django.test import Client

from fogcontrol.audit.services import audit_record
from fogcontrol.core.roles import Role
from fogcontrol.testing.queries import assert_queries_do_not_grow


def test_the_change_history_takes_the_same_exact_queries_for_few_entries_and_many(town):
    manager = town.users[Role.FOG_MANAGER]
    fse = town.own_fse
    edits = iter(range(100))

    def add_entries(count):
        for _ in range(count):
            number = next(edits)
            audit_record(acting_user=manager if number % 2 else "nightly-sweep", action="establishment.update",
                         instance=fse, before={"meals_per_day": number}, after={"meals_per_day": number + 1})  # fmt: skip

    client = Client()
    client.force_login(manager)
    url = f"/registry/establishments/{fse.pk}/"
    # The page's own reads and the history: each entry's actor is joined
    # (audit.selectors.audit_entries_for), never read per entry. Two of the 12 are what the FSE owes
    # (core.owed: one query asks which of billing's open invoices, charges and producers hold
    # anything, and here none does; the unpaid citations), fixed in size. Two are the panels of the
    # apps above (fogcontrol.core.panels): the permit (none here; with one, the rules it stands
    # under), and the service state of the FSE's devices (issue 18: the page showed neither).
    few, many = assert_queries_do_not_grow(client, add_entries, {url: 12})[url]
    assert len(many.context["history"]) - len(few.context["history"]) == 5
