"""Django's `{# … #}` comment ends on its own line: one opened on a line without its `#}` is printed
as text on every page that includes the template (issue 18's journeys found the form component's
comment shown above every form). Longer comments use `{% comment %}`."""

from pathlib import Path

import fogcontrol

ROOT = Path(fogcontrol.__file__).parent


def test_no_template_opens_a_one_line_comment_it_does_not_close_on_that_line():
    unclosed = []
    for template in sorted(ROOT.rglob("templates/**/*.html")):
        for number, line in enumerate(template.read_text(encoding="utf-8").splitlines(), start=1):
            rest = line
            while "{#" in rest:
                rest = rest[rest.index("{#") + 2 :]
                if "#}" not in rest:
                    unclosed.append(f"{template.relative_to(ROOT)}:{number}")
                    break
                rest = rest[rest.index("#}") + 2 :]
    assert not unclosed, unclosed
