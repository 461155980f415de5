"""The notices app's own document: a plain letter from the FOG Control Program to an FSE, so staff
can write to an establishment before the enforcement, billing and spills documents land."""

from fogcontrol.notices.catalogue import register

GENERAL_LETTER = "general_letter"

register(
    GENERAL_LETTER,
    title="Letter from the FOG Control Program",
    provisions=(),
    placeholders={
        "business_name": "The establishment's business name (A1).",
        "body_text": "What the letter says, written for this letter.",
    },
    default_body=(
        "Dear {business_name},\n\n"
        "{body_text}\n\n"
        "If you have any questions, please contact the FOG Control Program at the address above."
    ),
)
