"""FOG permit applications: what the applicant tells the Town, and the review of it (B3-B5, B8).

An application is a draft until it is submitted, once. From then on what was submitted is a copy of
record (`submitted_copy`, with who and when and a SHA-256 digest) that nothing changes; the review
adds to the application (messages, documents, decisions) but never rewrites what was submitted.
Writes go through fogcontrol.permits.services, which check the state transitions and audit them.
"""

from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.concurrency import Versioned
from fogcontrol.core.files import RandomName
from fogcontrol.core.models import CopyOfRecord
from fogcontrol.permits.querysets import ApplicationQuerySet
from fogcontrol.registry.models import GreaseControlDevice


class ApplicationKind(models.TextChoices):
    NEW = "new", _("New FOG permit")
    RENEWAL = "renewal", _("Annual renewal (B6)")
    CHANGE = "change", _("New permit on change of ownership, food types or operations (B8)")


class ApplicationRoute(models.TextChoices):
    FULL = "full", _("Full application (B3)")
    IN_LIEU = "in_lieu", _("Building and Safety documents in lieu of the application (B4)")


class ApplicationStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    SUBMITTED = "submitted", _("Submitted")
    UNDER_REVIEW = "under_review", _("Under review")
    INFORMATION_REQUESTED = "information_requested", _("Information requested")
    ACCEPTED = "accepted", _("Accepted (B5)")
    INSPECTION_SCHEDULED = "inspection_scheduled", _("On-site inspection scheduled")
    ISSUED = "issued", _("Permit issued")
    REJECTED = "rejected", _("Rejected")
    WITHDRAWN = "withdrawn", _("Withdrawn")


class ChangeReason(models.TextChoices):
    """B8: the changes that need a new application, fee and permit."""

    OWNERSHIP = "ownership", _("Change of ownership")
    FOOD_TYPES = "food_types", _("Change of food types")
    OPERATIONS = "operations", _("Change of operational procedures that may increase FOG")


class PermitApplication(Versioned):
    """An application for a FOG permit (B3), or the Building and Safety documents in lieu (B4).

    Kinds: a new permit, the annual renewal of a permit (B6), or a new permit on a B8 change. The
    review follows B5: evaluation and acceptance, an optional on-site inspection, then issuance by
    the FOG Manager.
    """

    reference = models.CharField(max_length=20, unique=True, null=True, blank=True, editable=False)
    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment", on_delete=models.PROTECT, related_name="permit_applications"
    )
    kind = models.CharField(max_length=16, choices=ApplicationKind.choices, default=ApplicationKind.NEW)
    route = models.CharField(max_length=16, choices=ApplicationRoute.choices, default=ApplicationRoute.FULL)
    status = models.CharField(
        max_length=32, choices=ApplicationStatus.choices, default=ApplicationStatus.DRAFT, db_index=True
    )
    # The permit renewed (B6) or to be replaced (B8).
    previous_permit = models.ForeignKey(
        "permits.Permit",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="follow_on_applications",
    )
    change_reasons = models.JSONField(
        default=list, blank=True, help_text="B8: what changed (ownership, food types, operations)."
    )
    change_description = models.TextField(blank=True)

    # B3: the applicant and the operation.
    applicant_name = models.CharField(max_length=200, blank=True)
    applicant_address = models.TextField(blank=True)
    applicant_phone = models.CharField(max_length=40, blank=True)
    applicant_email = models.EmailField(blank=True)
    wastewater_volume_gpd = models.PositiveIntegerField(
        "wastewater volume (gallons per day)", null=True, blank=True
    )
    wastewater_type = models.CharField(
        "type of wastewater",
        max_length=300,
        blank=True,
        help_text="e.g. dishwashing, food preparation, mopping",
    )
    food_preparation_hours = models.CharField(
        "daily food preparation times", max_length=100, blank=True, help_text="e.g. 06:00-14:00"
    )
    cleaning_hours = models.CharField(
        "daily cleaning times", max_length=100, blank=True, help_text="e.g. 21:00-22:30"
    )
    food_preparation_description = models.TextField("description of food preparation", blank=True)
    food_types = models.CharField(max_length=300, blank=True)
    meals_per_day = models.PositiveIntegerField("meals served per day", null=True, blank=True)
    clean_up_procedures = models.TextField(blank=True)
    dining_capacity = models.PositiveIntegerField("dining room capacity (seats)", null=True, blank=True)
    employees = models.PositiveIntegerField("number of employees", null=True, blank=True)
    kitchen_size_sqft = models.PositiveIntegerField("kitchen size (sq ft)", null=True, blank=True)

    # The grease control device serving the FSE: a registered device, or as the applicant describes it.
    device = models.ForeignKey(
        "registry.GreaseControlDevice",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="permit_applications",
    )
    device_kind = models.CharField(max_length=32, choices=GreaseControlDevice.Kind.choices, blank=True)
    device_capacity_gallons = models.PositiveIntegerField(null=True, blank=True)
    device_rated_flow_gpm = models.PositiveIntegerField("device rated flow (gpm)", null=True, blank=True)
    # A4 (CPC 1014.3.6): where the fixtures' drainage fixture units are unknown, the interceptor is
    # sized by the most its inlet pipe may carry (CPC Table 703.2).
    inlet_pipe_size_in = models.DecimalField(
        "interceptor inlet pipe size (in)",
        max_digits=4,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("0.01"))],
        help_text="Only if the fixtures' drainage fixture units are unknown, e.g. 4 or 2.5 (CPC Table 703.2).",
    )

    # B4: the Building and Safety permit confirming a CPC-compliant device is installed.
    building_permit_number = models.CharField(max_length=64, blank=True)

    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    # The copy of record, written once at submission.
    submitted_at = models.DateTimeField(null=True, blank=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    submitted_by_label = models.CharField(max_length=150, blank=True)
    submitted_copy = models.JSONField(null=True, blank=True, editable=False)
    submitted_digest = models.CharField(max_length=64, blank=True, editable=False)

    # B5: review, inspection and decision.
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    accepted_at = models.DateTimeField(null=True, blank=True)
    inspection_scheduled_for = models.DateTimeField(null=True, blank=True)
    inspector = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    inspected_on = models.DateField(null=True, blank=True)
    inspection_passed = models.BooleanField(null=True, blank=True)
    inspection_notes = models.TextField(blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True, help_text="Why the application was rejected or withdrawn.")
    permit = models.ForeignKey(
        "permits.Permit", null=True, blank=True, on_delete=models.PROTECT, related_name="issuing_applications"
    )

    objects = ApplicationQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.reference or 'Application'} — {self.get_kind_display()}"

    @property
    def is_draft(self) -> bool:
        return self.status == ApplicationStatus.DRAFT

    @property
    def is_open(self) -> bool:
        return self.status not in CLOSED_APPLICATION_STATUSES


CLOSED_APPLICATION_STATUSES = frozenset(
    {ApplicationStatus.ISSUED, ApplicationStatus.REJECTED, ApplicationStatus.WITHDRAWN}
)


class FixtureKind(models.TextChoices):
    """Kitchen plumbing fixtures and appliances (B3); DFU values are ruleset data (CPC Table 702.1)."""

    SINK_THREE = "sink_three_compartment", _("Three-compartment sink")
    SINK_TWO = "sink_two_compartment", _("Two-compartment sink")
    SINK_ONE = "sink_one_compartment", _("Food preparation sink (one compartment)")
    HAND_SINK = "hand_sink", _("Hand sink")
    BAR_SINK = "bar_sink", _("Bar sink")
    MOP_SINK = "mop_sink", _("Mop sink / service basin")
    FLOOR_DRAIN = "floor_drain", _("Floor drain")
    FLOOR_SINK = "floor_sink", _("Floor sink")
    DISHWASHER = "dishwasher", _("Dishwasher")
    FOOD_GRINDER = "food_grinder", _("Food grinder / garbage disposal")
    STEAM_KETTLE = "steam_kettle", _("Steam kettle")
    TILT_SKILLET = "tilt_skillet", _("Tilt skillet / braising pan")
    COMBI_OVEN = "combi_oven", _("Combination oven (drained)")
    WOK_RANGE = "wok_range", _("Wok range (water-cooled)")
    FRYER = "fryer", _("Fryer")
    RANGE = "range", _("Range, griddle or grill")
    OVEN = "oven", _("Oven")
    OTHER = "other", _("Other appliance or fixture")


# Indirect-waste receptors: sized by the fixtures that drain into them, never counted on top (CPC
# Table 702.1 note 1, A4).
INDIRECT_WASTE_RECEPTOR_KINDS = frozenset({FixtureKind.FLOOR_SINK})
# Appliances with no drain connection: no drainage load (A4).
NO_DRAIN_KINDS = frozenset({FixtureKind.FRYER, FixtureKind.RANGE, FixtureKind.OVEN})

# Sinks: the kinds whose compartments are measured for grease trap sizing (A5).
SINK_KINDS = frozenset(
    {
        FixtureKind.SINK_THREE,
        FixtureKind.SINK_TWO,
        FixtureKind.SINK_ONE,
        FixtureKind.HAND_SINK,
        FixtureKind.BAR_SINK,
        FixtureKind.MOP_SINK,
    }
)


class ApplicationFixture(models.Model):
    """One line of the B3 list of kitchen appliances and plumbing fixtures.

    `count` fixtures of one kind; for sinks, the compartments of each and their inside dimensions,
    from which the CPC grease trap size is worked out (A5). `drains_to_device` says whether the
    fixture drains to the grease control device (only those count for sizing, A4). `flow_gpm`, for
    an appliance with no DFU value, adds its flow x 30 minutes to the interceptor (CPC Table
    1014.3.6 note 3).
    """

    application = models.ForeignKey(PermitApplication, on_delete=models.CASCADE, related_name="fixtures")
    kind = models.CharField(max_length=32, choices=FixtureKind.choices)
    description = models.CharField(max_length=200, blank=True)
    count = models.PositiveSmallIntegerField(default=1, validators=[MinValueValidator(1)])
    compartments = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1)], help_text="Sinks: compartments per sink."
    )
    compartment_length_in = models.DecimalField(
        max_digits=6, decimal_places=2, null=True, blank=True, validators=[MinValueValidator(Decimal("0.01"))]
    )
    compartment_width_in = models.DecimalField(
        max_digits=6, decimal_places=2, null=True, blank=True, validators=[MinValueValidator(Decimal("0.01"))]
    )
    compartment_depth_in = models.DecimalField(
        max_digits=6, decimal_places=2, null=True, blank=True, validators=[MinValueValidator(Decimal("0.01"))]
    )
    drains_to_device = models.BooleanField(default=True)
    # A4 (CPC Table 1014.3.6 note 3): an appliance with no DFU value adds its flow x 30 minutes.
    flow_gpm = models.DecimalField(
        "flow (gpm)",
        max_digits=6,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("0.01"))],
        help_text="Appliances with no drainage fixture unit value: their discharge in gallons per minute.",
    )

    class Meta:
        ordering = ["application", "pk"]

    def __str__(self) -> str:
        return f"{self.count} x {self.get_kind_display()}"

    @property
    def is_sink(self) -> bool:
        return self.kind in SINK_KINDS

    @property
    def is_receptor(self) -> bool:
        return self.kind in INDIRECT_WASTE_RECEPTOR_KINDS

    @property
    def has_drain(self) -> bool:
        return self.kind not in NO_DRAIN_KINDS

    @property
    def has_dimensions(self) -> bool:
        return None not in (self.compartment_length_in, self.compartment_width_in, self.compartment_depth_in)


class ApplicationDocument(models.Model):
    """A file attached to an application: Building and Safety permits (B4), plans, answers (B3)."""

    class Kind(models.TextChoices):
        BUILDING_PERMIT = "building_permit", _("Building and Safety permit or approval (B4)")
        PLANS = "plans", _("Plans or drawings")
        INFORMATION = "information", _("Information the FOG Manager asked for")
        OTHER = "other", _("Other")

    application = models.ForeignKey(PermitApplication, on_delete=models.CASCADE, related_name="documents")
    kind = models.CharField(max_length=32, choices=Kind.choices, default=Kind.OTHER)
    file = models.FileField(upload_to=RandomName("permits/applications"))
    original_name = models.CharField(max_length=255)
    content_type = models.CharField(max_length=100)
    size_bytes = models.PositiveBigIntegerField()
    sha256 = models.CharField(max_length=64)
    uploaded_at = models.DateTimeField(auto_now_add=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["uploaded_at", "pk"]

    def __str__(self) -> str:
        return self.original_name


class ApplicationMessage(models.Model):
    """The thread of an application: the FOG Manager's requests for information and the answers (B3).

    Messages are kept as written: never edited or deleted.
    """

    class Kind(models.TextChoices):
        REQUEST = "request", _("Request for information")
        RESPONSE = "response", _("Applicant's answer")
        NOTE = "note", _("Note")

    application = models.ForeignKey(PermitApplication, on_delete=models.CASCADE, related_name="messages")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    body = models.TextField()
    at = models.DateTimeField(auto_now_add=True)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    author_label = models.CharField(max_length=150)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} by {self.author_label}"


class ApplicationSubmission(CopyOfRecord):
    """B3/B4: an application exactly as submitted, kept as a copy of record (F7): hash-chained,
    and refused any UPDATE or DELETE by database triggers. The application row itself goes on
    through review; this row never changes."""

    application = models.OneToOneField(PermitApplication, on_delete=models.PROTECT, related_name="record")

    class Meta:
        ordering = ["record_sequence"]

    def __str__(self) -> str:
        return f"Submission of {self.application} at {self.received_at:%Y-%m-%d %H:%M} UTC"
