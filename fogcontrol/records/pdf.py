"""The printable C4 training sheet (WeasyPrint, as permits' PDF): the four subjects and a signature
line per employee, in English or Spanish. Printed blank for a session to come, or with the roster
of a recorded session (its names filled in; each employee still signs on paper)."""

from __future__ import annotations

import logging

from django.template.loader import render_to_string

from fogcontrol.program.selectors import town_profile
from fogcontrol.records.models import TRAINING_SUBJECTS, TrainingSession

LANGUAGES = ("en", "es")
# Blank signature lines printed below the roster, so late arrivals can sign too.
EXTRA_LINES = 6

WORDS = {
    "en": {
        "title": "Employee training record: fats, oils and grease (FOG)",
        "establishment": "Establishment",
        "date": "Date",
        "trainer": "Trainer",
        "language": "Language",
        "subjects": "Subjects covered (Municipal Code Chapter 10.02, C4)",
        "statement": (
            "By signing, each employee confirms attending this training and understanding the practices reviewed. "
            "Training is given at hiring and at least once a year; keep this record for review by the FOG Manager."
        ),
        "name": "Employee name (print)",
        "hired": "Hire date",
        "signature": "Signature",
        "trainer_signature": "Trainer's signature",
    },
    "es": {
        "title": "Registro de capacitación de empleados: grasas, aceites y sebo (FOG)",
        "establishment": "Establecimiento",
        "date": "Fecha",
        "trainer": "Capacitador",
        "language": "Idioma",
        "subjects": "Temas tratados (Código Municipal, Capítulo 10.02, C4)",
        "statement": (
            "Con su firma, cada empleado confirma que asistió a esta capacitación y que entendió las prácticas "
            "revisadas. La capacitación se da al contratar y al menos una vez al año; guarde este registro para "
            "la revisión del Administrador del Programa FOG."
        ),
        "name": "Nombre del empleado (letra de molde)",
        "hired": "Fecha de contratación",
        "signature": "Firma",
        "trainer_signature": "Firma del capacitador",
    },
}


def training_sheet_pdf(session: TrainingSession, *, lang: str = "en") -> bytes:
    """The C4 training sheet of ``session`` in ``lang`` ("en" or "es"): the four subjects, each
    covered one marked, and a signature line per employee on the roster plus blank lines."""
    lang = lang if lang in LANGUAGES else "en"
    index = LANGUAGES.index(lang)
    subjects = [(texts[index], key in session.subjects) for key, texts in TRAINING_SUBJECTS.items()]
    roster = [line.employee for line in session.attendances.all()]
    # WeasyPrint reports each rendering step at INFO: quieten it, and import it only when printing.
    logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)
    from weasyprint import HTML

    html = render_to_string(
        "records/pdf/training_sheet.html",
        {
            "lang": lang,
            "words": WORDS[lang],
            "session": session,
            "town": town_profile(),
            "subjects": subjects,
            "roster": roster,
            "blank_lines": range(EXTRA_LINES),
        },
    )
    return HTML(string=html).write_pdf()
