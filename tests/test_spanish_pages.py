"""Every page an outside user sees is in Spanish when they chose Spanish (issue 18; docs/i18n.md).

As each outside role (an FSE, a property owner, a hauler) whose `preferred_language` is Spanish,
crawl every page linked from the portal home (fogcontrol/testing/crawl.py) and read each page's
visible text (and the words of its labels, titles and placeholders). A word that is English and
not Spanish (the English and Spanish word lists of pyspellchecker) fails the test, unless it is a
proper name: the Town's, a company's or a person's name, an address, a record's number, all read
from the town the test builds, or one of the few names and abbreviations below.
"""

import re
from functools import cache
from pathlib import Path

import polib

import pytest
from spellchecker import SpellChecker

from fogcontrol.accounts.models import User
from fogcontrol.core.roles import OUTSIDE_ROLES
from fogcontrol.program.models import TownProfile
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice, HaulerCompany, Parcel, Party
from fogcontrol.testing.crawl import CrawlSession, crawl
from tests.test_crawl import crawled_town  # noqa: F401  (the fixture)

# Names and abbreviations the program writes the same in both languages.
ALLOWED = {
    "fog",  # the program's name: fats, oils and grease
    "csv",
    "xlsx",
    "pdf",
    "api",
    "ical",
    "ics",
    "totp",
    "openapi",
    "swagger",
}
# Pages whose text is not the portal's own: the API's reference is written for programmers.
NOT_PORTAL = ("/api/",)
WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


@cache
def _dictionaries():
    return SpellChecker(language="en").word_frequency, SpellChecker(language="es").word_frequency


@cache
def catalogue_words() -> frozenset[str]:
    """Every word of our Spanish catalogues: Spanish the word list may lack ("coincide", "hay")."""
    root = Path(__file__).resolve().parent.parent / "fogcontrol"
    return frozenset(
        word.lower()
        for po in root.glob("**/locale/es/LC_MESSAGES/django.po")
        for entry in polib.pofile(str(po))
        for word in WORD.findall(entry.msgstr)
    )


def english_words(text: str, allowed: set[str]) -> list[str]:
    """The words of `text` that are English and not Spanish, outside `allowed`."""
    english, spanish = _dictionaries()
    ours = catalogue_words()
    found = []
    for word in WORD.findall(text):
        lower = word.lower().replace("’", "'")
        if len(lower) < 2 or not lower.isascii() or lower in allowed or lower in ours:
            continue
        if word.isupper() and len(word) <= 5:  # an abbreviation: FSE, E1's letters, ZIP
            continue
        stem = lower.split("'")[0]
        if (english[lower] or english[stem]) and not (spanish[lower] or spanish[stem]):
            found.append(word)
    return found


def proper_names() -> set[str]:
    """The words of the names and addresses in the test's town: they stay as written."""
    names = [profile.name for profile in TownProfile.objects.all()]
    names += list(User.objects.values_list("username", flat=True))
    names += list(User.objects.values_list("first_name", flat=True))
    names += list(User.objects.values_list("last_name", flat=True))
    for fse in FoodServiceEstablishment.objects.all():
        names += [fse.business_name, fse.site_address, fse.licence_number]
    names += [str(parcel) for parcel in Parcel.objects.all()]
    names += [f"{parcel.situs_address} {parcel.apn}" for parcel in Parcel.objects.all()]
    names += [str(party) for party in Party.objects.all()]
    names += [str(hauler) for hauler in HaulerCompany.objects.all()]
    names += [str(device) for device in GreaseControlDevice.objects.all()]
    names += [f"{device.identifier} {device.location_description}" for device in GreaseControlDevice.objects.all()]
    return {word.lower() for name in names if name for word in WORD.findall(str(name))}


def test_english_words_are_found_and_names_pass():
    assert english_words("Submit the manifest", set()) == ["Submit", "the", "manifest"]
    assert english_words("Enviar el manifiesto del establecimiento de servicio de alimentos", set()) == []
    assert english_words("Blue Plate Diner · FOG-2025-00101 · B6", {"blue", "plate", "diner"}) == []


def test_every_portal_page_is_in_spanish(client, crawled_town):
    allowed = ALLOWED | proper_names()
    session = CrawlSession()
    problems, visited = [], {}
    for role in sorted(OUTSIDE_ROLES):
        user = crawled_town.users[role]
        user.preferred_language = "es"
        user.save(update_fields=["preferred_language"])
        client.force_login(user)
        result = crawl(client, role=role.value, session=session, cap=300)
        visited[role.value] = len(result.pages)
        for path, parts in result.pages.items():
            if path.startswith(NOT_PORTAL):
                continue
            left = english_words(parts.text, allowed)
            if left:
                problems.append(f"[{role.value}] {path}: {' '.join(sorted(set(left)))}")
        client.logout()
    assert all(count > 10 for count in visited.values()), visited
    assert not problems, f"{len(problems)} pages with English left:\n" + "\n".join(problems)
