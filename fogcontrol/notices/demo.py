"""Demo documents: letters from the FOG Control Program (``general_letter``), issued through the
notices services so each is a copy of record on the chain. The demo FSE user's establishment gets
one served by email and one sent by certified mail and not yet served; a few others get one each."""

from __future__ import annotations

import datetime as dt
import random

from fogcontrol.notices.letters import GENERAL_LETTER
from fogcontrol.notices.selectors import default_addressee
from fogcontrol.notices.services import document_issue

ACTING = "seed_demo"
TEXTS = (
    "Thank you for the prompt pump-out last month. Please keep the manifests on the premises.",
    "Our records show your kitchen staff training is due soon. Please schedule it and send us the roster.",
    "We will visit for a routine inspection in the coming weeks. No action is needed before then.",
)


def _letter(fse, text: str, *, method: str, served_on, article_number: str = "", issued_on: dt.date):
    return document_issue(
        acting_user=ACTING,
        key=GENERAL_LETTER,
        establishment=fse,
        addressee=default_addressee(fse),
        context={"business_name": fse.business_name, "body_text": text},
        service_method=method,
        served_on=served_on,
        article_number=article_number,
        issued_on=issued_on,
    )


def seed(*, rng: random.Random, town, today: dt.date) -> None:
    active = town.active_establishments
    if not active:
        return
    demo_fse = town.fse_establishment or active[0]
    _letter(demo_fse, TEXTS[0], method="email", served_on=today - dt.timedelta(days=6),
            issued_on=today - dt.timedelta(days=6))  # fmt: skip
    _letter(demo_fse, TEXTS[1], method="certified_mail", served_on=None,
            article_number=f"9407 1000 {rng.randint(1000, 9999)} {rng.randint(1000, 9999)}", issued_on=today)  # fmt: skip
    others = [fse for fse in active if fse.pk != demo_fse.pk]
    for fse in rng.sample(others, min(3, len(others))):
        _letter(fse, rng.choice(TEXTS), method="first_class_mail", served_on=today, issued_on=today)
