"""The certification a hauler (or FSE) signs on every manifest: typed name plus the text's version.

The text is versioned so a manifest keeps the exact words its signer certified (F7); a new text
gets a new version and old manifests keep theirs. Each version is written in English and Spanish
(issue 18): the signer reads and signs it in their language, and the manifest keeps the words shown
(``Manifest.certification_text``), which name their language (``language_of``). The wording is
here, not in a catalogue: a translation may change, a certified text may not.
"""

CURRENT_VERSION = "2025-1"
ENGLISH, SPANISH = "en", "es"

TEXTS = {
    "2025-1": (
        "I certify under penalty of law that the grease control device named on this manifest was "
        "serviced on the date and at the time stated; that, where marked fully pumped, all fats, oils "
        "and grease, liquids and solids were removed and the baffles removed and cleaned; that the "
        "removed material was hauled to the receiving facility named and that no FOG entered any sewer, "
        "storm drain or public right-of-way during the work (Chapter 10.02, E7); and that the "
        "information given is true, accurate and complete. I understand that falsifying information "
        "is prohibited (F7)."
    ),
}

# The same versions in Spanish: the signer's language when they prefer Spanish.
TEXTS_ES = {
    "2025-1": (
        "Certifico bajo pena de ley que el dispositivo de control de grasas indicado en este manifiesto "
        "recibió servicio en la fecha y a la hora indicadas; que, donde se marcó vaciado completo, se "
        "retiraron todas las grasas, aceites y sebos, los líquidos y los sólidos, y se retiraron y "
        "limpiaron los deflectores; que el material retirado se transportó a la instalación receptora "
        "indicada y que nada de FOG entró en ningún alcantarillado, desagüe pluvial ni vía pública "
        "durante el trabajo (Capítulo 10.02, E7); y que la información proporcionada es verdadera, "
        "exacta y completa. Entiendo que está prohibido falsificar información (F7)."
    ),
}

BY_LANGUAGE = {ENGLISH: TEXTS, SPANISH: TEXTS_ES}


def language_shown(language: str | None) -> str:
    """The language the certification is shown in for a page in ``language`` (English otherwise)."""
    code = (language or "").split("-")[0].lower()
    return code if code in BY_LANGUAGE else ENGLISH


def certification_text(version: str, language: str = ENGLISH) -> str | None:
    """The words of ``version`` in ``language``; None when that version is not written in it."""
    return BY_LANGUAGE.get(language, {}).get(version)


def language_of(version: str, text: str) -> str:
    """The language whose text of ``version`` is ``text``; English for any other (F7)."""
    for language, texts in BY_LANGUAGE.items():
        if texts.get(version) == text:
            return language
    return ENGLISH
