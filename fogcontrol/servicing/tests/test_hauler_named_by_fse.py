"""Who may name which hauler on a manifest, and whose manifest numbers are unique (F1, F7).

An FSE or property owner names only a hauler on its establishment's list, or "self / other" (a
name that links to no company). A manifest number is unique per hauler only among the manifests
that hauler filed or Town staff confirmed: an FSE naming its hauler can neither take the hauler's
number first nor be blocked by it; a clash is flagged for staff instead. Through the API, the
portal and the CSV upload alike.
"""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.servicing.models import Manifest, ManifestFlag
from fogcontrol.servicing.services import manifest_correct, submission_from_manifest
from fogcontrol.servicing.tests.helpers import api_body, submit
from fogcontrol.servicing.tests.test_imports import row as csv_row
from fogcontrol.servicing.tests.test_imports import run
from fogcontrol.servicing.tests.test_pages import portal_post
from fogcontrol.testing import factories

MANIFESTS = "/api/v1/manifests/"
COASTAL = "Coastal Environmental Services"


@pytest.fixture
def coastal(town):
    """A registered hauler that is on no list of the FSE's, with a user of its own."""
    company = factories.HaulerCompanyFactory(name=COASTAL)
    company.users.add(factories.UserFactory(username="coastal", role=Role.HAULER))
    return company


def _coastal_user(coastal):
    return coastal.users.get()


def _login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- naming a hauler ---------------------------------------------------------------------------


@pytest.mark.provision("F1")
@pytest.mark.provision("F7")
def test_f1_f7_an_fse_naming_a_registered_hauler_off_its_list_is_refused_by_the_api(town, coastal):
    client = api_as(town.users[Role.FSE])
    response = client.post(MANIFESTS, api_body(town.own_device, hauler=COASTAL), format="json")
    assert response.status_code == 400, response.json()
    message = response.json()["hauler"][0]
    assert message.startswith(f"{COASTAL} is not on the hauler list of Blue Plate Diner")
    assert "the haulers on its list: Peninsula Pumping" in message
    assert "ask the FOG Manager to add your hauler to the establishment's hauler list" in message
    assert '"self / other"' in message
    by_id = client.post(MANIFESTS, api_body(town.own_device, hauler=str(coastal.pk)), format="json")
    assert by_id.status_code == 400 and "hauler" in by_id.json()
    assert Manifest.objects.count() == 0


@pytest.mark.provision("F1")
def test_f1_the_spoofed_hauler_reads_nothing_of_the_fse(town, coastal):
    api_as(town.users[Role.FSE]).post(
        MANIFESTS, api_body(town.own_device, hauler=COASTAL.upper()), format="json"
    )
    assert Manifest.objects.count() == 0
    assert api_as(_coastal_user(coastal)).get(MANIFESTS).json()["count"] == 0


@pytest.mark.provision("F1")
def test_f1_an_owner_names_only_a_hauler_on_the_lists_of_the_establishments_the_device_serves(town, coastal):
    owner = town.users[Role.PROPERTY_OWNER]
    client = api_as(owner)
    refused = client.post(MANIFESTS, api_body(town.shared_device, hauler=COASTAL), format="json")
    assert refused.status_code == 400
    assert "the hauler list of Plaza Pho, Plaza Pizza (device" in refused.json()["hauler"][0]
    assert "the haulers on its list: none yet" in refused.json()["hauler"][0]
    town.mall_fses[1].haulers.add(coastal)
    accepted = client.post(MANIFESTS, api_body(town.shared_device, hauler=COASTAL), format="json")
    assert accepted.status_code == 201, accepted.json()
    assert accepted.json()["hauler_attested"] is False


@pytest.mark.provision("F1")
def test_f1_an_fse_naming_its_listed_hauler_files_an_unconfirmed_manifest(town):
    response = api_as(town.users[Role.FSE]).post(
        MANIFESTS, api_body(town.own_device, hauler="peninsula pumping"), format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["hauler_id"] == town.hauler.pk and body["hauler_name"] == "Peninsula Pumping"
    assert body["hauler_attested"] is False
    assert Manifest.objects.get(pk=body["id"]).hauler_attested is False


@pytest.mark.provision("F1")
def test_f1_an_fse_that_did_the_work_itself_names_self_or_other_linked_to_no_company(town, coastal):
    response = api_as(town.users[Role.FSE]).post(
        MANIFESTS, api_body(town.own_device, hauler="Blue Plate kitchen crew"), format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["hauler_id"] is None and body["hauler_name"] == "Blue Plate kitchen crew"
    assert body["hauler_attested"] is False
    assert api_as(_coastal_user(coastal)).get(MANIFESTS).json()["count"] == 0
    assert api_as(town.users[Role.HAULER]).get(MANIFESTS).json()["count"] == 0


@pytest.mark.provision("F1")
def test_f1_staff_name_any_registered_hauler_and_a_hauler_only_its_own(town, coastal):
    staff = submit(town.users[Role.FOG_MANAGER], town.own_device, hauler=COASTAL)
    assert staff.hauler == coastal and staff.hauler_attested is True
    own = submit(town.users[Role.HAULER], town.own_device)
    assert own.hauler == town.hauler and own.hauler_attested is True
    with pytest.raises(ValidationError) as refused:
        submit(town.users[Role.HAULER], town.own_device, hauler=COASTAL)
    assert refused.value.message_dict["hauler"] == [
        f"You do not work for a hauler named {COASTAL}; name your own company."
    ]


# --- whose numbers are unique ------------------------------------------------------------------


@pytest.mark.provision("F1")
@pytest.mark.provision("F7")
def test_f1_f7_an_fse_cannot_take_its_haulers_manifest_number_first(town):
    fse = api_as(town.users[Role.FSE])
    hauler = api_as(town.users[Role.HAULER])
    first = fse.post(MANIFESTS, api_body(town.own_device, manifest_number="N-77", hauler="Peninsula Pumping"), format="json")  # fmt: skip
    assert first.status_code == 201, first.json()
    own = hauler.post(MANIFESTS, api_body(town.own_device, manifest_number="N-77"), format="json")
    assert own.status_code == 201, own.json()
    assert own.json()["hauler_attested"] is True
    again = hauler.post(MANIFESTS, api_body(town.own_device, manifest_number="N-77"), format="json")
    assert again.status_code == 400
    assert again.json()["manifest_number"] == [
        "Peninsula Pumping already submitted manifest N-77. To change it, submit a correction of that manifest."
    ]
    # The FSE's manifest is put before staff, naming the hauler's own.
    flag = ManifestFlag.objects.get(manifest_id=first.json()["id"], code="manifest_number_shared")
    assert (flag.provision, flag.review) == ("F7", "open")
    assert f"Peninsula Pumping has since filed its own manifest N-77 (#{own.json()['id']}" in flag.message
    assert not ManifestFlag.objects.filter(manifest_id=own.json()["id"], code="manifest_number_shared")


@pytest.mark.provision("F1")
@pytest.mark.provision("F7")
def test_f1_f7_an_fse_naming_a_number_the_hauler_filed_is_accepted_and_flagged(town):
    own = submit(town.users[Role.HAULER], town.own_device, manifest_number="N-5")
    response = api_as(town.users[Role.FSE]).post(
        MANIFESTS, api_body(town.own_device, manifest_number="N-5", hauler="Peninsula Pumping"), format="json"
    )
    assert response.status_code == 201, response.json()
    flags = {f["code"]: f for f in response.json()["flags"]}
    assert flags["manifest_number_shared"]["provision"] == "F7"
    assert (
        f"manifest N-5 is already on another manifest (#{own.pk}"
        in flags["manifest_number_shared"]["message"]
    )
    assert "filed by the hauler or confirmed by staff" in flags["manifest_number_shared"]["message"]


@pytest.mark.provision("F1")
@pytest.mark.provision("F7")
def test_f1_f7_staff_confirm_an_fse_manifest_by_correcting_it_and_the_number_becomes_the_haulers(town):
    filed = submit(town.users[Role.FSE], town.own_device, manifest_number="N-9", hauler=town.hauler)
    assert filed.hauler_attested is False
    confirmed = manifest_correct(
        manifest=filed,
        acting_user=town.users[Role.FOG_MANAGER],
        submission=submission_from_manifest(filed),
        reason="Confirmed with Peninsula Pumping by phone: their ticket N-9.",
        channel=Manifest.Channel.PORTAL,
    )
    assert confirmed.corrects == filed and confirmed.hauler_attested is True
    with pytest.raises(ValidationError) as refused:
        submit(town.users[Role.HAULER], town.own_device, manifest_number="N-9")
    assert (
        "Peninsula Pumping already submitted manifest N-9" in refused.value.message_dict["manifest_number"][0]
    )


@pytest.mark.provision("F7")
def test_f7_staff_confirming_a_number_the_hauler_already_filed_is_refused(town):
    filed = submit(town.users[Role.FSE], town.own_device, manifest_number="N-10", hauler=town.hauler)
    submit(town.users[Role.HAULER], town.own_device, manifest_number="N-10")
    with pytest.raises(ValidationError) as refused:
        manifest_correct(
            manifest=filed,
            acting_user=town.users[Role.FOG_MANAGER],
            submission=submission_from_manifest(filed),
            reason="Confirm.",
            channel=Manifest.Channel.API,
        )
    assert "already submitted manifest N-10" in refused.value.message_dict["manifest_number"][0]


@pytest.mark.provision("F1")
def test_f1_a_self_or_other_name_survives_a_correction(town):
    filed = submit(town.users[Role.FSE], town.own_device, hauler="Blue Plate kitchen crew")
    corrected = manifest_correct(
        manifest=filed,
        acting_user=town.users[Role.FSE],
        submission=submission_from_manifest(filed, condition_notes="Outlet tee cracked."),
        reason="Forgot the tee.",
        channel=Manifest.Channel.API,
    )
    assert corrected.hauler is None and corrected.hauler_name == "Blue Plate kitchen crew"


# --- the portal --------------------------------------------------------------------------------


@pytest.mark.provision("F1")
@pytest.mark.provision("F7")
def test_f1_f7_the_portal_offers_an_fse_only_its_listed_haulers_or_self_other(town, coastal):
    client = _login(town.users[Role.FSE])
    page = client.get("/servicing/manifests/new/").content.decode()
    assert "Peninsula Pumping" in page and COASTAL not in page
    assert "Self / other" in page
    picked = client.post("/servicing/manifests/new/", portal_post(town.own_device, hauler=coastal.pk))
    assert picked.status_code == 200 and "Select a valid choice" in picked.content.decode()
    typed = client.post("/servicing/manifests/new/", portal_post(town.own_device, hauler_other=COASTAL))
    assert typed.status_code == 200
    assert f"{COASTAL} is not on the hauler list of Blue Plate Diner" in typed.content.decode()
    assert Manifest.objects.count() == 0
    listed = client.post(
        "/servicing/manifests/new/",
        portal_post(town.own_device, hauler=town.hauler.pk, manifest_number="P-1"),
    )
    assert listed.status_code == 302
    other = client.post(
        "/servicing/manifests/new/",
        portal_post(town.own_device, hauler_other="Ourselves", manifest_number="P-2"),
    )
    assert other.status_code == 302
    stored = {m.manifest_number: m for m in Manifest.objects.all()}
    assert (stored["P-1"].hauler, stored["P-1"].hauler_attested) == (town.hauler, False)
    assert (stored["P-2"].hauler, stored["P-2"].hauler_name) == (None, "Ourselves")
    detail = client.get(f"/servicing/manifests/{stored['P-1'].pk}/").content.decode()
    assert "named by the FSE or owner, not confirmed by the hauler" in detail


@pytest.mark.provision("F7")
def test_f7_in_the_portal_the_hauler_files_the_number_an_fse_used_first(town):
    fse = _login(town.users[Role.FSE])
    hauler = _login(town.users[Role.HAULER])
    assert fse.post("/servicing/manifests/new/", portal_post(town.own_device, hauler=town.hauler.pk, manifest_number="P-77")).status_code == 302  # fmt: skip
    assert hauler.post("/servicing/manifests/new/", portal_post(town.own_device, manifest_number="P-77")).status_code == 302  # fmt: skip
    again = hauler.post("/servicing/manifests/new/", portal_post(town.own_device, manifest_number="P-77"))
    assert "Peninsula Pumping already submitted manifest P-77" in again.content.decode()
    assert Manifest.objects.filter(manifest_number="P-77").count() == 2


# --- the CSV upload ----------------------------------------------------------------------------


@pytest.mark.provision("F1")
@pytest.mark.provision("F7")
def test_f1_f7_a_csv_from_an_fse_names_only_listed_haulers_and_takes_no_hauler_number(town, coastal):
    record = run(
        town.users[Role.FSE],
        [
            csv_row(town.own_device, "C-1", hauler=COASTAL),
            csv_row(town.own_device, "C-2", hauler="Peninsula Pumping"),
            csv_row(town.own_device, "C-3", hauler="Ourselves"),
        ],
    )
    assert (record.rows_accepted, record.rows_rejected) == (2, 1)
    problem = record.problems.get()
    assert (problem.row_number, problem.field) == (2, "hauler")
    assert "is not on the hauler list" in problem.message
    stored = {m.manifest_number: m for m in Manifest.objects.all()}
    assert (stored["C-2"].hauler, stored["C-2"].hauler_attested) == (town.hauler, False)
    assert (stored["C-3"].hauler, stored["C-3"].hauler_name) == (None, "Ourselves")
    hauler_file = run(
        town.users[Role.HAULER], [csv_row(town.own_device, "C-2"), csv_row(town.own_device, "C-2")]
    )
    assert (hauler_file.rows_accepted, hauler_file.rows_rejected) == (1, 1)
    assert "already submitted manifest C-2" in hauler_file.problems.get().message
