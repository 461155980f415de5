"""Servicing: manifests, readings, each device's service state, frequencies and requirements.

Provisions E1-E9 (maintenance), F1-F7 (records), C2 (waste oil manifests kept). Writes go
through fogcontrol.servicing.services; the rules come from fogcontrol.rules.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.files import RandomName
from fogcontrol.core.models import CopyOfRecord
from fogcontrol.registry.models import (
    FoodServiceEstablishment,
    GreaseControlDevice,
    HaulerCompany,
    HaulerVehicle,
    ReceivingFacility,
)
from fogcontrol.rules import devices as device_rules
from fogcontrol.servicing.querysets import (
    FrequencyRequestQuerySet,
    LitigationHoldQuerySet,
    ManifestFlagQuerySet,
    ManifestImportQuerySet,
    ManifestQuerySet,
    ServiceRequirementQuerySet,
    SludgeReadingQuerySet,
)
from fogcontrol.servicing.retention_models import PurgeReport, PurgeReportItem, RetentionApproval

__all__ = [
    "DeviceServiceState",
    "PurgeReport",
    "PurgeReportItem",
    "RetentionApproval",
    "FrequencyChange",
    "FrequencyChangeRequest",
    "IdempotencyRecord",
    "LitigationHold",
    "Manifest",
    "ManifestAttachment",
    "ManifestFlag",
    "ManifestImport",
    "ManifestImportProblem",
    "ServiceRequirement",
    "SludgeReading",
]


class ManifestImport(models.Model):
    """One CSV upload of manifests, with its per-row outcome (the report)."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # Names who acted even when it was a job (no user), as audit entries do.
    uploaded_by_label = models.CharField(max_length=150, blank=True)
    hauler = models.ForeignKey(
        HaulerCompany, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    file = models.FileField(upload_to=RandomName("servicing/imports"))
    original_name = models.CharField(max_length=255)
    size_bytes = models.PositiveBigIntegerField(default=0)
    dry_run = models.BooleanField(default=False, help_text="Check every row and save nothing.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    rows_total = models.PositiveIntegerField(default=0)
    rows_accepted = models.PositiveIntegerField(default=0)
    rows_rejected = models.PositiveIntegerField(default=0)
    rows_flagged = models.PositiveIntegerField(default=0)
    report = models.FileField(upload_to=RandomName("servicing/import-reports"), blank=True)
    error = models.TextField(blank=True, help_text="Why the whole file was refused, if it was.")

    objects = ManifestImportQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"Import {self.pk}: {self.original_name}"

    @property
    def finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)


class ManifestImportProblem(models.Model):
    """A rejected row of an import and why (one row per problem)."""

    manifest_import = models.ForeignKey(ManifestImport, on_delete=models.CASCADE, related_name="problems")
    row_number = models.PositiveIntegerField(help_text="Line in the file; the header is line 1.")
    manifest_number = models.CharField(max_length=64, blank=True)
    field = models.CharField(max_length=64, blank=True)
    message = models.TextField()

    class Meta:
        ordering = ["row_number", "pk"]

    def __str__(self) -> str:
        return f"Row {self.row_number}: {self.message}"


class Manifest(CopyOfRecord):
    """A service manifest: one pump-out or service of a device, as the hauler or FSE submitted it.

    E7 (full pump-out, baffles cleaned, hauled off-site), F1 (submitted by the permittee or the
    servicer on its behalf), F5 (kept), F7 (a copy of record: never altered; a correction is a new
    manifest whose ``corrects`` names this one). Depths are measured before pumping (E3).
    """

    class Channel(models.TextChoices):
        PORTAL = "portal", _("Portal form")
        CSV = "csv", _("CSV upload")
        API = "api", _("API")

    channel = models.CharField(max_length=16, choices=Channel.choices)
    device = models.ForeignKey(GreaseControlDevice, on_delete=models.PROTECT, related_name="manifests")
    establishment = models.ForeignKey(
        FoodServiceEstablishment, null=True, blank=True, on_delete=models.PROTECT, related_name="manifests"
    )
    site_address = models.CharField(max_length=200, blank=True)
    hauler = models.ForeignKey(
        HaulerCompany, null=True, blank=True, on_delete=models.PROTECT, related_name="manifests"
    )
    hauler_name = models.CharField(max_length=200, blank=True)
    # F1, F7: whose manifest number this is. True when a user of the hauler company or Town staff
    # (staff entry is staff confirmation) stored it; False when an FSE or owner named its hauler,
    # or named no company. Only the hauler's own numbers are unique per hauler.
    hauler_attested = models.BooleanField(
        "manifest number confirmed by the hauler or staff",
        default=False,
        help_text="Stored by a user of the hauler company or by Town staff; not by the FSE or owner.",
    )
    driver_name = models.CharField(max_length=120, blank=True)
    vehicle = models.ForeignKey(
        HaulerVehicle, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    vehicle_plate = models.CharField(max_length=20, blank=True)
    manifest_number = models.CharField("manifest / ticket number", max_length=64)
    serviced_at = models.DateTimeField("date and time of service")
    service_date = models.DateField(db_index=True, help_text="The date of service in the Town's time zone.")
    full_pumpout = models.BooleanField(
        "fully pumped", help_text="All FOG, liquids and solids removed (E6, E7)."
    )
    baffles_cleaned = models.BooleanField(help_text="Baffles removed and cleaned; no caked-on FOG (E7).")
    fog_depth_in = models.DecimalField(
        "FOG depth before pumping (in)", max_digits=6, decimal_places=2, null=True, blank=True
    )
    solids_depth_in = models.DecimalField(
        "solids depth before pumping (in)", max_digits=6, decimal_places=2, null=True, blank=True
    )
    fill_ratio = models.DecimalField(max_digits=7, decimal_places=4, null=True, blank=True)
    gallons_removed = models.DecimalField(max_digits=9, decimal_places=1, null=True, blank=True)
    leak_observed = models.BooleanField(default=False)
    damaged_baffles = models.BooleanField(default=False)
    damaged_tees = models.BooleanField("damaged sanitary tees", default=False)
    condition_notes = models.TextField(blank=True)
    receiving_facility = models.ForeignKey(
        ReceivingFacility, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    delivered_on = models.DateField("delivered to the receiving facility", null=True, blank=True)
    certified_by_name = models.CharField("certified by (typed signature)", max_length=150)
    certification_version = models.CharField(max_length=32)
    # F7, issue 18: the words the signer was shown and certified, in their language (the text of
    # the version in English or Spanish; `certification_language` reads which).
    certification_text = models.TextField()
    corrects = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="corrections"
    )
    correction_reason = models.TextField(blank=True)
    withdrawn = models.BooleanField(
        default=False, help_text="A correction saying the corrected manifest should not have been filed."
    )
    source_import = models.ForeignKey(
        ManifestImport, null=True, blank=True, on_delete=models.PROTECT, related_name="manifests"
    )

    objects = ManifestQuerySet.as_manager()

    # Rows stored before servicing 0005 were hashed without it (fogcontrol.core.records).
    hash_fields_added_later = ("hauler_attested",)
    # The database lets a manifest be deleted only under a recorded RetentionApproval of this class
    # covering its service date, once F5's period has ended (fogcontrol.core.record_triggers).
    purge_record_class = "manifests"
    purge_record_date_sql = 'OLD."service_date"'

    class Meta:
        ordering = ["-serviced_at", "-pk"]
        constraints = [
            # F1, F7: a number is the hauler's once the hauler (or staff) files it; an FSE naming
            # its hauler can neither take a number first nor be blocked by one.
            models.UniqueConstraint(
                fields=["hauler", "manifest_number"],
                condition=models.Q(corrects__isnull=True, hauler_attested=True),
                name="manifest_number_unique_per_hauler",
            )
        ]
        indexes = [
            # A device's manifests newest first, ties by id: the order of its history (device_events,
            # the sweep's window per device) read off the index, not sorted; and the columns that
            # history reads, so that it is read from the index alone: a manifest row is about 1 KB
            # (its certification text), and fetching each from the table was half the window's
            # time, more as the table outgrows the cache (issue 16).
            models.Index(
                fields=[
                    "device",
                    "-serviced_at",
                    "-id",
                    "service_date",
                    "withdrawn",
                    "full_pumpout",
                    "fog_depth_in",
                    "solids_depth_in",
                ],
                name="manifest_device_history",
            ),
            models.Index(fields=["hauler", "-serviced_at"], name="manifest_hauler_time"),
            # The number checks (attested or not, corrections too) on every manifest stored.
            models.Index(fields=["hauler", "manifest_number"], name="manifest_hauler_number"),
            models.Index(fields=["vehicle", "serviced_at"], name="manifest_vehicle_time"),
            # The list's order (page and API): a page is read off the index, not sorted (issue 16).
            models.Index(fields=["-serviced_at", "-id"], name="manifest_list_order"),
        ]

    def __str__(self) -> str:
        return f"Manifest {self.manifest_number} ({self.service_date:%Y-%m-%d})"

    @property
    def certification_language(self) -> str:
        """Issue 18: the language of the certification as signed, read from the words kept (F7).

        Not a column: a field added to a keyed chain would leave every row signed before it
        unverifiable (only unkeyed rows are checked under older layouts, ``hash_layouts``). The
        words kept are the version's text in one language, which names it; the portal's raw
        submission also records the language posted."""
        from fogcontrol.servicing.certification import language_of

        return language_of(self.certification_version, self.certification_text)

    @property
    def fill_percent(self):
        return None if self.fill_ratio is None else self.fill_ratio * 100


class ManifestAttachment(CopyOfRecord):
    """A scanned ticket or photo sent with a manifest; its SHA-256 proves the file unchanged (F7)."""

    manifest = models.ForeignKey(Manifest, on_delete=models.PROTECT, related_name="attachments")
    file = models.FileField(upload_to=RandomName("servicing/manifests"))
    original_name = models.CharField(max_length=255)
    content_type = models.CharField(max_length=100)
    size_bytes = models.PositiveBigIntegerField()
    sha256 = models.CharField(max_length=64)

    # Purged with its manifest, under the approval covering the manifest's service date.
    purge_record_class = "manifests"
    purge_record_date_sql = (
        '(SELECT m."service_date" FROM "servicing_manifest" m WHERE m."id" = OLD."manifest_id")'
    )

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return self.original_name


class ManifestFlag(models.Model):
    """A fact on a manifest that is possible but suspicious: accepted, and put before staff."""

    class Review(models.TextChoices):
        OPEN = "open", _("To review")
        CLEARED = "cleared", _("Reviewed: no action")
        REFERRED = "referred", _("Referred for enforcement")

    manifest = models.ForeignKey(Manifest, on_delete=models.CASCADE, related_name="flags")
    code = models.CharField(max_length=48, db_index=True)
    provision = models.CharField(max_length=16)
    message = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    review = models.CharField(max_length=16, choices=Review.choices, default=Review.OPEN, db_index=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    review_note = models.TextField(blank=True)

    objects = ManifestFlagQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.code} on manifest {self.manifest_id}"


class SludgeReading(models.Model):
    """A FOG and solids depth reading without a pump-out: an inspection (D4, D8) or the
    permittee's own sludge-height monitoring (F3, F6, E9)."""

    class Source(models.TextChoices):
        INSPECTION = "inspection", _("Town inspection")
        SELF_MONITORING = "self_monitoring", _("Self-monitoring by the permittee")

    device = models.ForeignKey(GreaseControlDevice, on_delete=models.PROTECT, related_name="sludge_readings")
    taken_on = models.DateField()
    fog_depth_in = models.DecimalField(max_digits=6, decimal_places=2)
    solids_depth_in = models.DecimalField(max_digits=6, decimal_places=2)
    fill_ratio = models.DecimalField(max_digits=7, decimal_places=4, null=True, blank=True)
    source = models.CharField(max_length=24, choices=Source.choices)
    notes = models.TextField(blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)

    objects = SludgeReadingQuerySet.as_manager()

    class Meta:
        ordering = ["-taken_on", "-pk"]
        indexes = [models.Index(fields=["device", "-taken_on"], name="reading_device_day")]

    def __str__(self) -> str:
        return f"Reading {self.taken_on:%Y-%m-%d} on {self.device_id}"


class DeviceServiceState(models.Model):
    """Where each device stands, kept current in the same transaction as every manifest or reading
    (E1-E4, E6, E8), so lists are one query. The nightly sweep moves statuses that change with the
    date (due soon, overdue). Derived data: the manifests and readings are the record."""

    device = models.OneToOneField(
        GreaseControlDevice, primary_key=True, on_delete=models.CASCADE, related_name="service_state"
    )
    status = models.CharField(
        max_length=16,
        choices=[(s, s.replace("_", " ").capitalize()) for s in device_rules.DEVICE_STATUSES],
        default=device_rules.STATUS_NEVER_SERVICED,
        db_index=True,
    )
    status_on = models.DateField(help_text="The date the status was judged on.")
    last_service_on = models.DateField(null=True, blank=True)
    last_full_pumpout = models.DateField(null=True, blank=True)
    last_manifest = models.ForeignKey(
        Manifest, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    next_due = models.DateField(null=True, blank=True, db_index=True)
    frequency_days = models.PositiveSmallIntegerField()
    frequency_is_default = models.BooleanField(default=True)
    fill_ratio = models.DecimalField(max_digits=7, decimal_places=4, null=True, blank=True)
    fill_ratio_on = models.DateField(null=True, blank=True)
    recommended_frequency_days = models.PositiveSmallIntegerField(null=True, blank=True)
    recommendation_enough_data = models.BooleanField(default=False)
    immediate_service_required = models.BooleanField(default=False)
    interceptor_plans_required = models.BooleanField(default=False)
    e8_exception = models.CharField(
        max_length=40,
        blank=True,
        choices=[("", "None"), ("space", "Inadequate space"), ("slope", "Inadequate slope for gravity flow")],
        help_text="E8: why a trap that needs more frequent service need not become an interceptor.",
    )
    refreshed_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["next_due", "device_id"]

    def __str__(self) -> str:
        return f"{self.device_id}: {self.status}"

    @property
    def fill_percent(self):
        return None if self.fill_ratio is None else self.fill_ratio * 100


class FrequencyChangeRequest(models.Model):
    """An owner's written request to change the service frequency, with its data (E5, E9)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        GRANTED = "granted", _("Granted")
        REFUSED = "refused", _("Refused")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    device = models.ForeignKey(
        GreaseControlDevice, on_delete=models.PROTECT, related_name="frequency_requests"
    )
    requested_days = models.PositiveSmallIntegerField()
    current_days = models.PositiveSmallIntegerField()
    justification = models.TextField(help_text="The owner's case: accumulation data, practices (E5).")
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # Names who acted even when it was a job (no user), as audit entries do.
    submitted_by_label = models.CharField(max_length=150, blank=True)
    submitted_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING, db_index=True)
    assessment = models.JSONField(default=dict, help_text="The rules engine's E5 assessment when filed.")
    decision_assessment = models.JSONField(default=dict, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_note = models.TextField(blank=True)

    objects = FrequencyRequestQuerySet.as_manager()

    class Meta:
        ordering = ["-submitted_at", "-pk"]

    def __str__(self) -> str:
        return f"Request to service every {self.requested_days} days ({self.get_status_display()})"


class FrequencyChange(models.Model):
    """A change of a device's assigned service frequency (E1, E5, E6), effective no sooner than the
    B7 notice period after the permittee is told. Applied to the device on its effective date.

    The frequency belongs to the device (A2): this is the one record of a change, whoever proposed
    it and from whichever page. One change is pending per device (a database constraint); a new
    proposal withdraws the older one (`replaced_by`). The notices went to the responsible party
    (A2) and the permittees; the permits that state the device's frequency are revised with it.
    """

    class Source(models.TextChoices):
        STAFF = "staff", _("FOG Manager (E1)")
        REQUEST = "request", _("Owner's request (E5)")

    device = models.ForeignKey(
        GreaseControlDevice, on_delete=models.PROTECT, related_name="frequency_changes"
    )
    from_days = models.PositiveSmallIntegerField(null=True, blank=True)
    to_days = models.PositiveSmallIntegerField()
    source = models.CharField(max_length=16, choices=Source.choices, default=Source.STAFF)
    request = models.ForeignKey(
        FrequencyChangeRequest, null=True, blank=True, on_delete=models.PROTECT, related_name="changes"
    )
    reason = models.TextField()
    notice_date = models.DateField(help_text="The day the permittee was told (B7).")
    effective_on = models.DateField()
    explanation = models.JSONField(default=dict, help_text="How the effective date was computed (B7).")
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    applied_at = models.DateTimeField(null=True, blank=True)
    permit_modification_ref = models.CharField(
        max_length=64, blank=True, help_text="The permit modification that carries the change (B7), if any."
    )
    permit_modifications = models.ManyToManyField(
        "permits.PermitModification", blank=True, related_name="+",
        help_text="The modification of every permit that states the device's frequency (B7).",
    )  # fmt: skip
    notices = models.ManyToManyField(
        "permits.PermitNotice", blank=True, related_name="+",
        help_text="The notices sent: to the responsible party (A2) and the permittees (B7).",
    )  # fmt: skip
    # B7: a notice dated before the day it was recorded: the FOG Manager's reason and the mailing record.
    backdating_reason = models.TextField(blank=True)
    mailing_record = models.TextField(blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_reason = models.TextField(blank=True)
    replaced_by = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="replaces"
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["applied_at", "effective_on"], name="frequency_change_pending")]
        constraints = [
            models.UniqueConstraint(
                fields=["device"],
                condition=models.Q(applied_at__isnull=True, withdrawn_at__isnull=True),
                name="frequency_change_one_pending_per_device",
                violation_error_message="A change of frequency is already pending for this device (B7).",
            )
        ]

    def __str__(self) -> str:
        return f"{self.device_id}: every {self.to_days} days from {self.effective_on:%Y-%m-%d}"

    @property
    def status(self) -> str:
        if self.withdrawn_at:
            return "withdrawn"
        return "applied" if self.applied_at else "pending"


class ServiceRequirement(models.Model):
    """Something a reading or manifest requires (E6, E8): an immediate pump-out, a frequency
    review for the FOG Manager, or grease interceptor plans."""

    class Kind(models.TextChoices):
        IMMEDIATE_SERVICE = "immediate_service", _("Immediate service (E6)")
        FREQUENCY_REVIEW = "frequency_review", _("Frequency review by the FOG Manager (E6)")
        INTERCEPTOR_PLANS = "interceptor_plans", _("Grease interceptor plans (E8)")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        MET = "met", _("Met")
        CLOSED = "closed", _("Closed")

    PROVISIONS = {Kind.IMMEDIATE_SERVICE: "E6", Kind.FREQUENCY_REVIEW: "E6", Kind.INTERCEPTOR_PLANS: "E8"}

    device = models.ForeignKey(
        GreaseControlDevice, on_delete=models.PROTECT, related_name="service_requirements"
    )
    kind = models.CharField(max_length=24, choices=Kind.choices)
    provision = models.CharField(max_length=16)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True)
    opened_on = models.DateField()
    opened_at = models.DateTimeField(auto_now_add=True)
    due_on = models.DateField(null=True, blank=True)
    opened_by_manifest = models.ForeignKey(
        Manifest, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    opened_by_reading = models.ForeignKey(
        SludgeReading, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    proposed_frequency_days = models.PositiveSmallIntegerField(null=True, blank=True)
    proposed_effective_on = models.DateField(null=True, blank=True)
    explanation = models.JSONField(default=dict)
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by_manifest = models.ForeignKey(
        Manifest, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    close_note = models.TextField(blank=True)

    objects = ServiceRequirementQuerySet.as_manager()

    class Meta:
        ordering = ["-opened_on", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for device {self.device_id}"


class LitigationHold(models.Model):
    """Keeps a device's records past their F5 retention until released."""

    device = models.ForeignKey(GreaseControlDevice, on_delete=models.PROTECT, related_name="litigation_holds")
    reason = models.TextField()
    placed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # Names who acted even when it was a job (no user), as audit entries do.
    placed_by_label = models.CharField(max_length=150, blank=True)
    placed_at = models.DateTimeField(auto_now_add=True)
    released_at = models.DateTimeField(null=True, blank=True)

    objects = LitigationHoldQuerySet.as_manager()

    class Meta:
        ordering = ["-placed_at"]

    def __str__(self) -> str:
        return f"Hold on {self.device_id}: {self.reason[:40]}"


class IdempotencyRecord(models.Model):
    """The first answer to an API request sent with an ``Idempotency-Key``: a retry gets it back."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=200)
    fingerprint = models.CharField(max_length=64, help_text="SHA-256 of the method, path and body.")
    response_status = models.PositiveSmallIntegerField()
    response_body = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_unique_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.key} ({self.response_status})"
