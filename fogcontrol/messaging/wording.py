"""The messages' default wording, in English and Spanish, registered with the notices catalogue.

Each kind of message is a document of the notices app in two keys, ``messaging_<kind>_en`` and
``messaging_<kind>_es``: the Town edits each under *Documents → Templates*, in versions by effective
date, and a message is written from the version in force on the day it is queued. The title is the
e-mail's subject. Imported by ``MessagingConfig.ready()``.
"""

from __future__ import annotations

from fogcontrol.core.languages import Language
from fogcontrol.messaging.models import Kind
from fogcontrol.notices.catalogue import register

COMMON = {
    "recipient_name": "Who the e-mail is addressed to.",
    "business_name": "The FSE's business name (A1), or the debtor's name.",
    "town_name": "The Town's name.",
    "fog_manager_name": "The FOG Manager.",
    "fog_manager_phone": "The FOG Manager's telephone.",
    "fog_manager_email": "The FOG Manager's e-mail.",
}

SIGNATURE = {
    Language.ENGLISH: "\n\n{fog_manager_name}\nFOG Control Program, {town_name}\n{fog_manager_phone} {fog_manager_email}",
    Language.SPANISH: "\n\n{fog_manager_name}\nPrograma de Control de Grasas (FOG), {town_name}\n{fog_manager_phone} {fog_manager_email}",
}

# kind -> (provisions, extra placeholders, {language: (subject, body)})
WORDING: dict[str, tuple[tuple[str, ...], dict[str, str], dict[str, tuple[str, str]]]] = {
    Kind.SERVICE_DUE: (
        ("E1",),
        {"device": "The device number.", "site_address": "The FSE's site.", "due_date": "The due date."},
        {
            Language.ENGLISH: (
                "Grease control device {device}: service due by {due_date}",
                "Dear {recipient_name},\n\nThe grease control device {device} serving {business_name} "
                "({site_address}) must be pumped out and serviced by {due_date} (E1).\n\nPlease arrange "
                "the service with your grease hauler; the hauler's manifest is the record of it.",
            ),
            Language.SPANISH: (
                "Dispositivo de control de grasas {device}: servicio pendiente antes del {due_date}",
                "Estimado/a {recipient_name}:\n\nEl dispositivo de control de grasas {device} de "
                "{business_name} ({site_address}) debe vaciarse y recibir servicio a más tardar el "
                "{due_date} (E1).\n\nPor favor, programe el servicio con su transportista de grasas; el "
                "manifiesto del transportista es el registro del servicio.",
            ),
        },
    ),
    Kind.SERVICE_OVERDUE: (
        ("E1",),
        {"device": "The device number.", "site_address": "The FSE's site.", "due_date": "The due date."},
        {
            Language.ENGLISH: (
                "Overdue: grease control device {device} was due for service on {due_date}",
                "Dear {recipient_name},\n\nThe grease control device {device} serving {business_name} "
                "({site_address}) was due for service on {due_date} and no service is on record (E1).\n\n"
                "Have it serviced now. A device left unserviced is a violation of Chapter 10.02.",
            ),
            Language.SPANISH: (
                "Atrasado: el dispositivo de control de grasas {device} debía recibir servicio el {due_date}",
                "Estimado/a {recipient_name}:\n\nEl dispositivo de control de grasas {device} de "
                "{business_name} ({site_address}) debía recibir servicio el {due_date} y no consta ningún "
                "servicio (E1).\n\nHaga que le den servicio de inmediato. Un dispositivo sin servicio es una "
                "infracción del Capítulo 10.02.",
            ),
        },
    ),
    Kind.PERMIT_RENEWAL: (
        ("B6",),
        {"permit_number": "The permit's number.", "renew_by": "The renewal date (B6)."},
        {
            Language.ENGLISH: (
                "FOG permit {permit_number}: renew by {renew_by}",
                "Dear {recipient_name},\n\nThe FOG permit {permit_number} of {business_name} must be "
                "renewed with its business licence by {renew_by} (B6). Apply for the renewal on the "
                "program's portal, or contact the FOG Manager.",
            ),
            Language.SPANISH: (
                "Permiso FOG {permit_number}: renuévelo antes del {renew_by}",
                "Estimado/a {recipient_name}:\n\nEl permiso FOG {permit_number} de {business_name} debe "
                "renovarse junto con su licencia comercial a más tardar el {renew_by} (B6). Solicite la "
                "renovación en el portal del programa o comuníquese con el administrador del programa FOG.",
            ),
        },
    ),
    Kind.TRAINING_DUE: (
        ("C4",),
        {"due_date": "The due date of the annual training."},
        {
            Language.ENGLISH: (
                "{business_name}: annual employee training due by {due_date}",
                "Dear {recipient_name},\n\nThe annual training of the employees of {business_name} in "
                "grease handling (C4) is due by {due_date}. Record the session and each employee's "
                "signature on the program's records page.",
            ),
            Language.SPANISH: (
                "{business_name}: capacitación anual de empleados pendiente antes del {due_date}",
                "Estimado/a {recipient_name}:\n\nLa capacitación anual de los empleados de {business_name} "
                "sobre el manejo de grasas (C4) vence el {due_date}. Registre la sesión y la firma de cada "
                "empleado en la página de registros del programa.",
            ),
        },
    ),
    Kind.REPORT_DUE: (
        ("C5", "F2", "F3", "F6"),
        {"report": "Which report.", "due_date": "Its due date."},
        {
            Language.ENGLISH: (
                "{business_name}: {report} due by {due_date}",
                'Dear {recipient_name},\n\nThe report "{report}" of {business_name} is due by '
                "{due_date}. Upload it on the program's records page (a PDF or a photo of each page).",
            ),
            Language.SPANISH: (
                "{business_name}: {report}, vence el {due_date}",
                'Estimado/a {recipient_name}:\n\nEl informe "{report}" de {business_name} vence el '
                "{due_date}. Súbalo en la página de registros del programa (un PDF o una foto de cada "
                "página).",
            ),
        },
    ),
    Kind.INVOICE_ISSUED: (
        ("Q1", "P8", "N1"),
        {
            "invoice_number": "The invoice's number.",
            "amount": "The amount due.",
            "due_date": "The last day to pay.",
            "delinquent_from": "The day it becomes delinquent.",
        },
        {
            Language.ENGLISH: (
                "Invoice {invoice_number} from {town_name}: {amount}",
                "Dear {recipient_name},\n\nThe Town has issued invoice {invoice_number} to {business_name} "
                "for {amount}. Please pay by {due_date}; an amount unpaid is delinquent from "
                "{delinquent_from}.",
            ),
            Language.SPANISH: (
                "Factura {invoice_number} de {town_name}: {amount}",
                "Estimado/a {recipient_name}:\n\nEl Municipio ha emitido la factura {invoice_number} a "
                "{business_name} por {amount}. Por favor, páguela a más tardar el {due_date}; el saldo no "
                "pagado se considera moroso a partir del {delinquent_from}.",
            ),
        },
    ),
    Kind.INVOICE_DELINQUENT: (
        ("Q1", "P8", "P9"),
        {
            "invoice_number": "The invoice's number.",
            "amount": "The invoice's total.",
            "delinquent_from": "The day it became delinquent.",
        },
        {
            Language.ENGLISH: (
                "Delinquent: invoice {invoice_number} ({amount})",
                "Dear {recipient_name},\n\nInvoice {invoice_number} to {business_name} for {amount} was "
                "not paid and is delinquent since {delinquent_from}. Please pay it now or contact the "
                "Town; delinquent amounts may lead to a lien or a hold on the business licence.",
            ),
            Language.SPANISH: (
                "En mora: factura {invoice_number} ({amount})",
                "Estimado/a {recipient_name}:\n\nLa factura {invoice_number} a {business_name} por "
                "{amount} no fue pagada y está en mora desde el {delinquent_from}. Por favor, páguela de "
                "inmediato o comuníquese con el Municipio; los montos en mora pueden dar lugar a un "
                "gravamen o a la retención de la licencia comercial.",
            ),
        },
    ),
    Kind.HEARING: (
        ("L2", "P5", "M3"),
        {
            "hearing_kind": "What the hearing is about.",
            "hearing_date": "The date set.",
            "hearing_place": "Where.",
        },
        {
            Language.ENGLISH: (
                "Hearing on {hearing_date}: {business_name}",
                "Dear {recipient_name},\n\nA hearing ({hearing_kind}) concerning {business_name} is set "
                "for {hearing_date} at {hearing_place}. You may attend, present evidence and be "
                "represented. The written notice served on you governs.",
            ),
            Language.SPANISH: (
                "Audiencia el {hearing_date}: {business_name}",
                "Estimado/a {recipient_name}:\n\nSe ha fijado una audiencia ({hearing_kind}) sobre "
                "{business_name} para el {hearing_date} en {hearing_place}. Usted puede asistir, presentar "
                "pruebas y hacerse representar. Rige la notificación escrita que se le entregó.",
            ),
        },
    ),
    Kind.INVITATION: (
        (),
        {
            "link": "The single-use link to set a password.",
            "expires": "When the link expires.",
            "username": "The user name to sign in with.",
        },
        {
            Language.ENGLISH: (
                "Your account on the {town_name} FOG Control Program",
                "Dear {recipient_name},\n\nThe FOG Manager has opened an account for you on the program's "
                "portal, for {business_name}. Your user name is {username}.\n\nSet your password with this "
                "link (it works once and expires on {expires}):\n{link}",
            ),
            Language.SPANISH: (
                "Su cuenta en el Programa de Control de Grasas (FOG) de {town_name}",
                "Estimado/a {recipient_name}:\n\nEl administrador del programa FOG le ha abierto una cuenta "
                "en el portal del programa, para {business_name}. Su nombre de usuario es {username}.\n\n"
                "Establezca su contraseña con este enlace (funciona una sola vez y vence el {expires}):\n"
                "{link}",
            ),
        },
    ),
}


def template_key(kind: str, language: str) -> str:
    return f"messaging_{kind}_{language}"


def register_all() -> None:
    for kind, (provisions, extra, by_language) in WORDING.items():
        for language, (subject, body) in by_language.items():
            register(
                template_key(kind, language),
                title=subject,
                provisions=provisions,
                placeholders={**COMMON, **extra},
                default_body=body + SIGNATURE[language],
            )


register_all()
