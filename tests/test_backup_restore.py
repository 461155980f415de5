"""Issue 15, "Backups": `fogcontrol backup` and `fogcontrol restore` (SQLite through its online
backup API with an integrity check; PostgreSQL through pg_dump/pg_restore). A backup restores into
a fresh database with every table's rows and every chain of copies of record as they were (F5, F7).

These tests commit their data (a backup is taken by another connection or process), so they use
``transactional_db``; the copy-of-record triggers would refuse the flush that ends such a test, so
the fixture lifts them for the flush and puts them back.
"""

import os
import subprocess
import sys
import uuid
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from fogcontrol.core import record_keys
from fogcontrol.core.backup import MANIFEST, read_manifest
from fogcontrol.core.roles import Role
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.servicing.models import Manifest
from fogcontrol.servicing.tests.helpers import days_ago, submit
from fogcontrol.servicing.tests.record_attacks import drop_triggers, recreate_triggers
from fogcontrol.testing.town import build_small_town

FOGCONTROL = Path(sys.executable).with_name("fogcontrol")


@pytest.fixture
def committed(transactional_db, django_db_serialized_rollback, tmp_path, settings, monkeypatch):
    """A small town with three manifests on their chain and one uploaded file, committed."""
    monkeypatch.delenv(record_keys.ENV_NAME, raising=False)
    settings.FOGCONTROL_RECORD_KEY_FILE = tmp_path / "keys" / "record-keys.json"
    settings.MEDIA_ROOT = tmp_path / "media"
    record_keys._cache.clear()
    town = build_small_town()
    for i in range(3):
        submit(town.users[Role.HAULER], town.own_device, serviced_at=days_ago(20 - i))
    receipt = Path(settings.MEDIA_ROOT) / "manifests" / "receipt.pdf"
    receipt.parent.mkdir(parents=True)
    receipt.write_bytes(b"%PDF-1.4 a receipt\n")
    yield town
    drop_triggers()
    call_command("flush", interactive=False, verbosity=0)
    recreate_triggers()
    record_keys._cache.clear()


def _backup(directory: Path) -> str:
    out = StringIO()
    call_command("backup", str(directory), stdout=out)
    return out.getvalue()


def _fresh_database_env(tmp_path: Path, settings) -> tuple[dict[str, str], object]:
    """The environment of a second installation with an empty database and the same record key."""
    env = dict(os.environ)
    env["FOGCONTROL_DATA_DIR"] = str(tmp_path / "fresh")
    env["FOGCONTROL_MEDIA_DIR"] = str(tmp_path / "fresh" / "media")
    env["FOGCONTROL_RECORD_KEY_FILE"] = str(settings.FOGCONTROL_RECORD_KEY_FILE)
    env.pop(record_keys.ENV_NAME, None)
    if connection.vendor == "sqlite":
        env.pop("DATABASE_URL", None)
        return env, None
    name = f"fogcontrol_restore_{uuid.uuid4().hex[:8]}"
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE DATABASE {name}")
    db = connection.settings_dict
    env["DATABASE_URL"] = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}"
    return env, name


def _drop_database(name) -> None:
    if name:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _run(env, *args) -> subprocess.CompletedProcess:
    return subprocess.run([str(FOGCONTROL), *args], env=env, capture_output=True, text=True, timeout=300)


def test_a_backup_restores_into_a_fresh_database_with_every_row_and_every_chain(
    committed, tmp_path, settings
):
    """F5, F7: restored into a new, empty installation (another process, its own database and files
    folder, the same record key): every table's rows as backed up, every chain verifies."""
    backup_dir = tmp_path / "backup"
    said = _backup(backup_dir)
    manifest = read_manifest(backup_dir)
    assert "1 uploaded file(s)" in said
    assert manifest["tables"]["servicing_manifest"] == 3
    assert all(head["verified"] for head in manifest["chains"].values())

    env, database = _fresh_database_env(tmp_path, settings)
    try:
        restored = _run(env, "restore", str(backup_dir))
        assert restored.returncode == 0, restored.stdout + restored.stderr
        assert "chains of copies of record verify" in restored.stdout
        verified = _run(env, "verify_records")
        assert verified.returncode == 0, verified.stdout + verified.stderr
        assert "All records verify." in verified.stdout
        assert (tmp_path / "fresh" / "media" / "manifests" / "receipt.pdf").read_bytes().startswith(b"%PDF")
    finally:
        _drop_database(database)


def test_restore_refuses_to_overwrite_records_unless_told_and_then_returns_to_the_backup(
    committed, tmp_path, settings
):
    """F7: what was written after the backup is gone once it is restored with --replace; files that
    were in place are moved aside, never deleted."""
    backup_dir = tmp_path / "backup"
    _backup(backup_dir)
    submit(committed.users[Role.HAULER], committed.own_device, serviced_at=days_ago(2))
    (Path(settings.MEDIA_ROOT) / "late.pdf").write_bytes(b"%PDF-1.4 after the backup\n")

    with pytest.raises(CommandError, match="already holds records: pass --replace"):
        call_command("restore", str(backup_dir), stdout=StringIO())
    assert Manifest.objects.count() == 4

    out = StringIO()
    call_command("restore", str(backup_dir), "--replace", stdout=out)
    assert "as backed up" in out.getvalue()
    assert Manifest.objects.count() == 3
    assert (
        FoodServiceEstablishment.objects.count()
        == read_manifest(backup_dir)["tables"][FoodServiceEstablishment._meta.db_table]
    )
    moved_aside = [p for p in Path(settings.MEDIA_ROOT).parent.iterdir() if ".before-restore-" in p.name]
    assert [p.name for p in moved_aside[0].iterdir()] == ["late.pdf"] or (
        moved_aside[0] / "late.pdf"
    ).exists()


def test_a_damaged_backup_is_refused_before_anything_is_touched(committed, tmp_path):
    """A backup whose database part no longer matches its SHA-256 is refused, naming the part."""
    backup_dir = tmp_path / "backup"
    _backup(backup_dir)
    manifest = read_manifest(backup_dir)
    part = backup_dir / manifest["database"]
    data = bytearray(part.read_bytes())
    data[len(data) // 2] ^= 0xFF
    part.write_bytes(bytes(data))

    with pytest.raises(CommandError, match="does not match its SHA-256"):
        call_command("restore", str(backup_dir), "--replace", stdout=StringIO())
    assert Manifest.objects.count() == 3


def test_backup_refuses_an_existing_directory_and_a_folder_that_is_no_backup(committed, tmp_path):
    (tmp_path / "taken").mkdir()
    with pytest.raises(CommandError, match="already exists"):
        _backup(tmp_path / "taken")
    with pytest.raises(CommandError, match=f"{MANIFEST} is missing"):
        call_command("restore", str(tmp_path / "taken"), stdout=StringIO())
