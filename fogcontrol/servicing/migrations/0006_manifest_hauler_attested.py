"""F1, F7: a manifest number is the hauler's own only when the hauler (or Town staff) filed it.

``Manifest.hauler_attested`` records, when a manifest is stored, whether a user of the named hauler
company or Town staff stored it (True), or an FSE or owner named its hauler (False). The unique
constraint on (hauler, manifest_number) now holds only among attested originals, so an FSE can
neither take its hauler's number first nor be blocked by it.

Manifests are copies of record: database triggers refuse every UPDATE and DELETE
(fogcontrol.core.records). On SQLite, adding the column rebuilds the table, which drops the
triggers; on PostgreSQL they stay and would refuse the fill below. So, in this one transaction,
the triggers are dropped, the column added and filled for the rows already stored, the
constraint changed, and the triggers installed again.

The rows already stored were hashed without the column: ``Manifest.hash_fields_added_later`` names
it, and ``verify_chain`` checks those rows under the layout they were hashed with.
"""

from django.conf import settings
from django.db import migrations, models
from django.db.models import Exists, OuterRef, Q

from fogcontrol.core.records import ProtectCopyOfRecord, protection_sql, unprotection_sql

TABLE = "servicing_manifest"
# Frozen here (a migration must not follow later code): Town staff roles, and the hauler role,
# whose users could name only their own company (the rule since servicing 0001).
ATTESTING_ROLES = [
    "fog_manager",
    "inspector",
    "hearing_officer",
    "billing_clerk",
    "staff_readonly",
    "hauler",
]


def drop_triggers(apps, schema_editor):
    for statement in unprotection_sql(schema_editor.connection.vendor, TABLE):
        schema_editor.execute(statement, params=None)


def install_triggers(apps, schema_editor):
    for statement in protection_sql(schema_editor.connection.vendor, TABLE):
        schema_editor.execute(statement, params=None)


def fill_hauler_attested(apps, schema_editor):
    """True where a hauler is named and the sender was a user of that hauler, a hauler user (who
    could name only its own company), Town staff, or a job (no user: the program itself)."""
    Manifest = apps.get_model("servicing", "Manifest")
    HaulerCompany = apps.get_model("registry", "HaulerCompany")
    membership = HaulerCompany._meta.get_field("users").remote_field.through
    sender_works_for_hauler = membership.objects.filter(
        haulercompany_id=OuterRef("hauler_id"), user_id=OuterRef("submitted_by_id")
    )
    Manifest.objects.filter(hauler__isnull=False).filter(
        Q(submitted_by__isnull=True)
        | Q(submitted_by__is_superuser=True)
        | Q(submitted_by__role__in=ATTESTING_ROLES)
        | Exists(sender_works_for_hauler)
    ).update(hauler_attested=True)


class Migration(migrations.Migration):
    dependencies = [
        ("registry", "0002_licence_imports"),
        ("servicing", "0005_one_pending_frequency_change_and_retention_approvals"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(drop_triggers, install_triggers),
        migrations.RemoveConstraint(model_name="manifest", name="manifest_number_unique_per_hauler"),
        migrations.AddField(
            model_name="manifest",
            name="hauler_attested",
            field=models.BooleanField(
                default=False,
                help_text="Stored by a user of the hauler company or by Town staff; not by the FSE or owner.",
                verbose_name="manifest number confirmed by the hauler or staff",
            ),
        ),
        migrations.RunPython(fill_hauler_attested, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="manifest",
            constraint=models.UniqueConstraint(
                condition=models.Q(("corrects__isnull", True), ("hauler_attested", True)),
                fields=("hauler", "manifest_number"),
                name="manifest_number_unique_per_hauler",
            ),
        ),
        migrations.AddIndex(
            model_name="manifest",
            index=models.Index(fields=["hauler", "manifest_number"], name="manifest_hauler_number"),
        ),
        ProtectCopyOfRecord(TABLE),
    ]
