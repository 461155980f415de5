"""Spills tests keep their uploads in a temporary folder."""

import pytest


@pytest.fixture(autouse=True)
def _media_in_tmp(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
