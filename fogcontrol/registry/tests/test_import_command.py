"""`fogcontrol import_licences FILE [--mapping JSON] [--apply]`."""

import json

import pytest
from django.core.management import CommandError, call_command

from fogcontrol.audit.models import AuditEntry
from fogcontrol.registry.imports.testing import HEADER, csv_bytes
from fogcontrol.registry.models import FoodServiceEstablishment, LicenceImport

pytestmark = pytest.mark.django_db


@pytest.fixture
def export(tmp_path):
    path = tmp_path / "licences.csv"
    path.write_bytes(
        csv_bytes(
            [
                HEADER,
                ["CL-1", "Blue Plate Diner", "120 Main St", "6/30/2027", "", ""],
                ["CL-2", "Cedar Academy", "8416 N IH", "", "", ""],
                ["", "Nameless", "1 Main St", "", "", ""],
            ]
        )
    )
    return path


def test_the_command_dry_runs_by_default_and_prints_the_summary(export, capsys):
    call_command("import_licences", str(export))
    out = capsys.readouterr().out
    assert "DRY RUN (nothing changed): 3 rows" in out
    assert "Created: 1" in out and "Imported, but doubtful: 1" in out and "Rejected: 1" in out
    assert "row 4 rejected: No licence number" in out
    assert not FoodServiceEstablishment.objects.exists()
    assert LicenceImport.objects.get().status == "checked"


def test_the_command_applies_under_its_own_name_in_the_audit_trail(export, capsys):
    mapping = {
        "licence_number": "Licence No",
        "business_name": "Business Name",
        "site_address": "Site Address",
    }
    call_command("import_licences", str(export), "--mapping", json.dumps(mapping), "--apply")
    assert "APPLIED: 3 rows" in capsys.readouterr().out
    assert FoodServiceEstablishment.objects.count() == 2
    assert set(AuditEntry.objects.values_list("actor_label", flat=True)) == {"import_licences"}
    assert LicenceImport.objects.get().applied_by_label == "import_licences"


@pytest.mark.parametrize(
    "args, words",
    [
        (["--mapping", "{bad"], "not valid JSON"),
        (["--mapping", '{"business_name": "Business Name"}'], "licence number"),
    ],
)
def test_the_command_explains_bad_arguments(export, args, words):
    with pytest.raises(CommandError, match=words):
        call_command("import_licences", str(export), *args)


def test_the_command_refuses_a_missing_or_wrong_file(tmp_path):
    with pytest.raises(CommandError, match="is not a file"):
        call_command("import_licences", str(tmp_path / "nope.csv"))
    pdf = tmp_path / "x.pdf"
    pdf.write_bytes(b"%PDF-1.4")
    with pytest.raises(CommandError, match="not a CSV or XLSX"):
        call_command("import_licences", str(pdf))
