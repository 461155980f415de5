"""Journey 1 (issue 18): a restaurant owner, in Spanish, applies for a FOG permit on a phone
(390 x 844): the login page in Spanish from the browser's Accept-Language, the B3 application with
its fixture cards, a request for information from the FOG Manager (B3) answered in Spanish, and the
issued permit (B5, B2) downloaded as a PDF in Spanish. The FOG Manager works in English at a desk;
the fee and the issue are recorded through the services, as the staff's own tests drive those pages.
Every page the owner sees is checked with axe-core and for Spanish headings and buttons."""

import io

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from fogcontrol.core.roles import Role
from fogcontrol.permits import services
from fogcontrol.permits.models import PermitApplication
from fogcontrol.permits.tests.conftest import B3_ANSWERS, pay_fees
from fogcontrol.permits.tests.factories import fee_schedule
from fogcontrol.program.selectors import town_profile
from fogcontrol.testing.accessibility import assert_accessible
from fogcontrol.testing.browser import PASSWORD, PHONE, sign_in
from tests.test_spanish_pages import ALLOWED, WORD, english_words, proper_names

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


REQUEST = "Send us the grease interceptor's cleaning log for last month."


def town_contacts():
    """B2: the contacts a permit prints (the Town's profile)."""
    profile = town_profile()
    profile.name = "Town of Los Robles"
    profile.wastewater_division_phone = "(650) 555-0199"
    profile.after_hours_emergency_phone = "(650) 555-0911"
    profile.fog_manager_name = "Dana Whitfield"
    profile.fog_manager_address = "Town Hall, 1 Civic Center Plaza\nLos Robles, CA 94022"
    profile.fog_manager_email = "fog@losrobles.example"
    profile.save()


def in_spanish(page, *, also: str = "") -> None:
    """No English word on the page the owner sees (tests/test_spanish_pages.py's word lists), apart
    from proper names and what people wrote (`also`: the FOG Manager's request, in English)."""
    allowed = ALLOWED | proper_names() | {word.lower() for word in WORD.findall(also)}
    left = english_words(page.locator("body").inner_text(), allowed)
    assert not left, f"{page.url}: English left on a Spanish page: {' '.join(sorted(set(left)))}"


def fits_the_phone(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def fill_fixture(card, kind: str, count: int, **sizes):
    card.locator('select[name$="-kind"]').select_option(kind)
    card.locator('input[name$="-count"]').fill(str(count))
    for name, value in sizes.items():
        card.locator(f'input[name$="-{name}"]').fill(str(value))


@pytest.mark.provision("B3")
@pytest.mark.provision("B5")
@pytest.mark.provision("B2")
def test_b3_b5_a_restaurant_owner_in_spanish_applies_on_a_phone_answers_and_downloads_the_permit(
    open_tab, town
):
    town_contacts()
    fee_schedule()
    owner = town.users[Role.FSE]
    owner.preferred_language = "es"
    owner.save(update_fields=["preferred_language"])
    manager = town.users[Role.FOG_MANAGER]

    # Before signing in, the browser's language chooses Spanish.
    page = open_tab(PHONE, name="owner", locale="es-ES")
    page.goto("/login/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Iniciar sesión")
    assert_accessible(page)
    in_spanish(page)
    page.get_by_label("Nombre de usuario").fill(owner.username)
    page.get_by_label("Contraseña").fill(PASSWORD)
    page.get_by_role("button", name="Iniciar sesión").click()
    page.wait_for_url(lambda url: "/login/" not in url)
    expect(page.get_by_role("button", name="Cerrar sesión")).to_be_attached()
    assert_accessible(page)
    in_spanish(page)

    page.goto("/permits/applications/new/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Solicitar un permiso FOG")
    assert_accessible(page)
    in_spanish(page)
    fits_the_phone(page)
    page.get_by_role("button", name="Abrir el borrador").click()
    application = PermitApplication.objects.get(establishment=town.own_fse)
    expect(page.locator(".messages")).to_contain_text(f"Borrador {application.reference} abierto")
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Solicitud {application.reference}")
    cards = page.locator("fieldset.fixture-card")
    expect(cards.first.locator("legend")).to_have_text("Accesorio 1")
    assert_accessible(page)
    in_spanish(page)
    fits_the_phone(page)

    for name, value in B3_ANSWERS.items():
        page.locator(f'[name="app-{name}"]').fill(str(value))
    fill_fixture(cards.nth(0), "sink_three_compartment", 1, compartments=3, compartment_length_in=24,
                 compartment_width_in=24, compartment_depth_in=14)  # fmt: skip
    fill_fixture(cards.nth(1), "floor_drain", 2)
    fill_fixture(cards.nth(2), "fryer", 2)
    page.get_by_role("button", name="Guardar y presentar").click()
    expect(page.locator(".messages")).to_contain_text(f"Solicitud {application.reference} presentada")
    assert_accessible(page)
    in_spanish(page)
    fits_the_phone(page)

    # The FOG Manager, in English at a desk, asks for more information (B3).
    staff = open_tab(name="manager")
    sign_in(staff, manager.username)
    staff.goto(f"/permits/applications/{application.pk}/")
    asked = staff.locator("form").filter(has=staff.get_by_role("heading", name="Ask for information (B3)"))
    asked.get_by_label("Message").fill(REQUEST)
    asked.get_by_role("button", name="Send").click()
    expect(staff.locator(".messages")).to_contain_text("The applicant has been asked for the information")
    assert_accessible(staff)

    # The owner reads the request in Spanish and answers it.
    page.goto(f"/permits/applications/{application.pk}/")
    thread = page.locator(".card").filter(
        has=page.get_by_role("heading", name="Conversación con el Administrador del Programa FOG")
    )
    expect(thread).to_contain_text("Solicitud de información")
    expect(thread).to_contain_text("cleaning log for last month")
    answer = page.locator("form").filter(has=page.get_by_role("heading", name="Responder a la solicitud"))
    answer.get_by_label("Mensaje").fill("Adjuntamos el registro de limpieza: se limpió el 3 y el 17.")
    assert_accessible(page)
    in_spanish(page, also=REQUEST)
    fits_the_phone(page)
    answer.get_by_role("button", name="Enviar").click()
    expect(page.locator(".messages")).to_contain_text("Su respuesta ha sido enviada")
    expect(thread).to_contain_text("Respuesta del solicitante")
    assert_accessible(page)
    in_spanish(page, also=REQUEST)

    # The FOG Manager accepts the application, records the fee (B3) and issues the permit (B5).
    application.refresh_from_db()
    services.application_accept(application=application, acting_user=manager)
    pay_fees(application, manager)
    permit = services.permit_issue(application=application, acting_user=manager)

    page.goto(f"/permits/applications/{application.pk}/")
    page.get_by_role("link", name=permit.number).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Permiso FOG {permit.number}")
    expect(page.locator("main")).to_contain_text(f"{permit.device_capacity_gallons:,} galones")
    assert_accessible(page)
    # The notices' subjects and the timeline's notes are recorded, as written, in English by the
    # services (permits/services/notices.py, permits.py): a known gap (issue 18 asks for the
    # e-mails in Spanish too), not of this page's own text.
    recorded = [
        *permit.notices.values_list("subject", flat=True),
        *permit.events.values_list("note", flat=True),
    ]
    in_spanish(page, also=" ".join(recorded))
    fits_the_phone(page)
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Descargar el permiso (PDF)").click()
    download = download_info.value
    assert download.suggested_filename.endswith(".pdf")
    with open(download.path(), "rb") as pdf:
        content = pdf.read()
    assert content.startswith(b"%PDF")
    text = " ".join(sheet.extract_text() for sheet in PdfReader(io.BytesIO(content)).pages)
    assert f"Permiso n.º {permit.number}" in text
    for spanish in ("Titular del permiso (A1)", "Dispositivo de control de grasa aprobado y su servicio (B2)",
                    f"{permit.device_capacity_gallons:,} galones", "Frecuencia de servicio"):  # fmt: skip
        assert spanish in text, spanish
    assert "gallons" not in text
    assert not english_words(text, ALLOWED | proper_names() | {"town", "hall", "civic", "center", "plaza"})
