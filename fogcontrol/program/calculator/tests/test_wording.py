"""The calculator's English from the pure rules is marked for the catalogue (docs/i18n.md): every
deadline rule's title and start date, the sections and the kinds, so a Spanish page shows them in
Spanish; a new rule without its mark fails here, not on a user's page."""

from django.utils import translation

from fogcontrol.program.calculator import calculations, wording
from fogcontrol.rules.deadlines import DEADLINE_RULES


def test_every_rule_title_start_date_section_and_kind_is_marked():
    assert {rule.title for rule in DEADLINE_RULES.values()} <= set(wording.TITLES)
    assert {rule.start_description for rule in DEADLINE_RULES.values()} <= set(wording.START_DESCRIPTIONS)
    kinds = [*calculations.SECTIONS.values(), *calculations.DEVICE_KIND_LABELS.values(),
             *calculations.VIOLATION_KIND_LABELS.values()]  # fmt: skip
    assert set(kinds) <= set(wording.LABELS)


def test_the_spanish_names_keep_the_provision_ids():
    rule = DEADLINE_RULES["B6"]
    with translation.override("es"):
        title, start = wording.start_and_title(rule)
        assert wording.section("B. FOG permit") == "B. Permiso FOG"
        assert wording.section("L. Suspension and revocation (10.02.260)").endswith("(10.02.260)")
    assert title != rule.title and start != rule.start_description
