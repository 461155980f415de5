"""Spills tests that keep files (imports) keep them in a temporary folder; the access table's town
keeps its own (fogcontrol/testing/access.py)."""

import pytest


@pytest.fixture
def media_in_tmp(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
