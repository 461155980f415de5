"""The key of the copy-of-record chains (issue 15, finding 4): it lives outside the database.

Every record appended since the chain was keyed carries an HMAC-SHA-256 under the key of its
*epoch* (``key_epoch``). The keys of all epochs stay in the keyring, so old records verify after a
rotation; a new epoch starts with ``fogcontrol rotate_record_key``.

Where the keyring comes from, first match wins:

1. ``FOGCONTROL_RECORD_KEY``: one secret (epoch 1), or ``1:<secret>,2:<secret>`` with the epoch of
   each. The highest epoch signs new records.
2. The key file ``FOGCONTROL_RECORD_KEY_FILE`` (default ``<data dir>/record-keys.json``), mode
   0600: ``{"keys": {"1": "<hex>", "2": "<hex>"}}``. In development it is created on first use.
   In production the program refuses to start without one of the two (settings, like the
   secret key), and never creates it.

Whoever can read the key can forge records: keep it away from the database's backups, and keep a
copy of it (every epoch) where the Town keeps its other secrets. Without it nothing verifies.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

ENV_NAME = "FOGCONTROL_RECORD_KEY"
MIN_SECRET_CHARS = 32


class RecordKeyMissing(ImproperlyConfigured):
    """No key for an epoch: the records it signed cannot be verified or extended."""


_KEYED: dict[bytes, hmac.HMAC] = {}


@dataclasses.dataclass(frozen=True)
class Keyring:
    keys: dict[int, bytes]
    source: str  # "environment" or the key file's path, for messages

    @property
    def current_epoch(self) -> int:
        return max(self.keys)

    def key(self, epoch: int) -> bytes:
        try:
            return self.keys[epoch]
        except KeyError:
            raise RecordKeyMissing(
                f"No record key for epoch {epoch} in {self.source}: restore the keyring that holds it."
            ) from None

    def mac(self, epoch: int, purpose: str, text: str) -> str:
        """HMAC-SHA-256 of ``text`` under the epoch's key, bound to what it signs (``purpose``)."""
        message = f"fogcontrol-{purpose}:{epoch}:{text}".encode()
        key = self.key(epoch)
        keyed = _KEYED.get(key)
        if keyed is None:  # the key's inner and outer pads, computed once a key and copied after
            keyed = _KEYED[key] = hmac.new(key, digestmod=hashlib.sha256)
        mac = keyed.copy()
        mac.update(message)
        return mac.hexdigest()

    def verify(self, epoch: int, purpose: str, text: str, mac: str | None) -> bool:
        return bool(mac) and hmac.compare_digest(self.mac(epoch, purpose, text), mac)


def parse_env_keys(raw: str) -> dict[int, bytes]:
    """``secret`` (epoch 1) or ``1:secret,2:secret``."""
    raw = raw.strip()
    entries = [item.strip() for item in raw.split(",") if item.strip()]
    keys: dict[int, bytes] = {}
    for entry in entries:
        epoch_text, sep, secret = entry.partition(":")
        if not sep or not epoch_text.isdigit():
            if len(entries) > 1:
                raise ImproperlyConfigured(
                    f"{ENV_NAME}: write each key as <epoch>:<secret>, separated by commas."
                )
            epoch_text, secret = "1", entry
        if len(secret) < MIN_SECRET_CHARS:
            raise ImproperlyConfigured(
                f"{ENV_NAME}: each key must be at least {MIN_SECRET_CHARS} characters."
            )
        keys[int(epoch_text)] = secret.encode()
    if not keys or min(keys) < 1:
        raise ImproperlyConfigured(f"{ENV_NAME}: epochs start at 1.")
    return keys


def key_file_path() -> Path:
    return Path(settings.FOGCONTROL_RECORD_KEY_FILE)


def _read_file(path: Path) -> dict[int, bytes]:
    data = json.loads(path.read_text(encoding="utf-8"))
    keys = {int(epoch): bytes.fromhex(secret) for epoch, secret in data["keys"].items()}
    if not keys:
        raise ImproperlyConfigured(f"The record key file {path} holds no key.")
    return keys


def _write_scratch(path: Path, keys: dict[int, bytes]) -> Path:
    """The keyring in a new 0600 file beside ``path``, written and synced."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"keys": {str(epoch): key.hex() for epoch, key in sorted(keys.items())}}, indent=1)
    scratch = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
    descriptor = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(text + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    return scratch


def _write_file(path: Path, keys: dict[int, bytes]) -> None:
    """Written to a new 0600 file, then renamed over the old one: never a half-written keyring."""
    os.replace(_write_scratch(path, keys), path)


def _create_first_key(path: Path) -> None:
    """Development: the first process that needs a key creates the file. Another process racing it
    (a second server worker starting at the same moment) finds the file made and uses that key:
    it never replaces it with one of its own, which would leave the first one's records signed by
    a key nobody keeps (found by tests/test_kill_durability.py)."""
    scratch = _write_scratch(path, {1: secrets.token_bytes(32)})
    try:
        os.link(scratch, path)  # fails if the file exists: creation, never replacement
    except FileExistsError:
        pass
    finally:
        os.unlink(scratch)


_cache: dict[tuple, Keyring] = {}


def keyring() -> Keyring:
    """The keyring in force: from the environment, else the key file (created in development)."""
    raw = os.environ.get(ENV_NAME, "")
    if raw.strip():
        cache_key = ("env", raw)
        if cache_key not in _cache:
            _cache.clear()
            _cache[cache_key] = Keyring(parse_env_keys(raw), "the environment (FOGCONTROL_RECORD_KEY)")
        return _cache[cache_key]
    path = key_file_path()
    if not path.exists():
        if settings.FOGCONTROL_PRODUCTION:
            raise RecordKeyMissing(
                f"No record key: set {ENV_NAME} or provide the key file {path} (see docs/security.md)."
            )
        _create_first_key(path)
    stat = path.stat()
    cache_key = ("file", str(path), stat.st_mtime_ns, stat.st_size)
    if cache_key not in _cache:
        _cache.clear()
        _cache[cache_key] = Keyring(_read_file(path), str(path))
    return _cache[cache_key]


def rotate() -> int:
    """Start a new epoch in the key file; every older key stays. Returns the new epoch."""
    if os.environ.get(ENV_NAME, "").strip():
        raise ImproperlyConfigured(
            f"The record keys come from {ENV_NAME}: add '<next epoch>:<new secret>' to it (keep the old "
            "ones) and restart. A new secret: python -c 'import secrets; print(secrets.token_hex(32))'."
        )
    ring = keyring()
    keys = dict(ring.keys)
    epoch = ring.current_epoch + 1
    keys[epoch] = secrets.token_bytes(32)
    _write_file(key_file_path(), keys)
    _cache.clear()
    return epoch
