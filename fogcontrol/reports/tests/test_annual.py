"""The annual program report counts what the records hold (issue #17): known records are built for
a past year and beside it, and each figure is asserted; the page, the PDF, the XLSX and the API show
the same figures; the report takes a fixed number of queries whatever the records."""

from __future__ import annotations

import datetime as dt
import io
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from openpyxl import load_workbook

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.permits.models import PermitOrder, PermitStatus, PermitVersion
from fogcontrol.program.selectors import town_today
from fogcontrol.reports.annual import QUERIES, annual_report
from fogcontrol.reports.tests import records as r
from fogcontrol.testing.factories import DeviceFactory, EstablishmentFactory

pytestmark = pytest.mark.django_db


def _year() -> int:
    return town_today().year - 1


def _d(year: int, month: int, day: int) -> dt.date:
    return dt.date(year, month, day)


def build_year(town, year: int) -> None:
    """The records of `year`, and some just outside it that no figure may count."""
    before, after = year - 1, year + 1
    manager = town.users[Role.FOG_MANAGER]
    # Permits: two new, one B8 reissue of one of them; one issued the year before and in force on Dec 31;
    # one that lapsed in June; one revoked (in force by dates, not counted); one renewal, one modification.
    new_a = r.permit(issued=_d(year, 2, 1), until=_d(after, 1, 31))
    r.permit(issued=_d(year, 12, 31), until=_d(after, 12, 31))
    reissue = r.permit(issued=_d(year, 8, 1), until=_d(after, 1, 31), establishment=new_a.establishment)
    new_a.superseded_by = reissue
    new_a.status = PermitStatus.SUPERSEDED
    new_a.save()
    old = r.permit(issued=_d(before, 3, 1), until=_d(after, 3, 1))
    r.permit(issued=_d(before, 6, 1), until=_d(year, 6, 1), status=PermitStatus.EXPIRED)
    r.permit(issued=_d(before, 6, 1), until=_d(after, 6, 1), status=PermitStatus.REVOKED)
    r.permit(issued=_d(after, 1, 2), until=_d(after + 1, 1, 2))
    r.version(old, reason=PermitVersion.Reason.RENEWED, on=_d(year, 3, 1))
    r.version(old, reason=PermitVersion.Reason.RENEWED, on=_d(after, 3, 1))
    r.version(old, reason=PermitVersion.Reason.MODIFIED, on=_d(year, 5, 1))
    # Suspensions and revocations applied: one each in the year, one suspension not yet applied, one the year before.
    r.permit_order(old, kind=PermitOrder.Kind.SUSPENSION, applied=_d(year, 4, 1))
    r.permit_order(old, kind=PermitOrder.Kind.EMERGENCY_SUSPENSION, applied=_d(year, 4, 2))
    r.permit_order(old, kind=PermitOrder.Kind.REVOCATION, applied=_d(year, 9, 1))
    r.permit_order(old, kind=PermitOrder.Kind.SUSPENSION, applied=None)
    r.permit_order(old, kind=PermitOrder.Kind.SUSPENSION, applied=_d(before, 12, 31))
    # Inspections: three completed (routine, follow-up, complaint with entry refused) at two FSEs;
    # a draft, a cancelled one and one of the year after.
    fse, other = town.own_fse, town.other_fse
    r.inspection(fse, on=_d(year, 1, 1))
    r.inspection(fse, on=_d(year, 6, 1), kind="follow_up")
    r.inspection(other, on=_d(year, 12, 31), kind="complaint", entry="refused")
    r.inspection(other, on=_d(year, 7, 1), status="draft")
    r.inspection(other, on=_d(year, 7, 2), status="cancelled")
    r.inspection(other, on=_d(after, 1, 1))
    # Enforcement.
    v1 = r.violation(fse, began=_d(year, 1, 10), cured=_d(year, 2, 1))
    r.violation(fse, began=_d(year, 3, 10))
    r.violation(fse, began=_d(before, 3, 10), cured=_d(year, 1, 5))
    case = r.case(fse, opened=_d(year, 1, 12))
    r.notice_of_violation(case, on=_d(year, 1, 15))
    r.notice_of_violation(case, on=_d(year, 11, 15))
    r.notice_of_violation(case, on=_d(before, 11, 15))
    r.citation(case, v1, on=_d(year, 2, 15), amount="100.00")
    r.citation(case, v1, on=_d(year, 3, 15), amount="250.50")
    r.citation(case, v1, on=_d(after, 3, 15), amount="999.00")
    r.penalty(case, on=_d(year, 5, 1), amount="5000.00")
    r.penalty(case, on=_d(year, 6, 1), amount="7000.00", status="overturned")
    r.penalty(case, on=_d(before, 6, 1), amount="1000.00")
    r.agreement(case, on=_d(year, 7, 1))
    r.referral(case, on=_d(year, 8, 1))
    # Spills: two FOG SSOs (one linked to an FSE), one SSO of another cause, a FOG blockage,
    # a FOG SSO the year before and one the first minute of the year after (Town time).
    r.spill(town, on=_d(year, 1, 1), gallons="120", link=fse)
    r.spill(town, on=_d(year, 12, 31), gallons="30.5")
    r.spill(town, on=_d(year, 5, 1), cause="roots")
    r.spill(town, on=_d(year, 5, 2), kind="blockage")
    r.spill(town, on=_d(before, 12, 31), gallons="999")
    r.spill(town, on=_d(after, 1, 1), gallons="999")
    # The program: one FSE closed in the year (not counted), one closed the year after (counted);
    # a device installed the year after (not counted), one removed (not counted).
    EstablishmentFactory(status="closed", closed_on=_d(year, 6, 1))
    EstablishmentFactory(status="closed", closed_on=_d(after, 2, 1))
    DeviceFactory(installed_on=_d(after, 5, 1))
    DeviceFactory(status="removed")
    # Manifests: three pump-outs of two devices in the year (one not full), one the year before.
    r.manifest(manager, town.own_device, on=_d(year, 2, 1), gallons="900")
    r.manifest(manager, town.own_device, on=_d(year, 8, 1), gallons="850.5", full=False)
    r.manifest(manager, town.other_device, on=_d(year, 9, 1), gallons="400")
    r.manifest(manager, town.other_device, on=_d(before, 9, 1), gallons="10000")


EXPECTED = {
    # The small town's 4 FSEs, the 6 the permits above are issued to, and the one closed the year after.
    "program.establishments": 11,
    # The small town's 3 devices (installed 2015).
    "program.devices": 3,
    "permits.issued": 2,
    "permits.reissued": 1,
    "permits.renewed": 1,
    "permits.modified": 1,
    # On Dec 31: the reissue, the one issued that day and the one issued the year before.
    "permits.in_force": 3,
    "inspections.completed": 3,
    "inspections.routine": 1,
    "inspections.follow_up": 1,
    "inspections.complaint": 1,
    "inspections.establishments": 2,
    "inspections.entry_refused": 1,
    "enforcement.violations_opened": 2,
    "enforcement.violations_cured": 2,
    "enforcement.notices_of_violation": 2,
    "enforcement.citations": 2,
    "enforcement.citation_amount": Decimal("350.50"),
    "enforcement.compliance_agreements": 1,
    "enforcement.penalty_orders": 2,
    "enforcement.penalty_amount": Decimal("5000.00"),
    "enforcement.suspensions": 1,
    "enforcement.emergency_suspensions": 1,
    "enforcement.revocations": 1,
    "enforcement.referrals": 1,
    "spills.sso": 3,
    "spills.sso_fog": 2,
    "spills.sso_fog_linked": 1,
    "spills.sso_fog_gallons": Decimal("150.5"),
    "spills.blockages_fog": 1,
    "grease.manifests": 3,
    "grease.full_pumpouts": 2,
    "grease.devices_serviced": 2,
    "grease.gallons": Decimal("2150.5"),
}


def test_each_figure_is_counted_from_the_records_of_the_year(town):
    year = _year()
    build_year(town, year)
    report = annual_report(town.users[Role.STAFF_READONLY], year)
    figures = report.figures()
    assert {key: figures[key] for key in EXPECTED} == EXPECTED
    assert not report.partial
    assert report.as_of == dt.date(year, 12, 31)


def test_a_year_with_no_records_reports_zeros(town):
    figures = annual_report(town.users[Role.FOG_MANAGER], 2001).figures()
    assert all(figures[key] == 0 for key in EXPECTED if not key.startswith("program."))
    assert figures["program.devices"] == 0  # the small town's devices were installed in 2015


def test_the_report_takes_a_fixed_number_of_queries(town):
    user = town.users[Role.FOG_MANAGER]
    year = _year()
    annual_report(user, year)
    with CaptureQueriesContext(connection) as small:
        annual_report(user, year)
    build_year(town, year)
    for _ in range(3):
        fse = EstablishmentFactory()
        DeviceFactory(establishments=[fse])
        r.inspection(fse, on=_d(year, 3, 3))
    with CaptureQueriesContext(connection) as large:
        annual_report(user, year)
    assert len(small) == len(large) == QUERIES


def _login(client, town, role=Role.FOG_MANAGER):
    client.force_login(town.users[role])


def test_the_page_shows_the_figures_and_links_the_pdf_and_spreadsheet(client, town):
    year = _year()
    build_year(town, year)
    _login(client, town, Role.STAFF_READONLY)
    response = client.get("/reports/annual/", {"year": year})
    assert response.status_code == 200
    page = response.content.decode()
    assert f"Annual program report {year}" in page
    assert 'id="figure-grease-gallons"' in page and "2,150.5" in page
    assert f"/reports/annual/{year}.pdf" in page and f"/reports/annual/{year}.xlsx" in page


def test_the_page_defaults_to_this_year_and_says_so(client, town):
    _login(client, town)
    response = client.get("/reports/annual/")
    assert response.status_code == 200
    assert "(the year so far)" in response.content.decode()


@pytest.mark.parametrize(
    "year, message", [("abc", "Enter a year as four digits"), ("1999", "Choose a year from")]
)
def test_a_bad_year_is_told_beside_the_field(client, town, year, message):
    _login(client, town)
    response = client.get("/reports/annual/", {"year": year})
    assert response.status_code == 400
    assert message in response.content.decode()


def test_a_year_to_come_has_no_file(client, town):
    _login(client, town)
    response = client.get(f"/reports/annual/{town_today().year + 1}.xlsx")
    assert response.status_code == 400
    assert "has no report" in response.content.decode()


def test_the_spreadsheet_holds_every_figure(client, town):
    year = _year()
    build_year(town, year)
    _login(client, town)
    response = client.get(f"/reports/annual/{year}.xlsx")
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="fog-program-report-{year}.xlsx"'
    sheet = load_workbook(io.BytesIO(response.content)).active
    rows = {row[4]: row[2] for row in sheet.iter_rows(min_row=5, values_only=True)}
    for key, value in EXPECTED.items():
        assert rows[key] == pytest.approx(float(value)), key


def test_the_pdf_prints_the_report(client, town):
    year = _year()
    build_year(town, year)
    _login(client, town)
    response = client.get(f"/reports/annual/{year}.pdf")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")


def test_the_api_answers_the_figures(town):
    year = _year()
    build_year(town, year)
    response = api_as(town.users[Role.STAFF_READONLY]).get("/api/v1/reports/annual/", {"year": year})
    assert response.status_code == 200
    body = response.json()
    assert body["year"] == year and body["partial"] is False
    for key, value in EXPECTED.items():
        assert body["figures"][key] == pytest.approx(float(value)), key
    titles = [section["title"] for section in body["sections"]]
    assert "Sewer overflows (I1)" in titles


def test_the_api_refuses_a_bad_year_with_its_reason(town):
    response = api_as(town.users[Role.FOG_MANAGER]).get("/api/v1/reports/annual/", {"year": "next"})
    assert response.status_code == 400
    assert "Enter a year as four digits" in response.json()["year"][0]
