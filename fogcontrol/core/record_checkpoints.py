"""Signed checkpoints of the chains of copies of record (issue 15, finding 4).

Whoever can write to the database and saved an old copy of a chain's head and seal could put the
chain back to that point: every signature in it is genuine. A checkpoint, kept outside the
database, defeats that: ``fogcontrol verify_records --checkpoint PATH`` writes each chain's last
place and hash, the time, and an HMAC over them under the record key; ``verify_records`` then
checks that every chain still holds, at each checkpointed place, the record the checkpoint saw
(``--against PATH``, or by default the newest checkpoint in ``<data dir>/checkpoints``). Because
each hash covers the one before, that proves nothing before the checkpoint was rewritten or cut.
Keep the checkpoint files where the database's writers cannot reach (a mail to the Town Clerk, a
write-once store).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from django.conf import settings
from django.utils import timezone

from fogcontrol.core.record_hashing import chain_name, copy_of_record_models
from fogcontrol.core.record_keys import Keyring, RecordKeyMissing, keyring
from fogcontrol.core.record_verify import ChainReport, record_at

FORMAT = "fogcontrol-checkpoint-1"


def checkpoint_dir() -> Path:
    return Path(settings.DATA_DIR) / "checkpoints"


def _body_text(body: dict) -> str:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def checkpoint_write(path: Path, reports: list[ChainReport], *, ring: Keyring | None = None) -> list[Path]:
    """Write a checkpoint of verified chains to ``path`` and keep a copy in the data dir."""
    ring = ring or keyring()
    now = timezone.now().astimezone(dt.UTC)
    body = {
        "format": FORMAT,
        "written_at": now.isoformat(),
        "key_epoch": ring.current_epoch,
        "chains": [
            {"chain": report.chain, "last_sequence": report.last_sequence, "last_hash": report.last_hash}
            for report in sorted(reports, key=lambda report: report.chain)
        ],
    }
    body["signature"] = ring.mac(ring.current_epoch, "checkpoint", _body_text(body))
    text = json.dumps(body, indent=1, sort_keys=True) + "\n"
    written = [Path(path)]
    kept = checkpoint_dir() / f"checkpoint-{now:%Y%m%dT%H%M%S%fZ}.json"
    if kept.resolve() != Path(path).resolve():
        written.append(kept)
    for target in written:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return written


def latest_checkpoint() -> Path | None:
    """The newest checkpoint kept in the data dir (their names sort by time)."""
    files = sorted(checkpoint_dir().glob("checkpoint-*.json")) if checkpoint_dir().is_dir() else []
    return files[-1] if files else None


def checkpoint_check(path: Path, *, ring: Keyring | None = None) -> list[str]:
    """What in the database disagrees with the checkpoint at ``path`` (nothing: an empty list)."""
    ring = ring or keyring()
    try:
        body = json.loads(Path(path).read_text(encoding="utf-8"))
        signature = body.pop("signature")
        epoch = int(body["key_epoch"])
        written_at = body["written_at"]
        chains = body["chains"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        return [f"checkpoint {path}: unreadable ({error})."]
    try:
        genuine = ring.verify(epoch, "checkpoint", _body_text(body), signature)
    except RecordKeyMissing:
        return [f"checkpoint {path}: no key for its epoch {epoch} in the keyring."]
    if not genuine or body.get("format") != FORMAT:
        return [f"checkpoint {path}: its signature fails: it was not written by the program, or was edited."]
    models = {chain_name(model): model for model in copy_of_record_models()}
    problems = []
    for entry in chains:
        chain, sequence, expected = entry["chain"], int(entry["last_sequence"]), entry["last_hash"]
        if not sequence:
            continue
        model = models.get(chain)
        if model is None:
            problems.append(
                f"{chain}: the checkpoint of {written_at} names a chain the program no longer has."
            )
            continue
        found = record_at(model, sequence)
        if found is None:
            problems.append(
                f"{chain}: the checkpoint of {written_at} saw {sequence} record(s); the chain no longer holds "
                f"sequence {sequence}: it was rolled back."
            )
        elif found != expected:
            problems.append(
                f"{chain}: the record at sequence {sequence} is not the one the checkpoint of {written_at} saw: "
                "the chain was rewritten before the checkpoint."
            )
    return problems
