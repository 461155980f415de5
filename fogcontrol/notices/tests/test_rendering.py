"""The template language the Town's staff write in: {placeholder} fields and nothing else."""

import pytest

from fogcontrol.notices import catalogue
from fogcontrol.notices.rendering import placeholders_used, render, template_problems


def test_placeholders_are_replaced_and_double_braces_are_literal():
    assert render("Dear {name}, see {{this}}.", {"name": "Blue Plate"}) == "Dear Blue Plate, see {this}."
    assert placeholders_used("{a} {b} {a}") == ["a", "b"]


@pytest.mark.parametrize(
    "text, says",
    [
        ("Dear {owner}", "Unknown placeholder(s): {owner}"),
        ("Dear {}", "needs a name"),
        ("Dear {0}", "needs a name"),
        ("{name.__class__}", "no formatting or look-ups"),
        ("{name[0]}", "no formatting or look-ups"),
        ("{name!r}", "no formatting or look-ups"),
        ("{name:>99999}", "no formatting or look-ups"),
        ("Dear {name", "unmatched brace"),
    ],
)
def test_a_template_may_use_only_its_registered_placeholders_and_no_code(text, says):
    problems = template_problems(text, allowed={"name"})
    assert problems and says in " ".join(problems)


def test_the_general_letter_is_registered_with_its_placeholders():
    letter = catalogue.registered("general_letter")
    assert set(letter.placeholders) == {"business_name", "body_text"}
    assert letter in catalogue.all_registered()
    with pytest.raises(catalogue.NotRegistered):
        catalogue.registered("no_such_document")


def test_registering_a_default_with_an_unknown_placeholder_fails_at_start_up():
    with pytest.raises(ValueError, match="Unknown placeholder"):
        catalogue.register("bad_doc", title="T", provisions=(), placeholders={}, default_body="{oops}")
    with pytest.raises(ValueError, match="registered already"):
        catalogue.register("general_letter", title="Other", provisions=(), placeholders={}, default_body="x")
