"""The template language the Town's staff write in: plain text with ``{placeholder}`` fields.

Nothing else runs: no Django template code, no attribute or index look-ups, no format specs, so an
edited template can only put the registered values where its author wants them. ``{{`` and ``}}``
write a literal brace. Pure functions, no Django.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Iterable, Mapping

_FORMATTER = string.Formatter()


def _parse(text: str):
    try:
        return list(_FORMATTER.parse(text))
    except ValueError as error:
        raise ValueError(
            f"The text has an unmatched brace ({error}). Write each field as {{name}}, and a literal brace as {{{{ or }}}}."
        ) from None


def template_problems(text: str, *, allowed: Iterable[str]) -> list[str]:
    """What is wrong with a template's text, as sentences for the person editing it (empty: fine)."""
    allowed = set(allowed)
    try:
        parts = _parse(text)
    except ValueError as error:
        return [str(error)]
    problems: list[str] = []
    unknown: list[str] = []
    for _literal, field, spec, conversion in parts:
        if field is None:
            continue
        if not field or field.isdigit():
            problems.append("Every field needs a name, e.g. {business_name}; {} is not allowed.")
        elif spec or conversion or not field.isidentifier():
            problems.append(
                f"Write {{{field.split('.')[0].split('[')[0]}}} alone: no formatting or look-ups inside a field."
            )
        elif field not in allowed:
            unknown.append(field)
    if unknown:
        names = ", ".join(f"{{{name}}}" for name in sorted(set(unknown)))
        known = ", ".join(f"{{{name}}}" for name in sorted(allowed)) or "none"
        problems.append(f"Unknown placeholder(s): {names}. This document may use: {known}.")
    return problems


def placeholders_used(text: str) -> list[str]:
    """The names of the fields in ``text``, in order of first use (the text must be valid)."""
    seen: list[str] = []
    for _literal, field, _spec, _conversion in _parse(text):
        if field and field not in seen:
            seen.append(field)
    return seen


def render(text: str, values: Mapping[str, str]) -> str:
    """``text`` with each field replaced by its value (every field must have one)."""
    return prepared(text).format_map(values)


@functools.lru_cache(maxsize=256)
def prepared(text: str) -> str:
    """``text`` parsed once, as a format string of its named fields alone (the literal braces
    doubled, no format spec or conversion): ``prepared(text).format_map(values)`` is
    ``render(text, values)``. A night's reminders fill each version of a template thousands of
    times; parsing it each time was most of their wording. A field that is not a plain name (a
    text saved before it was checked) is a KeyError, as a missing value is: never an attribute
    or index look-up."""
    out: list[str] = []
    for literal, field, _spec, _conversion in _parse(text):
        out.append(literal.replace("{", "{{").replace("}", "}}"))
        if field is not None:
            if not field.isidentifier():
                raise KeyError(field)
            out.append(f"{{{field}}}")
    return "".join(out)
