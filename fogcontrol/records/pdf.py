"""The printable BMP materials (WeasyPrint, through ``core.pdf``), in English or Spanish:

- the C4 employee training sheet: the four subjects the ordinance names, the FSE's name, the trainer
  and a signature line per employee. Printed blank (for any FSE), prefilled with one FSE's name, or
  with the roster of a recorded session (its names filled in; each employee still signs on paper);
- the C7 kitchen signs: no grease down the drain, scrape plates into the trash before washing, and
  the waste-oil container's sign. Large type and pictograms drawn in inline SVG (no file fetched).

Every string is in the records app's catalogue (``records/locale/es``), rendered under
``translation.override(language)``, so a PDF is in the language asked for whatever the page's.
"""

from __future__ import annotations

import dataclasses

from django.utils.translation import gettext_lazy as _

from fogcontrol.core.languages import Language
from fogcontrol.core.pdf import render_html, render_pdf
from fogcontrol.program.selectors import ruleset_on, town_profile, town_today
from fogcontrol.records.models import TRAINING_SUBJECTS, TrainingSession
from fogcontrol.registry.models import FoodServiceEstablishment

LANGUAGES = tuple(Language.values)  # ("en", "es")
PAPERS = {"letter": "Letter", "a4": "A4"}
DEFAULT_PAPER = "letter"
# Signature lines on a blank sheet, and blank lines printed below a session's roster (late arrivals).
BLANK_LINES = 14
EXTRA_LINES = 6

# The C4 subjects as the sheet prints them: the English of TRAINING_SUBJECTS as message ids, so the
# Spanish comes from the catalogue (records/tests/test_bmp.py checks both match the model's pair).
SUBJECT_TEXTS = {
    "dry_wipe": _('How to "dry wipe" pots, pans, dishware and work areas before washing, to remove grease.'),
    "food_waste": _("How to dispose of food waste and solids properly (Chapter 6.20)."),
    "absorbents": _(
        "Where absorbent products are kept and how to use them under fryer baskets and wherever grease may spill."
    ),
    "waste_oil": _(
        "How to pour waste oil from cooking equipment into a grease receptacle (barrel or drum) without spilling or splashing."
    ),
}  # fmt: skip
assert set(SUBJECT_TEXTS) == set(TRAINING_SUBJECTS)


@dataclasses.dataclass(frozen=True)
class Material:
    """One printable BMP material: its key (the URL's), title, the provision it serves."""

    key: str
    title: object  # a lazy translation
    provision: str
    description: object
    sign: bool = True


TRAINING_SHEET = "training-sheet"
MATERIALS: dict[str, Material] = {
    material.key: material
    for material in (
        Material(
            TRAINING_SHEET,
            _("Employee training sign-in sheet"),
            "C4",
            _("The four subjects of the training and a line for each employee's signature. Print it, "
              "have each employee sign it, then upload it signed with the training record."),
            sign=False,
        ),
        Material(
            "sign-no-grease",
            _("Sign: no grease down the drain"),
            "C7",
            _("For every sink and floor drain in the kitchen and dish washing area."),
        ),
        Material(
            "sign-scrape-plates",
            _("Sign: scrape plates into the trash before washing"),
            "C7",
            _("For the dish washing area, above the sink or the dish machine."),
        ),
        Material(
            "sign-waste-oil",
            _("Sign: the waste-oil container"),
            "C7",
            _("For the yellow-grease (waste cooking oil) container, barrel or drum."),
        ),
    )
}  # fmt: skip


def language_or_default(value: str | None, default: str = "en") -> str:
    return value if value in LANGUAGES else (default if default in LANGUAGES else "en")


def _page(paper: str) -> str:
    return PAPERS.get(paper, PAPERS[DEFAULT_PAPER])


def _sheet_context(
    *, session: TrainingSession | None, establishment: FoodServiceEstablishment | None, paper: str
) -> dict:
    if session is not None:
        establishment = session.establishment
        covered = set(session.subjects)
        roster = [line.employee for line in session.attendances.all()]
    else:
        covered, roster = set(), []
    on = session.held_on if session is not None else town_today()
    return {
        "page_size": _page(paper),
        "town": town_profile(),
        "session": session,
        "establishment": establishment,
        "subjects": [(SUBJECT_TEXTS[key], key in covered) for key in TRAINING_SUBJECTS],
        "roster": roster,
        "blank_lines": range(EXTRA_LINES if session is not None else BLANK_LINES),
        "interval_years": ruleset_on(on).training_interval_years,
    }


def training_sheet_html(
    session: TrainingSession | None = None,
    *,
    establishment: FoodServiceEstablishment | None = None,
    language: str = "en",
    paper: str = DEFAULT_PAPER,
) -> str:
    context = _sheet_context(session=session, establishment=establishment, paper=paper)
    return render_html("records/pdf/training_sheet.html", context, language=language_or_default(language))


def training_sheet_pdf(
    session: TrainingSession | None = None,
    *,
    establishment: FoodServiceEstablishment | None = None,
    language: str = "en",
    paper: str = DEFAULT_PAPER,
) -> bytes:
    """C4: the training sheet in ``language`` ("en" or "es"): the four subjects (a session's covered
    ones marked) and signature lines: a session's roster and blank lines, or blank lines only, under
    the FSE's name when ``establishment`` (or the session) names one."""
    context = _sheet_context(session=session, establishment=establishment, paper=paper)
    return render_pdf("records/pdf/training_sheet.html", context, language=language_or_default(language))


def sign_html(key: str, *, language: str = "en", paper: str = DEFAULT_PAPER) -> str:
    material = MATERIALS[key]
    context = {"page_size": _page(paper), "town": town_profile(), "material": material, "kind": key}
    return render_html("records/pdf/sign.html", context, language=language_or_default(language))


def sign_pdf(key: str, *, language: str = "en", paper: str = DEFAULT_PAPER) -> bytes:
    """C7: one kitchen sign (``sign-no-grease``, ``sign-scrape-plates``, ``sign-waste-oil``), one page."""
    material = MATERIALS[key]
    context = {"page_size": _page(paper), "town": town_profile(), "material": material, "kind": key}
    return render_pdf("records/pdf/sign.html", context, language=language_or_default(language))


def material_pdf(
    key: str,
    *,
    language: str = "en",
    paper: str = DEFAULT_PAPER,
    establishment: FoodServiceEstablishment | None = None,
) -> bytes:
    """Any BMP material by its key (KeyError for an unknown one)."""
    if MATERIALS[key].sign:
        return sign_pdf(key, language=language, paper=paper)
    return training_sheet_pdf(establishment=establishment, language=language, paper=paper)


def material_filename(
    key: str, *, language: str, establishment: FoodServiceEstablishment | None = None
) -> str:
    suffix = f"-{establishment.pk}" if establishment is not None else ""
    return f"{key}{suffix}-{language}.pdf"
