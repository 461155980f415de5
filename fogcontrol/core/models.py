"""The copy-of-record tables (see fogcontrol.core.records for how to use them).

``CopyOfRecord`` is abstract: each app's record model subclasses it. ``RecordChainHead`` and
``PurgedRecord`` serve every chain. Their tables keep the names they were created under in the
servicing app (``servicing_recordchainhead``, ``servicing_purgedrecord``): the database triggers
of every protected table name ``servicing_purgedrecord``, so the tables did not move.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from fogcontrol.core.errors import RecordImmutable

GENESIS_HASH = "0" * 64


class CopyOfRecord(models.Model):
    """An unalterable record of a submission (F1, F5, F7). See the module docstring."""

    received_at = models.DateTimeField(editable=False, db_index=True, help_text="When received (UTC).")
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # Names the sender even if the account is renamed, and a job or import when no person sent it.
    submitted_by_label = models.CharField(max_length=150)
    submission = models.TextField(help_text="The exact submission as received (canonical JSON).")
    record_sequence = models.PositiveBigIntegerField(unique=True, editable=False)
    previous_hash = models.CharField(max_length=64, editable=False)
    record_hash = models.CharField(max_length=64, unique=True, editable=False)
    # The key epoch whose HMAC ``record_hash`` is (fogcontrol.core.record_keys); NULL for the rows
    # stored before the chain was keyed, whose hash is a plain SHA-256 (see ``RecordChainSeal``).
    key_epoch = models.PositiveIntegerField(null=True, editable=False)

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        # The database trigger is the real guard; this one gives a clear message sooner.
        if not self._state.adding:
            raise RecordImmutable(
                f"{self._meta.verbose_name} #{self.pk} is a copy of record and cannot be changed."
            )
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise RecordImmutable(
            f"{self._meta.verbose_name} #{self.pk} is a copy of record; it can only be purged after "
            "its retention period (F5)."
        )


class RecordChainHead(models.Model):
    """The last record of each chain: locked while a record is appended so the chain cannot fork."""

    chain = models.CharField(max_length=100, unique=True)
    last_sequence = models.PositiveBigIntegerField(default=0)
    last_hash = models.CharField(max_length=64, default=GENESIS_HASH)

    class Meta:
        db_table = "servicing_recordchainhead"

    def __str__(self) -> str:
        return f"{self.chain} #{self.last_sequence}"


class PurgedRecord(models.Model):
    """A copy of record destroyed after its retention period (F5).

    Written BEFORE the row is deleted: the delete trigger lets through only rows named here.
    It keeps the purged row's place and hash, so ``verify_chain`` still checks every link.
    Itself append-only (protected by the same triggers, without exception).
    """

    table_name = models.CharField(max_length=100)
    record_id = models.BigIntegerField()
    record_sequence = models.PositiveBigIntegerField()
    previous_hash = models.CharField(max_length=64)
    record_hash = models.CharField(max_length=64)
    record_date = models.DateField(help_text="The date the retention period counts from (F5).")
    purged_at = models.DateTimeField(default=timezone.now)
    purged_by_label = models.CharField(max_length=150)
    reason = models.TextField()
    # The Town's approval the purge was made under (``servicing.RetentionApproval``; an id, as core
    # names no app): the delete trigger lets a row go only under an approval covering its date.
    retention_approval_id = models.BigIntegerField(null=True)
    # The entry's HMAC under the key of ``key_epoch``: a purge entry written without the key does
    # not verify. NULL on entries written before the chain was keyed.
    key_epoch = models.PositiveIntegerField(null=True)
    entry_mac = models.CharField(max_length=64, null=True)

    class Meta:
        db_table = "servicing_purgedrecord"
        constraints = [
            models.UniqueConstraint(fields=["table_name", "record_id"], name="purged_record_unique"),
            models.UniqueConstraint(fields=["table_name", "record_sequence"], name="purged_sequence_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.table_name} #{self.record_id} purged {self.purged_at:%Y-%m-%d}"


class RecordChainSeal(models.Model):
    """The chain head signed with the record key (issue 15, finding 4), one per chain.

    ``legacy_until`` is the last sequence stored before the chain was keyed: rows and purge entries
    up to it carry a plain SHA-256, every later one an HMAC. It is part of the seal, so rows cannot
    be passed off as older, unkeyed ones; it never changes (a trigger refuses it). The seal moves
    forward with every record appended; a seal that disagrees with the chain's last record, or
    whose HMAC fails, means the chain was cut back or the seal forged.
    """

    chain = models.CharField(max_length=100, unique=True)
    legacy_until = models.PositiveBigIntegerField(default=0)
    sealed_sequence = models.PositiveBigIntegerField(default=0)
    sealed_hash = models.CharField(max_length=64, default=GENESIS_HASH)
    key_epoch = models.PositiveIntegerField()
    seal = models.CharField(max_length=64)

    def __str__(self) -> str:
        return f"{self.chain} sealed at #{self.sealed_sequence}"


class WorkerHeartbeat(models.Model):
    """A background worker (or a `fogcontrol sweep` run) saying it is alive, every few seconds.

    `fogcontrol.core.queue` reads it: a job still "running" under a worker that stopped beating is
    requeued, and `queue_health()` tells staff when no worker is alive. One row per worker id."""

    worker_id = models.CharField(max_length=64, unique=True)
    host = models.CharField(max_length=255, blank=True)
    pid = models.PositiveIntegerField(null=True)
    started_at = models.DateTimeField()
    last_seen_at = models.DateTimeField(db_index=True)
    # Set when the worker stopped cleanly (Ctrl-C, SIGTERM): it is not alive, and no job is left to it.
    stopped_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"worker {self.worker_id} last seen {self.last_seen_at:%Y-%m-%d %H:%M:%S}"
