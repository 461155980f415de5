"""The registry the whole program hangs off: parcels, parties, establishments, devices, haulers.

Provisions A1-A5. Writes go through fogcontrol.registry.services, which audit every change.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.concurrency import Versioned
from fogcontrol.core.files import RandomName
from fogcontrol.core.languages import DEFAULT_LANGUAGE, Language
from fogcontrol.registry.querysets import (
    DeviceQuerySet,
    EstablishmentQuerySet,
    FacilityQuerySet,
    HaulerQuerySet,
    LicenceImportQuerySet,
    ParcelQuerySet,
    PartyQuerySet,
    VehicleQuerySet,
)


class Party(Versioned):
    """A person or organisation the program deals with: property owner, FSE operator, designee."""

    class Kind(models.TextChoices):
        PERSON = "person", _("Person")
        ORGANISATION = "organisation", _("Organisation")

    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.ORGANISATION)
    name = models.CharField(max_length=200)
    contact_name = models.CharField(
        max_length=200, blank=True, help_text="Who to ask for, for an organisation."
    )
    email = models.EmailField(blank=True)
    preferred_language = models.CharField(
        max_length=2,
        choices=Language.choices,
        default=DEFAULT_LANGUAGE,
        help_text="The language the program's e-mails and reminders are written in.",
    )
    phone = models.CharField(max_length=40, blank=True)
    # The mailing address for certified mail (L2, P5): kept in parts so letters print cleanly.
    mailing_address_line1 = models.CharField(max_length=200, blank=True)
    mailing_address_line2 = models.CharField(max_length=200, blank=True)
    mailing_city = models.CharField(max_length=100, blank=True)
    mailing_state = models.CharField(max_length=2, blank=True, default="CA")
    mailing_postal_code = models.CharField(max_length=10, blank=True)
    notes = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = PartyQuerySet.as_manager()

    class Meta:
        ordering = ["name", "pk"]
        verbose_name_plural = "parties"
        indexes = [models.Index(Lower("name"), name="party_name_lower")]

    def __str__(self) -> str:
        return self.name

    @property
    def mailing_address(self) -> str:
        city_line = " ".join(
            part
            for part in [
                f"{self.mailing_city}," if self.mailing_city else "",
                self.mailing_state,
                self.mailing_postal_code,
            ]
            if part
        )
        return "\n".join(
            line for line in [self.mailing_address_line1, self.mailing_address_line2, city_line] if line
        )


class Parcel(Versioned):
    """A parcel of land by assessor's parcel number, with its owner of record (A2)."""

    apn = models.CharField("assessor's parcel number", max_length=32, unique=True)
    situs_address = models.CharField(max_length=200)
    city = models.CharField(max_length=100, blank=True)
    postal_code = models.CharField(max_length=10, blank=True)
    owner = models.ForeignKey(
        Party, null=True, blank=True, on_delete=models.PROTECT, related_name="owned_parcels"
    )
    # A2: the owner's official designee receives installation and maintenance notices when named.
    owner_designee = models.ForeignKey(
        Party, null=True, blank=True, on_delete=models.PROTECT, related_name="designated_parcels"
    )
    owner_users = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="owned_parcels")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = ParcelQuerySet.as_manager()

    class Meta:
        ordering = ["apn"]

    def __str__(self) -> str:
        return f"{self.apn} — {self.situs_address}"


class HaulerCompany(Versioned):
    """A grease hauler: the company that pumps devices and submits manifests."""

    name = models.CharField(max_length=200, unique=True)
    state_registration_number = models.CharField(
        max_length=64, blank=True, help_text="California liquid waste hauler registration."
    )
    licence_number = models.CharField(max_length=64, blank=True)
    phone = models.CharField(max_length=40, blank=True)
    email = models.EmailField(blank=True)
    address = models.TextField(blank=True)
    active = models.BooleanField(default=True)
    users = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="hauler_companies")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = HaulerQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "hauler companies"

    def __str__(self) -> str:
        return self.name


class HaulerVehicle(Versioned):
    hauler = models.ForeignKey(HaulerCompany, on_delete=models.CASCADE, related_name="vehicles")
    plate = models.CharField(max_length=20)
    description = models.CharField(max_length=200, blank=True)
    tank_capacity_gallons = models.PositiveIntegerField(null=True, blank=True)
    active = models.BooleanField(default=True)

    objects = VehicleQuerySet.as_manager()

    class Meta:
        ordering = ["hauler", "plate"]
        constraints = [
            models.UniqueConstraint(fields=["hauler", "plate"], name="vehicle_plate_unique_per_hauler")
        ]

    def __str__(self) -> str:
        return f"{self.plate} ({self.hauler})"


class ReceivingFacility(models.Model):
    """Where hauled FOG is delivered: a rendering plant, digester or disposal site (E7, F5)."""

    name = models.CharField(max_length=200, unique=True)
    address = models.TextField(blank=True)
    permit_number = models.CharField(max_length=64, blank=True)
    active = models.BooleanField(default=True)

    objects = FacilityQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "receiving facilities"

    def __str__(self) -> str:
        return self.name


class FoodServiceEstablishment(Versioned):
    """An FSE, known by its business name and licence as in the business licence records (A1)."""

    class Category(models.TextChoices):
        FULL_SERVICE = "full_service", _("Full-service restaurant")
        QUICK_SERVICE = "quick_service", _("Quick-service / fast food")
        CAFE_BAKERY = "cafe_bakery", _("Café or bakery")
        BAR = "bar", _("Bar or brewpub")
        CATERER = "caterer", _("Caterer or commissary")
        INSTITUTIONAL = "institutional", _("Institutional kitchen (school, hospital, care home)")
        GROCERY = "grocery", _("Grocery, deli or market")
        OTHER = "other", _("Other")

    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        CLOSED = "closed", _("Closed")

    business_name = models.CharField(
        max_length=200, help_text="Exactly as in the business licence records (A1)."
    )
    licence_number = models.CharField("business licence number", max_length=64, unique=True)
    licence_expires_on = models.DateField("business licence expires", null=True, blank=True)
    site_address = models.CharField(max_length=200)
    parcel = models.ForeignKey(
        Parcel, null=True, blank=True, on_delete=models.PROTECT, related_name="establishments"
    )
    operator = models.ForeignKey(
        Party, null=True, blank=True, on_delete=models.PROTECT, related_name="operated_establishments"
    )
    contact = models.ForeignKey(
        Party, null=True, blank=True, on_delete=models.PROTECT, related_name="contact_for_establishments"
    )
    category = models.CharField(max_length=32, choices=Category.choices, default=Category.FULL_SERVICE)
    food_types = models.CharField(max_length=300, blank=True)
    meals_per_day = models.PositiveIntegerField(null=True, blank=True)
    dining_capacity = models.PositiveIntegerField(null=True, blank=True)
    employees = models.PositiveIntegerField(null=True, blank=True)
    kitchen_size_sqft = models.PositiveIntegerField("kitchen size (sq ft)", null=True, blank=True)
    food_preparation_hours = models.CharField(max_length=100, blank=True, help_text="e.g. 06:00-14:00")
    cleaning_hours = models.CharField(max_length=100, blank=True, help_text="e.g. 21:00-22:30")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE, db_index=True)
    closed_on = models.DateField(null=True, blank=True)
    latitude = models.DecimalField(
        max_digits=9,
        decimal_places=6,
        null=True,
        blank=True,
        validators=[MinValueValidator(-90), MaxValueValidator(90)],
    )
    longitude = models.DecimalField(
        max_digits=9,
        decimal_places=6,
        null=True,
        blank=True,
        validators=[MinValueValidator(-180), MaxValueValidator(180)],
    )
    users = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="establishments")
    # The haulers this FSE has engaged: their users may see it and submit its manifests.
    haulers = models.ManyToManyField(HaulerCompany, blank=True, related_name="customers")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = EstablishmentQuerySet.as_manager()

    class Meta:
        ordering = ["business_name", "pk"]
        verbose_name = "food service establishment"
        indexes = [
            models.Index(Lower("business_name"), name="fse_business_name_lower"),
            # The list's order (pages and API): a page is read off the index, not sorted (issue 16).
            models.Index(fields=["business_name", "id"], name="fse_list_order"),
        ]

    def __str__(self) -> str:
        return self.business_name


class GreaseControlDevice(Versioned):
    """A grease interceptor or grease trap (A3-A5), serving one or more FSEs.

    A device that breaks A4 is stored with its flags rather than refused: real towns have such
    devices, and the flag is what drives enforcement. `a4_flags` is kept current by the services.
    """

    class Kind(models.TextChoices):
        GRAVITY_INTERCEPTOR = "gravity_interceptor", _("Gravity grease interceptor")
        HYDROMECHANICAL = "hydromechanical_interceptor", _("Hydromechanical interceptor / grease trap")
        OTHER = "other", _("Other approved device")

    class Status(models.TextChoices):
        ACTIVE = "active", _("In service")
        REMOVED = "removed", _("Removed")

    identifier = models.CharField(
        max_length=32, unique=True, help_text="The Town's device number, e.g. GI-00042."
    )
    kind = models.CharField(max_length=32, choices=Kind.choices)
    capacity_gallons = models.PositiveIntegerField(null=True, blank=True)
    rated_flow_gpm = models.PositiveIntegerField("rated flow (gpm)", null=True, blank=True)
    total_design_depth_in = models.DecimalField(
        "total design hydraulic depth (in)",
        max_digits=6,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(0)],
        help_text="Needed by the 25% rule (E3).",
    )
    compartments = models.PositiveSmallIntegerField(null=True, blank=True)
    manhole_diameter_in = models.DecimalField(
        "access manhole diameter (in)", max_digits=5, decimal_places=1, null=True, blank=True
    )
    location_description = models.CharField(max_length=300, blank=True)
    access_notes = models.TextField(blank=True)
    installed_on = models.DateField(null=True, blank=True)
    building_permit_number = models.CharField(max_length=64, blank=True)
    parcel = models.ForeignKey(
        Parcel, null=True, blank=True, on_delete=models.PROTECT, related_name="devices"
    )
    establishments = models.ManyToManyField(FoodServiceEstablishment, blank=True, related_name="devices")
    # E1: the frequency the FOG Manager assigned; empty means the E2 default for the kind.
    assigned_frequency_days = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE, db_index=True)
    a4_flags = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = DeviceQuerySet.as_manager()

    class Meta:
        ordering = ["identifier"]
        verbose_name = "grease control device"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(total_design_depth_in__isnull=True)
                | models.Q(total_design_depth_in__gt=0),
                name="device_depth_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.identifier} ({self.get_kind_display()})"


class SharedDevice(models.Model):
    """A device that serves more than one FSE (A2): one row per such device, kept by database
    triggers on the device-FSE links (``fogcontrol.registry.shared_links``), so that the shared
    devices are found and counted without reading every link (issue 16). Never written by Django."""

    device = models.OneToOneField(
        GreaseControlDevice, primary_key=True, on_delete=models.CASCADE, related_name="+"
    )

    class Meta:
        verbose_name = "shared device"

    def __str__(self) -> str:
        return f"{self.device_id} (shared)"


class LicenceImport(models.Model):
    """One upload of the Town's business licence records (A1), kept with its mapping and report.

    The file is kept as uploaded. A dry run computes the full report without changing the
    registry; applying runs it for real through the registry services (audited). Both reports
    are kept (rows tagged `applied`), so staff can show what an import did and why.
    """

    class Status(models.TextChoices):
        MAPPING = "mapping", _("Waiting for the column mapping")
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        CHECKED = "checked", _("Dry run finished: ready to apply")
        APPLIED = "applied", _("Applied to the registry")
        FAILED = "failed", _("Failed")

    class FileFormat(models.TextChoices):
        CSV = "csv", _("CSV")
        XLSX = "xlsx", _("Excel (XLSX)")

    file = models.FileField(upload_to=RandomName("imports/licences"))
    original_filename = models.CharField(max_length=255)
    file_format = models.CharField(max_length=8, choices=FileFormat.choices)
    file_size = models.PositiveBigIntegerField(default=0)
    encoding = models.CharField(max_length=32, blank=True, help_text="CSV only: the detected text encoding.")
    delimiter = models.CharField(max_length=4, blank=True, help_text="CSV only: the detected delimiter.")
    headers = models.JSONField(default=list, blank=True)
    # {field name: file column header}; see fogcontrol.registry.imports.mapping.FIELDS.
    mapping = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.MAPPING, db_index=True)
    # True while the current run (queued or running) is a dry run.
    running_dry = models.BooleanField(default=True)
    rows_read = models.PositiveIntegerField(default=0, help_text="Progress of the current run.")
    dry_run_counts = models.JSONField(default=dict, blank=True)
    applied_counts = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    uploaded_by_label = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    dry_run_at = models.DateTimeField(null=True, blank=True)
    applied_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    applied_by_label = models.CharField(max_length=150, blank=True)
    applied_at = models.DateTimeField(null=True, blank=True)

    objects = LicenceImportQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"Licence import {self.pk}: {self.original_filename}"

    @property
    def is_running(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)

    @property
    def counts(self) -> dict:
        """The counts of the latest report: the applied one once applied."""
        return self.applied_counts if self.status == self.Status.APPLIED else self.dry_run_counts

    @property
    def report_is_applied(self) -> bool:
        return self.status == self.Status.APPLIED


class LicenceImportRow(models.Model):
    """What an import did (or would do) with one row of the file, and why.

    Every input row has one, in the dry-run report and again in the applied report.
    A doubtful row was imported but needs a look; `effect` says what was done with it.
    """

    class Outcome(models.TextChoices):
        CREATED = "created", _("Created")
        UPDATED = "updated", _("Updated")
        UNCHANGED = "unchanged", _("Unchanged")
        DOUBTFUL = "doubtful", _("Imported, but doubtful")
        REJECTED = "rejected", _("Rejected")

    class Effect(models.TextChoices):
        CREATED = "created", _("Created")
        UPDATED = "updated", _("Updated")
        UNCHANGED = "unchanged", _("Unchanged")
        COUNTED_ONCE = "counted_once", _("Duplicate: counted once")
        NONE = "none", _("Nothing imported")

    licence_import = models.ForeignKey(LicenceImport, on_delete=models.CASCADE, related_name="rows")
    applied = models.BooleanField(default=False, help_text="False: a dry-run row; True: the applied run.")
    row_number = models.PositiveIntegerField(help_text="As a spreadsheet shows it: the header is row 1.")
    outcome = models.CharField(max_length=16, choices=Outcome.choices, db_index=True)
    effect = models.CharField(max_length=16, choices=Effect.choices)
    licence_number = models.CharField(max_length=64, blank=True)
    business_name = models.CharField(max_length=200, blank=True)
    establishment = models.ForeignKey(
        FoodServiceEstablishment, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    changed_fields = models.JSONField(default=list, blank=True)
    # [{"code": "...", "message": "..."}]: why a row was rejected or doubtful.
    reasons = models.JSONField(default=list, blank=True)
    raw = models.JSONField(default=dict, blank=True, help_text="The row as read, column by column.")

    class Meta:
        ordering = ["licence_import", "applied", "row_number"]
        indexes = [models.Index(fields=["licence_import", "applied", "outcome", "row_number"])]

    def __str__(self) -> str:
        return f"Row {self.row_number}: {self.outcome}"

    @property
    def reason_text(self) -> str:
        return "; ".join(reason["message"] for reason in self.reasons)
