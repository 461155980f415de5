"""Review flags keep their English sentence (the record) and are shown by code in the page's
language (docs/i18n.md, docs/servicing.md): every flag code's title is marked for the catalogue."""

from django.utils import translation

from fogcontrol.rules.servicing_rules import FLAG_NO_RECEIVING_FACILITY, FLAG_TITLES
from fogcontrol.servicing import wording
from fogcontrol.servicing.services.state import MET_BY_SAME_VISIT


def test_every_flag_title_is_marked():
    assert {title for _provision, title in FLAG_TITLES.values()} <= set(wording.MARKED)


def test_a_flag_reads_as_stored_in_english_and_by_its_code_in_spanish():
    stored = "No receiving facility is named for the material removed (E7, F5)."
    with translation.override("en"):
        assert wording.flag_text(FLAG_NO_RECEIVING_FACILITY, stored) == stored
        assert wording.stored_note("Typed by a person") == "Typed by a person"
    with translation.override("es"):
        assert wording.flag_text(FLAG_NO_RECEIVING_FACILITY, stored) == (
            "No se indica la instalación receptora del material retirado."
        )
        assert wording.flag_text("unknown_code", stored) == stored
        assert wording.stored_note(MET_BY_SAME_VISIT).startswith("La misma visita")
