"""The annual program report (issue #17): the figures of one calendar year that the FOG element of
the sewer system management plan (SSMP, State Water Board order WQ 2022-0103-DWQ) asks of a FOG
control program: permits issued and in force, inspections, enforcement actions, sewer overflows
attributed to FOG, and the grease the haulers removed.

Each figure is counted from the records, never kept: one aggregate query per kind of record
(`QUERIES` of them in all, whatever the number of records), scoped to the user through
`visible_to`. The year is the Town's calendar year: dates are Town dates; a spill's start time is
judged in the Town's time zone. docs/reports.md says what each figure counts.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.db.models import Count, Exists, OuterRef, Q, Sum
from django.utils import timezone

from fogcontrol.enforcement.models import (
    AdministrativeCitation,
    Case,
    ComplianceAgreement,
    NoticeOfViolation,
    PenaltyOrder,
    Referral,
    Violation,
)
from fogcontrol.inspections.models import Inspection
from fogcontrol.permits.models import Permit, PermitOrder, PermitStatus, PermitVersion
from fogcontrol.program.selectors import town_zone
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice
from fogcontrol.rules.spills import CAUSE_GREASE
from fogcontrol.servicing.models import Manifest
from fogcontrol.spills.models import Spill

# The number of queries `annual_report` makes, whatever the records: the Town's time zone, then one
# aggregate per kind of record (two for the program, two for permits, one for inspections, seven for
# enforcement, one for spills, one for manifests).
QUERIES = 15


@dataclass(frozen=True)
class Figure:
    key: str
    label: str
    value: int | Decimal
    note: str = ""


@dataclass
class Section:
    key: str
    title: str
    figures: list[Figure] = field(default_factory=list)

    def add(self, key: str, label: str, value, note: str = "") -> None:
        self.figures.append(Figure(key, label, value if value is not None else 0, note))


@dataclass
class AnnualReport:
    year: int
    start: dt.date
    end: dt.date
    as_of: dt.date  # the last day counted: the year's end, or today for the year under way
    sections: list[Section] = field(default_factory=list)

    @property
    def partial(self) -> bool:
        return self.as_of < self.end

    def figures(self) -> dict[str, int | Decimal]:
        """Every figure by its key (`permits.issued`, …), for the API and the tests."""
        return {f"{s.key}.{f.key}": f.value for s in self.sections for f in s.figures}


def _program(user, as_of: dt.date) -> Section:
    """The program's size: establishments not closed by the last day (the records do not say when a
    business opened, only when it closed), devices in service installed by then (or with no date)."""
    section = Section("program", "The program at the end of the period")
    fse = FoodServiceEstablishment.objects.visible_to(user).aggregate(
        establishments=Count(
            "pk",
            filter=Q(status=FoodServiceEstablishment.Status.ACTIVE, closed_on__isnull=True)
            | Q(closed_on__gt=as_of),
        ),
    )
    devices = GreaseControlDevice.objects.visible_to(user).aggregate(
        devices=Count(
            "pk",
            filter=Q(status=GreaseControlDevice.Status.ACTIVE)
            & (Q(installed_on__isnull=True) | Q(installed_on__lte=as_of)),
        ),
    )
    section.add("establishments", "Food service establishments in the program", fse["establishments"])
    section.add(
        "devices", "Grease control devices in service", devices["devices"], "installed by then or undated"
    )
    return section


def _permits(user, start: dt.date, end: dt.date, as_of: dt.date) -> Section:
    section = Section("permits", "FOG discharge permits (B1-B8)")
    reissue = Permit.objects.filter(superseded_by=OuterRef("pk"))
    permits = (
        Permit.objects.visible_to(user)
        .annotate(is_reissue=Exists(reissue))
        .aggregate(
            issued=Count("pk", filter=Q(first_issued_on__range=(start, end), is_reissue=False)),
            reissued=Count("pk", filter=Q(first_issued_on__range=(start, end), is_reissue=True)),
            in_force=Count(
                "establishment",
                distinct=True,
                filter=Q(term_start__lte=as_of, valid_until__gte=as_of)
                & ~Q(status__in=[PermitStatus.SUSPENDED, PermitStatus.REVOKED]),
            ),
        )
    )
    versions = PermitVersion.objects.visible_to(user).aggregate(
        renewed=Count(
            "pk", filter=Q(reason=PermitVersion.Reason.RENEWED, effective_from__range=(start, end))
        ),
        modified=Count(
            "pk", filter=Q(reason=PermitVersion.Reason.MODIFIED, effective_from__range=(start, end))
        ),
    )
    section.add("issued", "Permits issued (new)", permits["issued"])
    section.add("reissued", "Permits reissued after a change (B8)", permits["reissued"])
    section.add("renewed", "Permits renewed (B6)", versions["renewed"])
    section.add("modified", "Permits modified (B7)", versions["modified"])
    section.add(
        "in_force",
        "Establishments holding a permit in force",
        permits["in_force"],
        "on the last day of the period; a permit suspended or revoked today is not counted",
    )
    return section


def _inspections(user, start: dt.date, end: dt.date) -> Section:
    section = Section("inspections", "Inspections (D1, D8)")
    done = Q(status=Inspection.Status.COMPLETED, visited_on__range=(start, end))
    kinds = Inspection.Kind
    counts = Inspection.objects.visible_to(user).aggregate(
        total=Count("pk", filter=done),
        routine=Count("pk", filter=done & Q(kind=kinds.ROUTINE)),
        follow_up=Count("pk", filter=done & Q(kind=kinds.FOLLOW_UP)),
        complaint=Count("pk", filter=done & Q(kind=kinds.COMPLAINT)),
        establishments=Count("establishment", distinct=True, filter=done),
        entry_refused=Count("pk", filter=done & Q(entry=Inspection.Entry.REFUSED)),
    )
    section.add("completed", "Inspections completed", counts["total"])
    section.add("routine", "Routine (annual) inspections", counts["routine"])
    section.add("follow_up", "Follow-up inspections", counts["follow_up"])
    section.add("complaint", "Complaint inspections", counts["complaint"])
    section.add("establishments", "Establishments inspected", counts["establishments"])
    section.add("entry_refused", "Visits where entry was refused (D1)", counts["entry_refused"])
    return section


def _enforcement(user, start: dt.date, end: dt.date) -> Section:
    section = Section("enforcement", "Enforcement actions (H, L, M, P)")
    cases = Case.objects.visible_to(user)
    year = (start, end)
    violations = Violation.objects.visible_to(user).aggregate(
        opened=Count("pk", filter=Q(began_on__range=year)),
        cured=Count("pk", filter=Q(cured_on__range=year)),
    )
    notices = NoticeOfViolation.objects.filter(case__in=cases, issued_on__range=year).aggregate(n=Count("pk"))
    citations = AdministrativeCitation.objects.filter(case__in=cases, issued_on__range=year).aggregate(
        n=Count("pk"), amount=Sum("amount")
    )
    agreements = ComplianceAgreement.objects.filter(case__in=cases, agreed_on__range=year).aggregate(
        n=Count("pk")
    )
    penalties = PenaltyOrder.objects.visible_to(user).aggregate(
        n=Count("pk", filter=Q(issued_on__range=year)),
        amount=Sum("amount", filter=Q(issued_on__range=year) & ~Q(status=PenaltyOrder.Status.OVERTURNED)),
    )
    referrals = Referral.objects.filter(case__in=cases, referred_on__range=year).aggregate(n=Count("pk"))
    kinds = PermitOrder.Kind
    applied = Q(applied_on__range=year)
    orders = PermitOrder.objects.visible_to(user).aggregate(
        suspensions=Count("pk", filter=applied & Q(kind=kinds.SUSPENSION)),
        emergency=Count("pk", filter=applied & Q(kind=kinds.EMERGENCY_SUSPENSION)),
        revocations=Count("pk", filter=applied & Q(kind=kinds.REVOCATION)),
    )
    section.add("violations_opened", "Violations recorded", violations["opened"])
    section.add("violations_cured", "Violations cured", violations["cured"])
    section.add("notices_of_violation", "Notices of violation issued", notices["n"])
    section.add("citations", "Administrative citations issued (P2)", citations["n"])
    section.add("citation_amount", "Amount of the citations ($)", citations["amount"] or Decimal("0.00"))
    section.add("compliance_agreements", "Compliance schedule agreements (H1-H4)", agreements["n"])
    section.add("penalty_orders", "Administrative penalty orders issued (P7-P10)", penalties["n"])
    section.add(
        "penalty_amount",
        "Amount of the penalty orders ($)",
        penalties["amount"] or Decimal("0.00"),
        "orders overturned by the Town Council left out",
    )
    section.add("suspensions", "Permit suspensions applied (L1-L6)", orders["suspensions"])
    section.add("emergency_suspensions", "Emergency suspensions applied (M1-M3)", orders["emergency"])
    section.add("revocations", "Permit revocations applied (L1-L6)", orders["revocations"])
    section.add("referrals", "Referrals to the courts or the District Attorney (P1, P4, P11)", referrals["n"])
    return section


def _spills(user, start: dt.date, end: dt.date, zone: ZoneInfo) -> Section:
    section = Section("spills", "Sewer overflows (I1)")
    begins = dt.datetime.combine(start, dt.time.min, tzinfo=zone)
    ends = dt.datetime.combine(end + dt.timedelta(days=1), dt.time.min, tzinfo=zone)
    in_year = Q(started_at__gte=begins, started_at__lt=ends)
    sso = in_year & Q(kind=Spill.Kind.SSO)
    fog = sso & Q(cause=CAUSE_GREASE)
    counts = Spill.objects.visible_to(user).aggregate(
        sso=Count("pk", filter=sso),
        fog=Count("pk", filter=fog),
        fog_linked=Count("pk", filter=fog & Q(links__isnull=False), distinct=True),
        fog_gallons=Sum("volume_spilled", filter=fog),
        blockages_fog=Count("pk", filter=in_year & Q(kind=Spill.Kind.BLOCKAGE, cause=CAUSE_GREASE)),
    )
    section.add("sso", "Sanitary sewer overflows", counts["sso"])
    section.add("sso_fog", "Sanitary sewer overflows caused by FOG", counts["fog"])
    section.add(
        "sso_fog_linked",
        "FOG overflows linked to an establishment",
        counts["fog_linked"],
        "at least one FSE linked",
    )
    section.add("sso_fog_gallons", "Gallons spilled by FOG overflows", counts["fog_gallons"] or Decimal("0"))
    section.add("blockages_fog", "Blockages caused by FOG (no overflow)", counts["blockages_fog"])
    return section


def _grease(user, start: dt.date, end: dt.date) -> Section:
    section = Section("grease", "Grease removed (E1-E7, F1)")
    counts = (
        Manifest.objects.visible_to(user)
        .effective()
        .filter(service_date__range=(start, end))
        .aggregate(
            manifests=Count("pk"),
            gallons=Sum("gallons_removed"),
            devices=Count("device", distinct=True),
            full=Count("pk", filter=Q(full_pumpout=True)),
        )
    )
    section.add("manifests", "Service manifests filed", counts["manifests"], "the latest correction of each")
    section.add("full_pumpouts", "Full pump-outs", counts["full"])
    section.add("devices_serviced", "Devices serviced", counts["devices"])
    section.add("gallons", "Gallons of grease and solids removed", counts["gallons"] or Decimal("0"))
    return section


def annual_report(user, year: int) -> AnnualReport:
    """The figures of `year` that `user` may see (staff: the whole program), in `QUERIES` queries."""
    start, end = dt.date(year, 1, 1), dt.date(year, 12, 31)
    zone = town_zone()
    as_of = min(end, timezone.localdate(timezone=zone))
    report = AnnualReport(year=year, start=start, end=end, as_of=as_of)
    report.sections = [
        _program(user, as_of),
        _permits(user, start, end, as_of),
        _inspections(user, start, end),
        _enforcement(user, start, end),
        _spills(user, start, end, zone),
        _grease(user, start, end),
    ]
    return report
