"""The certification a hauler (or FSE) signs on every manifest: typed name plus the text's version.

The text is versioned so a manifest keeps the exact words its signer certified (F7); a new text
gets a new version and old manifests keep theirs.
"""

CURRENT_VERSION = "2025-1"

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


def certification_text(version: str) -> str | None:
    return TEXTS.get(version)
