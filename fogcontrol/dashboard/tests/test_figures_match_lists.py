"""Each figure of the "today" dashboard is the count of the list it links to: follow every link, as
each staff role, on the demo town (every app's demo data), and read the list's own count."""

import pytest

from fogcontrol.core.roles import STAFF_ROLES, Role
from fogcontrol.dashboard.tests.demo_town import demo_fixture

pytestmark = pytest.mark.django_db

demo = demo_fixture()


def _figures(client):
    response = client.get("/")
    assert response.status_code == 200
    return [figure for panel in response.context["panels"] for figure in panel.figures]


def _list_count(client, url) -> int:
    response = client.get(url)
    assert response.status_code == 200, f"{url} answered {response.status_code}"
    return response.context["page"].paginator.count


@pytest.mark.parametrize("role", sorted(STAFF_ROLES))
def test_every_figure_is_the_count_of_the_list_it_links_to(client, demo, role):
    client.force_login(demo[role])
    figures = _figures(client)
    assert figures, "every staff role sees at least one panel"
    wrong = [
        f"{figure.key}: the dashboard says {figure.count}, {figure.url} lists {listed}"
        for figure in figures
        if (listed := _list_count(client, figure.url)) != figure.count
    ]
    assert not wrong, "\n".join(wrong)


def test_the_demo_gives_the_manager_real_numbers(client, demo):
    client.force_login(demo[Role.FOG_MANAGER])
    counts = {figure.key: figure.count for figure in _figures(client)}
    shown = [key for key, count in counts.items() if count]
    # The demo town has flags to review, overdue devices, permits, cases, invoices and spills.
    for key in ("flags_open", "services_overdue", "cases_open", "invoices_outstanding"):
        assert counts[key] > 0, f"{key} is 0 in the demo: {counts}"
    assert len(shown) >= 8, counts
