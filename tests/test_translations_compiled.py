"""Every committed Spanish catalogue's compiled .mo matches its .po (docs/i18n.md): a fresh machine
serves the .mo files as committed, without gettext, so a .po edited without compiling would show
stale or English text."""

from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parent.parent / "fogcontrol"
CATALOGUES = sorted(ROOT.glob("**/locale/*/LC_MESSAGES/django.po"))


def _messages(entries) -> dict:
    return {
        (entry.msgctxt, entry.msgid): (entry.msgstr, tuple(sorted(entry.msgstr_plural.items())))
        for entry in entries
    }


def test_there_are_catalogues():
    assert any("/locale/es/" in str(path) for path in CATALOGUES)


@pytest.mark.parametrize("po_path", CATALOGUES, ids=lambda path: str(path.relative_to(ROOT)))
def test_compiled_catalogue_is_up_to_date(po_path):
    mo_path = po_path.with_suffix(".mo")
    assert mo_path.is_file(), f"{mo_path} is missing: run `make messages`"
    po = polib.pofile(str(po_path))
    wanted = _messages(entry for entry in po.translated_entries() if not entry.obsolete)
    compiled = _messages(entry for entry in polib.mofile(str(mo_path)) if entry.msgid)
    assert compiled == wanted, f"{mo_path} is out of date with its .po: run `make messages`"
