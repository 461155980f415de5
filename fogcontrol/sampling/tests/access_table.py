"""Who may open and do what in sampling: every page and API route × every role.

Staff see every sample, discharge limit and monitoring facility; an FSE user those of its own
establishments (`own_fse`), a property owner those of the FSEs on its parcels, a hauler none: outside
the scope, 404 (docs/architecture.md, "Who may see what", D5, D7). The FOG Manager and inspectors
record samples, hand-offs, results, uploads and a sample's D6 charge (`roles.SAMPLERS`); only the FOG
Manager sets discharge limits and requires facilities; the FOG Manager and inspectors record a
facility installed. Any other role is refused (403) before its input is read.

Run by sampling/tests/test_access.py; the kit is fogcontrol/testing/access.py.
"""

from __future__ import annotations

import datetime as dt

from django.core.files.uploadedfile import SimpleUploadedFile

from fogcontrol.core.roles import Role
from fogcontrol.program.selectors import town_today
from fogcontrol.sampling.roles import FACILITY_RECORDERS, LIMIT_SETTERS, SAMPLERS
from fogcontrol.sampling.services import facility_require, results_upload
from fogcontrol.sampling.tests.helpers import fog_limit, sample_of
from fogcontrol.testing.access import api, page

OWN = frozenset({Role.FSE})
FACILITY_SETTERS_ = LIMIT_SETTERS  # the FOG Manager, as for limits


def build(town) -> None:
    """A sample of the FSE's own establishment with an uploaded lab file, a FOG limit and a
    required monitoring facility."""
    manager, inspector = town.users[Role.FOG_MANAGER], town.users[Role.INSPECTOR]
    town.records["limit"] = fog_limit(town.own_fse, manager)
    sample = sample_of(town.own_fse, inspector)
    day = (town_today() - dt.timedelta(days=1)).isoformat()
    csv = f"analyte,value,unit,method,analysed_on,reported_by\nfog,42,mg/L,EPA 1664B,{day},Bay\n".encode()
    town.records["report"], _ = results_upload(
        sample=sample, file=SimpleUploadedFile("lab.csv", csv, content_type="text/csv"), acting_user=inspector
    )
    town.records["sample"] = sample
    town.records["facility"] = facility_require(
        establishment=town.own_fse,
        kind="sampling",
        description="Sample box",
        location="Rear lot",
        required_on=town_today(),
        acting_user=manager,
    )


def _s(t):
    return t["sample"].pk


P = "/sampling"
PAGES = [
    page("sampling:list", f"{P}/", record=False),
    page("sampling:new", f"{P}/new/", record=False, may=SAMPLERS),
    page("sampling:new", f"{P}/new/", record=False, method="post", may=SAMPLERS, body={}, label="record"),
    page("sampling:detail", lambda t: f"{P}/{_s(t)}/", owners=OWN),
    page("sampling:custody", lambda t: f"{P}/{_s(t)}/custody/", method="post", owners=OWN, may=SAMPLERS),
    page("sampling:result", lambda t: f"{P}/{_s(t)}/results/", method="post", owners=OWN, may=SAMPLERS),
    page(
        "sampling:upload", lambda t: f"{P}/{_s(t)}/results/upload/", method="post", owners=OWN, may=SAMPLERS
    ),
    page("sampling:charge", lambda t: f"{P}/{_s(t)}/charges/", method="post", owners=OWN, may=SAMPLERS),
    page("sampling:report", lambda t: f"{P}/reports/{t['report'].pk}/", owners=OWN),
    page("sampling:limits", f"{P}/limits/", record=False),
    page(
        "sampling:limits",
        f"{P}/limits/",
        record=False,
        method="post",
        may=LIMIT_SETTERS,
        body={},
        label="set",
    ),
    page("sampling:facilities", f"{P}/facilities/", record=False),
    page(
        "sampling:facilities",
        f"{P}/facilities/",
        record=False,
        method="post",
        may=FACILITY_SETTERS_,
        body={},
        label="require",
    ),
    page(
        "sampling:facility_installed",
        lambda t: f"{P}/facilities/{t['facility'].pk}/installed/",
        method="post",
        owners=OWN,
        may=FACILITY_RECORDERS,
    ),
]

A = "/api/v1"
APIS = [
    api("sample-list", f"{A}/samples/", record=False),
    api("sample-list", f"{A}/samples/", record=False, method="post", may=SAMPLERS, body={}, label="record"),
    api("sample-detail", lambda t: f"{A}/samples/{_s(t)}/", owners=OWN),
    api("sample-custody", lambda t: f"{A}/samples/{_s(t)}/custody/", method="post", owners=OWN, may=SAMPLERS),
    api("sample-results", lambda t: f"{A}/samples/{_s(t)}/results/", method="post", owners=OWN, may=SAMPLERS),
    api(
        "sample-results-upload",
        lambda t: f"{A}/samples/{_s(t)}/results/upload/",
        method="post",
        owners=OWN,
        may=SAMPLERS,
    ),
    api("discharge-limit-list", f"{A}/discharge-limits/", record=False),
    api(
        "discharge-limit-list",
        f"{A}/discharge-limits/",
        record=False,
        method="post",
        may=LIMIT_SETTERS,
        body={},
        label="set",
    ),
    api("discharge-limit-detail", lambda t: f"{A}/discharge-limits/{t['limit'].pk}/", owners=OWN),
    api("monitoring-facility-list", f"{A}/monitoring-facilities/", record=False),
    api(
        "monitoring-facility-list",
        f"{A}/monitoring-facilities/",
        record=False,
        method="post",
        may=FACILITY_SETTERS_,
        body={},
        label="require",
    ),
    api("monitoring-facility-detail", lambda t: f"{A}/monitoring-facilities/{t['facility'].pk}/", owners=OWN),
    api(
        "monitoring-facility-installed",
        lambda t: f"{A}/monitoring-facilities/{t['facility'].pk}/installed/",
        method="post",
        owners=OWN,
        may=FACILITY_RECORDERS,
    ),
]

ROUTES = PAGES + APIS
