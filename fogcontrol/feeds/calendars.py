"""The iCalendar documents of the feeds (RFC 5545, written with the `icalendar` package).

Each event is a whole day (DTSTART as a DATE, DTEND the day after). Its UID names the record, not
the date (`device-12-service-due@fogcontrol`, `hearing-7@fogcontrol`), so a calendar app moves the
event when the date changes instead of adding a second one."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable

from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar, Event

UID_DOMAIN = "fogcontrol"
PRODID = "-//fogcontrol//FOG Control Program calendar feeds//EN"


def _calendar(name: str) -> Calendar:
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", name)
    return calendar


def _day_event(*, uid: str, day: dt.date, summary: str, description: str, url: str, stamp, location=""):
    event = Event()
    event.add("uid", f"{uid}@{UID_DOMAIN}")
    event.add("dtstamp", stamp)
    event.add("dtstart", day)
    event.add("dtend", day + dt.timedelta(days=1))
    event.add("summary", summary)
    event.add("description", description)
    event.add("url", url)
    event.add("transp", "TRANSPARENT")
    if location:
        event.add("location", location)
    return event


def service_due_calendar(devices: Iterable, absolute: Callable[[str], str]) -> bytes:
    """E4: one event per device on its next service date."""
    calendar = _calendar("FOG devices: service due")
    stamp = timezone.now()
    for device in devices:
        state = device.service_state
        served = ", ".join(fse.business_name for fse in device.establishments.all())
        addresses = "; ".join(fse.site_address for fse in device.establishments.all() if fse.site_address)
        lines = [
            f"Device {device.identifier} is due for service (E4) by {state.next_due:%B %-d, %Y}.",
            f"Serves: {served or 'no establishment on record'}.",
            f"Service frequency: every {state.frequency_days} days.",
        ]
        if state.last_full_pumpout:
            lines.append(f"Last full pump-out: {state.last_full_pumpout:%B %-d, %Y}.")
        if state.immediate_service_required:
            lines.append("Service is required now (E6).")
        calendar.add_component(
            _day_event(
                uid=f"device-{device.pk}-service-due",
                day=state.next_due,
                summary=f"Service due: {device.identifier}" + (f" ({served})" if served else ""),
                description="\n".join(lines),
                url=absolute(reverse("servicing:device_history", args=[device.pk])),
                location=addresses,
                stamp=stamp,
            )
        )
    return calendar.to_ical()


def hearings_calendar(hearings: Iterable, absolute: Callable[[str], str]) -> bytes:
    """One event per hearing on the date now set (after any continuance, L3)."""
    calendar = _calendar("FOG hearings")
    stamp = timezone.now()
    for hearing in hearings:
        case = hearing.case
        establishment = case.establishment.business_name
        lines = [f"{hearing.get_kind_display()}: {case} ({establishment})."]
        if hearing.first_scheduled_on != hearing.scheduled_on:
            lines.append(f"First set for {hearing.first_scheduled_on:%B %-d, %Y}; continued.")
        if hearing.hearing_officer_name:
            lines.append(f"Hearing officer: {hearing.hearing_officer_name}.")
        if hearing.held_on:
            lines.append(f"Held on {hearing.held_on:%B %-d, %Y}.")
        calendar.add_component(
            _day_event(
                uid=f"hearing-{hearing.pk}",
                day=hearing.scheduled_on,
                summary=f"Hearing: {case} — {establishment}",
                description="\n".join(lines),
                url=absolute(reverse("enforcement:case_detail", args=[case.pk])),
                location=hearing.place,
                stamp=stamp,
            )
        )
    return calendar.to_ical()
