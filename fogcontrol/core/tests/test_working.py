"""The rules' workings in the reader's language (issue 18; fogcontrol/core/working.py): a step said
with ``say`` is English of record, and a page says it again in Spanish, from a live explanation or
from what a record stored."""

import datetime as dt
import pickle

import pytest
from django.template import Context, Template
from django.utils import translation

from fogcontrol.core.working import working_steps, working_text
from fogcontrol.rules.explain import Explanation, explain, fmt_date, fmt_days, say
from fogcontrol.rules.hearings import revocation_hearing_window
from fogcontrol.rules.tests.helpers import CALENDAR, RULES

MAILED = dt.date(2026, 6, 1)


def _window():
    return revocation_hearing_window(MAILED, ruleset=RULES, calendar=CALENDAR)


@pytest.mark.provision("L2")
def test_l2_working_is_english_of_record_whatever_the_language_active():
    with translation.override("es"):
        computed_in_spanish = _window()
    english = _window()
    assert computed_in_spanish.explanation.steps == english.explanation.steps
    assert computed_in_spanish.explanation.text() == english.explanation.text()
    assert (
        "L2: the hearing must be not less than 15 calendar days and not more than 45 calendar days "
        "after mailing; the mailing day is not counted." in english.explanation.steps
    )


@pytest.mark.provision("L2")
def test_l2_working_reads_in_spanish_with_spanish_dates_and_day_counts():
    window = _window()
    with translation.override("es"):
        steps = working_steps(window.explanation)
        text = working_text(window.explanation)
    said = [step for step, _ in steps]
    assert (
        "L2: la audiencia debe celebrarse no menos de 15 días naturales ni más de 45 días naturales "
        "después del envío; el día del envío no se cuenta." in said
    )
    last = next(step for step in said if step.startswith("La audiencia puede"))
    assert last.startswith("La audiencia puede fijarse en cualquier día hábil del ")
    assert "de junio de 2026" in last and "de julio de 2026" in last
    assert text.startswith("Disposiciones: L2, Counting days\n1. ")


def test_a_stored_working_reads_again_in_spanish_and_an_old_one_stays_english():
    record = _window().explanation.as_record()
    restored = Explanation.from_record(record)
    assert restored == _window().explanation
    with translation.override("es"):
        assert any(step.startswith("La audiencia puede fijarse") for step, _ in working_steps(record))
        old = {key: value for key, value in record.items() if key != "said"}
        old_steps = working_steps(old)
    assert [step for step, _ in old_steps] == list(record["steps"])
    assert not any(in_language for _, in_language in old_steps)


def test_a_sentence_pickles_and_keeps_its_template():
    sentence = say("Due on %(day)s, after %(days)s.", day=fmt_date(dt.date(2026, 7, 3)), days=fmt_days(5))
    assert sentence == "Due on Friday, July 3, 2026, after 5 calendar days."
    copy = pickle.loads(pickle.dumps(sentence))
    assert copy == sentence and copy.template == sentence.template
    assert copy.values["day"].day == dt.date(2026, 7, 3)


def test_an_untranslated_or_broken_step_shows_its_english_and_says_so():
    explanation = explain(
        ("B6",), [say("A step no catalogue holds: %(day)s.", day=fmt_date(MAILED)), "Plain text."]
    )
    with translation.override("es"):
        steps = working_steps(explanation)
    assert steps == [
        ("A step no catalogue holds: Monday, June 1, 2026.", False),
        ("Plain text.", False),
    ]
    with translation.override("en"):
        assert all(in_language for _, in_language in working_steps(explanation))


@pytest.mark.provision("L2")
def test_the_template_filters_mark_english_left_and_say_the_rest():
    page = Template(
        "{% load working %}{% for step, ok in working|working_steps %}"
        '<li{% if not ok %} lang="en"{% endif %}>{{ step }}</li>{% endfor %}'
    )
    with translation.override("es"):
        html = page.render(Context({"working": _window().explanation.as_record()}))
    assert "La audiencia puede fijarse" in html
    assert 'lang="en"' in html  # counting.py's shared lines are not said with say() yet
