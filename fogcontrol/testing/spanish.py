"""What the tests of an outside user's Spanish pages share (issue 18): a client signed in as a user
who chose Spanish, and the error shown beside a form's control."""

from __future__ import annotations

import re

from django.test import Client


def in_spanish(user, client: Client | None = None) -> Client:
    """``client`` (a new one by default) signed in as ``user``, who has chosen Spanish."""
    user.preferred_language = "es"
    user.save(update_fields=["preferred_language"])
    client = client or Client()
    client.force_login(user)
    return client


def field_error(page: str, name: str) -> str:
    """The error beside the control ``name``, which names it among what describes it."""
    error_id = f"id_{name}_error"
    control = re.search(rf'<[^>]*name="{re.escape(name)}"[^>]*>', page)
    described = re.search(r'aria-describedby="([^"]*)"', control.group(0)) if control else None
    assert described and error_id in described.group(1).split(), f"{name} is not described by {error_id}"
    found = re.search(rf'<p class="field-error" id="{re.escape(error_id)}">([^<]*)</p>', page)
    assert found, f"no error beside {name}"
    return found.group(1)
