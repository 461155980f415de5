"""Small CIWQS files for tests, written as the State writes them: tab-separated, Latin-1, one
header row, a trailing empty column."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile

REAL_DIR = "/work/shared/research_data/ciwqs_ca_sso_2017"
PLSD_HEADERS = (
    "WDID STATUS SPILL_ID SPILL_LOC_NAME SPILL_VOL REACH_SURFACE REACH_STORM_DRAINPIPE RETURN_TO_SSS "
    "SPILL_VOL_RECOVER SPILL_VOL_REACH_SURF LATTITUDE_DECIMAL_DEGREES LONGITUDE_DECIMAL_DEGREES ADDRESS CITY "
    "ZIP SPILL_LOC_DESC APPEAR_PT APPEAR_PT_EXPLAIN FINAL_SPILL_DEST FINAL_SPILL_DEST_EXPL START_DT "
    "AGENCY_NOTIFY_DT OPRTOR_ARRVL_DT EST_END_DT SPILL_CAUSE SPILL_CAUSE_EXPLAIN SSO_PLSD_SOURCE_PLSD "
    "SSO_PLSD_SOURCE_EXPLAIN WHERE_FAILURE_OCCUR WHERE_FAIL_OCCUR_EXP DIAMETER_OF_SEWER MATERIAL_SEWER_PIPE "
    "AGE_SEWER_PIPE RESPONSE_ACTIVITIES RESPONSE_ACTIVITIES_EXPL"
).split()


def plsd_row(spill_id, **values) -> dict:
    row = {
        "WDID": "9SSO10658",
        "STATUS": "Active",
        "SPILL_ID": str(spill_id),
        "SPILL_LOC_NAME": "Café Olé",
        "SPILL_VOL": "60",
        "REACH_SURFACE": "No",
        "REACH_STORM_DRAINPIPE": "No",
        "RETURN_TO_SSS": "Not Applicable - Spill did not reach storm drainpipe",
        "SPILL_VOL_RECOVER": "50",
        "SPILL_VOL_REACH_SURF": "0",
        "LATTITUDE_DECIMAL_DEGREES": "32.7",
        "LONGITUDE_DECIMAL_DEGREES": "-117.1",
        "ADDRESS": "100 Main Street",
        "CITY": "San Diego",
        "FINAL_SPILL_DEST": "Street/curb and gutter",
        "START_DT": "01-MAY-14 09.00.00.000000 PM",
        "AGENCY_NOTIFY_DT": "05/02/2014 21:00",
        "OPRTOR_ARRVL_DT": "05/02/2014 21:30",
        "EST_END_DT": "01-MAY-14 11.00.00.000000 PM",
        "SPILL_CAUSE": "Grease Deposition (FOG)",
    }
    row.update(values)
    return row


def plsd_bytes(rows: list[dict]) -> bytes:
    lines = ["\t".join(PLSD_HEADERS) + "\t"]
    lines += ["\t".join(row.get(header, " ") for header in PLSD_HEADERS) + "\t" for row in rows]
    return ("\r\n".join(lines) + "\r\n").encode("latin-1")


def plsd_upload(rows: list[dict], name: str = "PLSD.txt") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, plsd_bytes(rows), content_type="text/plain")
