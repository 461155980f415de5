"""Who answers for a grease control device (A2)."""

from __future__ import annotations

import dataclasses

from fogcontrol.rules.explain import Explanation, say

FSE = "fse"
PROPERTY_OWNER = "property_owner"


@dataclasses.dataclass(frozen=True)
class Responsibility:
    responsible: str  # FSE or PROPERTY_OWNER
    needs_review: bool
    explanation: Explanation


def device_responsible(*, establishment_parcels: list[str | None]) -> str:
    """A2, A3: who answers for a device (``FSE`` or ``PROPERTY_OWNER``), without the working:
    ``device_responsibility``'s answer, for a set-based step that needs only the answer for each
    of many devices. Only a device serving exactly one FSE is that FSE's (A3); several FSEs, or
    none on record, make it the property owner's (A2; the working says when it needs review)."""
    return FSE if len(establishment_parcels) == 1 else PROPERTY_OWNER


def device_responsibility(*, establishment_parcels: list[str | None]) -> Responsibility:
    """A2: a device serving several FSEs on one parcel is the property owner's (or designee's);
    a device serving one FSE is that FSE's (A3).

    `establishment_parcels` holds, for each FSE the device serves, its parcel number (None if
    unknown). A device serving FSEs on different parcels is outside A2's words: it is given to
    the property owner and marked for the FOG Manager's review.
    """
    count = len(establishment_parcels)
    responsible = device_responsible(establishment_parcels=establishment_parcels)
    if responsible == FSE:
        return Responsibility(
            FSE,
            False,
            Explanation(
                ("A3",), (say("The device serves one FSE, which must operate and maintain it (A3)."),)
            ),
        )
    if count == 0:
        return Responsibility(
            PROPERTY_OWNER,
            True,
            Explanation(
                ("A2",), (say("The device serves no FSE on record; notices go to the property owner."),)
            ),
        )
    distinct = {parcel for parcel in establishment_parcels}
    if len(distinct) == 1 and None not in distinct:
        return Responsibility(
            PROPERTY_OWNER,
            False,
            Explanation(
                ("A2",),
                (
                    say(
                        "The device serves %(count)s FSEs on one parcel (%(parcel)s).",
                        count=count,
                        parcel=next(iter(distinct)),
                    ),
                    say(
                        "The commercial property owner, or the owner's official designee, is responsible for its "
                        "installation and maintenance, and receives the notices (A2)."
                    ),
                ),
            ),
        )
    return Responsibility(
        PROPERTY_OWNER,
        True,
        Explanation(
            ("A2",),
            (
                say(
                    "The device serves %(count)s FSEs whose parcels differ or are not on record.", count=count
                ),
                say(
                    "A2 speaks of several FSEs on a single parcel; the property owner is named until the "
                    "FOG Manager reviews the parcel records."
                ),
            ),
        ),
    )
