"""Backups that restore (issue 15): the database and the uploaded files, with a manifest to check
the restore against.

A backup is one directory:

    manifest.json     when it was taken, the engine, every table's row count, every chain of copies
                      of record (records, last sequence, last hash) and each part's SHA-256
    database.sqlite3  SQLite: copied through SQLite's online backup API (readers and the one writer
                      carry on), then checked with ``PRAGMA integrity_check``
    database.pgdump   PostgreSQL: ``pg_dump --format=custom``, one consistent snapshot
    files.tar         the uploaded files (MEDIA_ROOT): manifests' receipts, photos, signed sheets

Restoring checks every part against the manifest's SHA-256 before it touches anything, refuses to
overwrite a database that holds records unless told to replace it, restores the database and the
files, and then proves the result: every table's row count must equal the manifest's, and every
chain of copies of record must verify (``verify_chain``) and end where the manifest says it ended.

The HMAC key of the chains (``FOGCONTROL_RECORD_KEY_FILE``) is deliberately NOT in the backup: a
backup that carried its own key would let whoever holds the backup rewrite the records and re-sign
them. Keep the key file apart (docs/security.md "Backups"); a restore verifies with the key in place.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
import os
import sqlite3
import subprocess
import tarfile
from pathlib import Path

from django.conf import settings
from django.db import connection, connections

from fogcontrol.core.record_hashing import chain_name, copy_of_record_models
from fogcontrol.core.record_verify import verify_chain

MANIFEST = "manifest.json"
FILES = "files.tar"
FORMAT = 1
_SQLITE_PART = "database.sqlite3"
_POSTGRES_PART = "database.pgdump"


class BackupError(Exception):
    """A backup or restore that cannot go on; the message says why and what to do."""


@dataclasses.dataclass(frozen=True)
class RestoreReport:
    tables: int
    rows: int
    chains: tuple[str, ...]
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _tables() -> list[str]:
    with connection.cursor() as cursor:
        names = connection.introspection.table_names(cursor)
    return sorted(name for name in names if not name.startswith("sqlite_"))


def table_counts() -> dict[str, int]:
    """Every table's row count in the configured database."""
    counts = {}
    with connection.cursor() as cursor:
        for table in _tables():
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")  # nosec B608: SQL names come from model metadata, values are parameters
            counts[table] = cursor.fetchone()[0]
    return counts


def chain_heads() -> dict[str, dict]:
    heads = {}
    for model in copy_of_record_models():
        report = verify_chain(model)
        heads[chain_name(model)] = {
            "records": report.records,
            "last_sequence": report.last_sequence,
            "last_hash": report.last_hash,
            "verified": report.ok,
        }
    return heads


def _postgres_env(db: dict) -> tuple[list[str], dict[str, str]]:
    """pg_dump/pg_restore connection arguments, the password through the environment (never argv)."""
    args = []
    if db.get("HOST"):
        args += ["--host", str(db["HOST"])]
    if db.get("PORT"):
        args += ["--port", str(db["PORT"])]
    if db.get("USER"):
        args += ["--username", str(db["USER"])]
    env = dict(os.environ)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    return args, env


def _run(command: list[str], env: dict[str, str]) -> None:
    try:
        subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    except FileNotFoundError as missing:
        raise BackupError(f"{command[0]} is not installed: install the PostgreSQL client tools.") from missing
    except subprocess.CalledProcessError as failed:
        raise BackupError(f"{command[0]} failed: {failed.stderr.strip() or failed.returncode}") from failed


def _sqlite_backup(target: Path) -> None:
    connection.ensure_connection()
    destination = sqlite3.connect(target)
    try:
        connection.connection.backup(destination)
        (result,) = destination.execute("PRAGMA integrity_check").fetchone()
    finally:
        destination.close()
    if result != "ok":
        raise BackupError(f"The copy failed SQLite's integrity check: {result}")


def _files_tar(target: Path) -> int:
    media = Path(settings.MEDIA_ROOT)
    count = 0
    with tarfile.open(target, "w") as archive:
        if media.is_dir():
            for path in sorted(media.rglob("*")):
                if path.is_file():
                    archive.add(path, arcname=str(path.relative_to(media)))
                    count += 1
    return count


def backup(directory: Path, *, now: dt.datetime) -> dict:
    """Write a backup into ``directory`` (created; must not exist yet) and return its manifest."""
    if directory.exists():
        raise BackupError(f"{directory} already exists: name a new directory for the backup.")
    directory.mkdir(parents=True)
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        part = _SQLITE_PART
        _sqlite_backup(directory / part)
    elif connection.vendor == "postgresql":
        part = _POSTGRES_PART
        args, env = _postgres_env(db)
        _run(["pg_dump", "--format=custom", "--file", str(directory / part), *args, db["NAME"]], env)
    else:
        raise BackupError(f"No backup method for the {connection.vendor} engine.")
    files = _files_tar(directory / FILES)
    manifest = {
        "format": FORMAT,
        "taken_at": now.isoformat(),
        "engine": connection.vendor,
        "database": part,
        "files": FILES,
        "file_count": files,
        "tables": table_counts(),
        "chains": chain_heads(),
        "sha256": {part: _sha256(directory / part), FILES: _sha256(directory / FILES)},
    }
    (directory / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True))
    return manifest


def read_manifest(directory: Path) -> dict:
    """The backup's manifest, after checking every part against its SHA-256."""
    path = directory / MANIFEST
    if not path.is_file():
        raise BackupError(f"{directory} is not a fogcontrol backup: {MANIFEST} is missing.")
    try:
        manifest = json.loads(path.read_text())
    except ValueError as bad:
        raise BackupError(f"{path} is not valid JSON: {bad}") from bad
    if manifest.get("format") != FORMAT:
        raise BackupError(
            f"{path}: backup format {manifest.get('format')!r} is not one this version restores."
        )
    for part, expected in manifest["sha256"].items():
        part_path = directory / part
        if not part_path.is_file():
            raise BackupError(f"{part_path} is missing: the backup is incomplete.")
        if _sha256(part_path) != expected:
            raise BackupError(
                f"{part_path} does not match its SHA-256 in the manifest: the backup is damaged."
            )
    return manifest


def _holds_records() -> bool:
    return any(rows for table, rows in table_counts().items() if table != "django_migrations")


def _sqlite_restore(source: Path) -> None:
    origin = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        connection.ensure_connection()
        origin.backup(connection.connection)
    finally:
        origin.close()
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA integrity_check")
        (result,) = cursor.fetchone()
    if result != "ok":
        raise BackupError(f"The restored database failed SQLite's integrity check: {result}")


def _postgres_restore(source: Path) -> None:
    db = connection.settings_dict
    connections.close_all()
    args, env = _postgres_env(db)
    command = ["pg_restore", "--clean", "--if-exists", "--no-owner", "--single-transaction"]
    _run([*command, "--exit-on-error", *args, "--dbname", db["NAME"], str(source)], env)


def _restore_files(archive_path: Path, *, replace: bool, now: dt.datetime) -> None:
    media = Path(settings.MEDIA_ROOT)
    if media.is_dir() and any(media.iterdir()):
        if not replace:
            raise BackupError(f"{media} holds files: pass --replace to move them aside and restore.")
        media.rename(media.with_name(f"{media.name}.before-restore-{now:%Y%m%dT%H%M%S}"))
    media.mkdir(parents=True, exist_ok=True)
    with tarfile.open(archive_path) as archive:
        # The "data" filter refuses absolute paths, links out of the folder and device files.
        archive.extractall(media, filter="data")


def restore(directory: Path, *, replace: bool, now: dt.datetime) -> RestoreReport:
    """Restore a backup into the configured database and MEDIA_ROOT, then prove it (row counts, chains)."""
    manifest = read_manifest(directory)
    if manifest["engine"] != connection.vendor:
        raise BackupError(
            f"The backup is of a {manifest['engine']} database; this installation uses {connection.vendor}."
        )
    if _holds_records() and not replace:
        raise BackupError(
            "The database already holds records: pass --replace to overwrite it with the backup."
        )
    if connection.vendor == "sqlite":
        _sqlite_restore(directory / manifest["database"])
    else:
        _postgres_restore(directory / manifest["database"])
    _restore_files(directory / manifest["files"], replace=replace, now=now)
    return check_restored(manifest)


def check_restored(manifest: dict) -> RestoreReport:
    """Compare the database with the manifest: every table's rows, every chain verified and complete."""
    problems = []
    counts = table_counts()
    for table, expected in sorted(manifest["tables"].items()):
        found = counts.get(table)
        if found != expected:
            problems.append(f"table {table}: {found} row(s), the backup had {expected}")
    chains = []
    for name, head in chain_heads().items():
        chains.append(name)
        expected = manifest["chains"].get(name)
        if not head["verified"]:
            problems.append(
                f"chain {name} does not verify: run `fogcontrol verify_records` for the broken link"
            )
        elif expected and (head["last_sequence"], head["last_hash"]) != (
            expected["last_sequence"],
            expected["last_hash"],
        ):
            problems.append(
                f"chain {name} ends at record {head['last_sequence']}, the backup's at "
                f"{expected['last_sequence']}"
            )
    media = Path(settings.MEDIA_ROOT)
    restored_files = sum(1 for path in media.rglob("*") if path.is_file()) if media.is_dir() else 0
    if restored_files != manifest["file_count"]:
        problems.append(
            f"{restored_files} uploaded file(s) restored, the backup had {manifest['file_count']}"
        )
    return RestoreReport(
        tables=len(counts), rows=sum(counts.values()), chains=tuple(chains), problems=tuple(problems)
    )


def default_directory(now: dt.datetime) -> Path:
    return Path(settings.DATA_DIR) / "backups" / f"fogcontrol-{now:%Y%m%dT%H%M%S}"
