"""The documents the program can issue, each registered once by the app that issues it.

An app calls ``register(...)`` in its ``AppConfig.ready()``: the key, the title, the provisions the
document cites, the placeholders its text may use (name → meaning, shown to the Town's staff who
edit the wording) and the default text. The Town's own wording lives in the database as versions
(``DocumentTemplate``); the default text becomes version 1 the first time the key is used.
"""

from __future__ import annotations

import dataclasses
import re

from fogcontrol.notices.rendering import template_problems

KEY_PATTERN = re.compile(r"^[a-z][a-z0-9_]{1,63}$")
PLACEHOLDER_PATTERN = re.compile(r"^[a-z][a-z0-9_]{0,63}$")


@dataclasses.dataclass(frozen=True)
class Registration:
    key: str
    title: str
    provisions: tuple[str, ...]
    placeholders: dict[str, str]
    default_body: str

    def __hash__(self) -> int:
        return hash(self.key)


_REGISTRY: dict[str, Registration] = {}


class NotRegistered(LookupError):
    """No app registered a document under this key."""


def register(
    key: str,
    *,
    title: str,
    provisions: tuple[str, ...],
    placeholders: dict[str, str],
    default_body: str,
) -> Registration:
    """Declare a document the program issues. Registering the same key again with the same
    declaration is harmless (``ready()`` may run twice in tests); a different one is an error."""
    if not KEY_PATTERN.match(key):
        raise ValueError(f"Document key {key!r}: use lower-case letters, digits and underscores.")
    for name in placeholders:
        if not PLACEHOLDER_PATTERN.match(name):
            raise ValueError(
                f"Placeholder {name!r} of {key!r}: use lower-case letters, digits and underscores."
            )
    registration = Registration(
        key=key,
        title=title,
        provisions=tuple(provisions),
        placeholders=dict(placeholders),
        default_body=default_body,
    )
    for label, text in (("title", title), ("default_body", default_body)):
        problems = template_problems(text, allowed=registration.placeholders)
        if problems:
            raise ValueError(f"The {label} of document {key!r}: {' '.join(problems)}")
    existing = _REGISTRY.get(key)
    if existing is not None and existing != registration:
        raise ValueError(f"Document {key!r} is registered already with another declaration.")
    _REGISTRY[key] = registration
    return registration


def registered(key: str) -> Registration:
    """The registration of ``key``; ``NotRegistered`` when no app declared it."""
    try:
        return _REGISTRY[key]
    except KeyError:
        raise NotRegistered(f"No document is registered under {key!r}.") from None


def all_registered() -> list[Registration]:
    """Every registered document, by title."""
    return sorted(_REGISTRY.values(), key=lambda registration: (registration.title, registration.key))
