"""The inspection checklist's words in the catalogue (issue 18): the rules keep them as plain English
(``rules/inspections.py``: pure Python, no Django); marked here so that ``makemessages`` keeps them,
and the report prints them through ``gettext`` in the FSE's language (``inspections/report_text.py``)."""

from django.utils.translation import gettext_noop

SECTION_TITLES = (
    gettext_noop("Device assessment (D4, D8)"),
    gettext_noop("Records reviewed on site (D1, F6)"),
    gettext_noop("Best management practices (C1-C7)"),
    gettext_noop("Prohibited discharges (K1-K7)"),
    gettext_noop("Entry (D1)"),
)
# Each item: what the inspector checks, and the finding's words when it fails.
ITEM_WORDS = (
    (gettext_noop("Seams and pipes sound"), gettext_noop("Seams or pipes are damaged or leaking")),
    (gettext_noop("Baffles in place and sound"), gettext_noop("Baffles are missing or damaged")),
    (
        gettext_noop("Inlet, outlet and sample tees sound"),
        gettext_noop("Inlet, outlet or sample tees are missing or damaged"),
    ),
    (
        gettext_noop("Flow-regulating device in place"),
        gettext_noop("The flow-regulating device is missing or damaged"),
    ),
    (
        gettext_noop("Manhole covers removable, device accessible"),
        gettext_noop("Manhole covers or access are inadequate"),
    ),
    (gettext_noop("No caked-on FOG"), gettext_noop("Caked-on FOG in the device")),
    (
        gettext_noop("Hauler manifests kept on site"),
        gettext_noop("Hauler manifests are not kept on the premises"),
    ),
    (
        gettext_noop("On-site manifests match what the haulers submitted"),
        gettext_noop("On-site manifests differ from those the haulers submitted"),
    ),
    (gettext_noop("Receipts and invoices produced"), gettext_noop("Receipts or invoices were not produced")),
    (
        gettext_noop("Cleaning and maintenance records produced"),
        gettext_noop("Cleaning and maintenance records were not produced"),
    ),
    (
        gettext_noop("Waste-oil pickup records"),
        gettext_noop("No records of waste-oil pickups by a licensed hauler or recycler"),
    ),
    (
        gettext_noop("Training records signed by each employee"),
        gettext_noop("Employee training is not documented with signatures"),
    ),
    (
        gettext_noop("Self-monitoring reports (when required)"),
        gettext_noop("Required self-monitoring reports are missing"),
    ),
    (gettext_noop("Drain screens on food-preparation drains"), gettext_noop("Drain screens are missing")),
    (
        gettext_noop("Waste-oil receptacle not leaking"),
        gettext_noop("The waste-oil receptacle leaks or is in poor condition"),
    ),
    (
        gettext_noop("Food waste disposed of properly"),
        gettext_noop("Food waste is not disposed of per Chapter 6.20"),
    ),
    (gettext_noop("Employee training up to date"), gettext_noop("Employee BMP training is not up to date")),
    (
        gettext_noop("Hood filters clean, wash water disposed of properly"),
        gettext_noop("Kitchen exhaust filters are dirty or their wash water is disposed of improperly"),
    ),
    (
        gettext_noop("BMP signage posted"),
        gettext_noop("BMP signage is not posted in food-preparation and dish-washing areas"),
    ),
    (gettext_noop("No food grinder"), gettext_noop("A food grinder is present")),
    (gettext_noop("No FOG additives"), gettext_noop("FOG emulsifying or treatment additives are in use")),
    (
        gettext_noop("No waste cooking oil into the sewer"),
        gettext_noop("Waste cooking oil is poured into sewer pipes"),
    ),
    (
        gettext_noop("No dishwasher discharge to the device"),
        gettext_noop("A dishwasher discharges to the device"),
    ),
    (
        gettext_noop("Nothing over the temperature limit into the device"),
        gettext_noop("Discharge to the device is hotter than the limit"),
    ),
    (
        gettext_noop("No sanitary waste into the interceptor line"),
        gettext_noop("Sanitary waste enters a line serving the grease interceptor"),
    ),
    (
        gettext_noop("No device contents into the public sewer"),
        gettext_noop("Device contents are discharged into the public sewer"),
    ),
    (gettext_noop("No dilution"), gettext_noop("Signs of dilution as a substitute for treatment")),
    (gettext_noop("Entry granted"), gettext_noop("Entry for inspection was refused")),
    (gettext_noop("Entry not delayed"), gettext_noop("Entry for inspection was delayed")),
)
