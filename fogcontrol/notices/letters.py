"""The notices app's own document: a plain letter from the FOG Control Program to an FSE, so staff
can write to an establishment before the enforcement, billing and spills documents land.

In English and, for a recipient who prefers it, Spanish (``general_letter_es``; issue 18): the
Spanish frame and greeting around the text the staff write for the letter."""

from fogcontrol.notices.catalogue import register

GENERAL_LETTER = "general_letter"

PLACEHOLDERS = {
    "business_name": "The establishment's business name (A1).",
    "body_text": "What the letter says, written for this letter.",
}

register(
    GENERAL_LETTER,
    title="Letter from the FOG Control Program",
    provisions=(),
    placeholders=PLACEHOLDERS,
    default_body=(
        "Dear {business_name},\n\n"
        "{body_text}\n\n"
        "If you have any questions, please contact the FOG Control Program at the address above."
    ),
)

register(
    f"{GENERAL_LETTER}_es",
    title="Carta del Programa de Control de Grasas (FOG)",
    provisions=(),
    placeholders=PLACEHOLDERS,
    default_body=(
        "Estimados señores de {business_name}:\n\n"
        "{body_text}\n\n"
        "Si tiene alguna pregunta, comuníquese con el Programa de Control de Grasas (FOG) en la "
        "dirección que aparece arriba."
    ),
)
