"""Hostile uploads, built in the test and small on disk: decompression bombs, endless sheets,
garbage. Each must be refused with a 4xx and a message saying what is wrong, quickly, never a 5xx
(issue 15, findings 2 and 10).

Workbooks are written member by member (not by openpyxl), so a test controls exactly what the
zip declares and holds; big members are streamed into the zip a block at a time.
"""

from __future__ import annotations

import io
import random
import zipfile
from collections.abc import Iterable

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
DOC_RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
HEADER = ("Licence No", "Business Name", "Site Address")

CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    '<Override PartName="/xl/sharedStrings.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
    "</Types>"
)
ROOT_RELS = (
    f'<Relationships xmlns="{RELS}"><Relationship Id="rId1" '
    f'Type="{DOC_RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>'
)
WORKBOOK = (
    f'<workbook xmlns="{MAIN}" xmlns:r="{DOC_RELS}"><sheets>'
    '<sheet name="Licences" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
WORKBOOK_RELS = (
    f'<Relationships xmlns="{RELS}">'
    f'<Relationship Id="rId1" Type="{DOC_RELS}/worksheet" Target="worksheets/sheet1.xml"/>'
    f'<Relationship Id="rId2" Type="{DOC_RELS}/sharedStrings" Target="sharedStrings.xml"/>'
    "</Relationships>"
)


def _cell(text: str) -> str:
    return f'<c t="inlineStr"><is><t>{text}</t></is></c>'


def header_row(columns: Iterable[str] = HEADER) -> str:
    return '<row r="1">' + "".join(_cell(text) for text in columns) + "</row>"


def sheet(rows: Iterable[bytes], *, dimension: str | None = None) -> Iterable[bytes]:
    """A worksheet: the header row, then `rows` (blocks of <row> elements) as they come."""
    declared = f'<dimension ref="{dimension}"/>' if dimension else ""
    yield f'<worksheet xmlns="{MAIN}">{declared}<sheetData>{header_row()}'.encode()
    yield from rows
    yield b"</sheetData></worksheet>"


def shared_strings(blocks: Iterable[bytes] = ()) -> Iterable[bytes]:
    yield f'<sst xmlns="{MAIN}"><si><t>first</t></si>'.encode()
    yield from blocks
    yield b"</sst>"


def workbook(
    *, sheet_xml: Iterable[bytes] | None = None, strings: Iterable[bytes] | None = None, level: int = 1
) -> bytes:
    """A minimal workbook openpyxl reads; big members are written as they are produced."""
    members: dict[str, Iterable[bytes]] = {
        "[Content_Types].xml": [CONTENT_TYPES.encode()],
        "_rels/.rels": [ROOT_RELS.encode()],
        "xl/workbook.xml": [WORKBOOK.encode()],
        "xl/_rels/workbook.xml.rels": [WORKBOOK_RELS.encode()],
        "xl/worksheets/sheet1.xml": sheet_xml if sheet_xml is not None else sheet([_data_row(1)]),
        "xl/sharedStrings.xml": strings if strings is not None else shared_strings(),
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=level) as archive:
        for name, chunks in members.items():
            with archive.open(name, "w", force_zip64=True) as member:
                for chunk in chunks:
                    member.write(chunk)
    return buffer.getvalue()


def _data_row(n: int) -> bytes:
    return ("<row>" + _cell(f"BL-{n}") + _cell(f"Diner {n}") + _cell(f"{n} Main St") + "</row>").encode()


def _repeat(block: bytes, total_bytes: int) -> Iterable[bytes]:
    for _ in range(max(1, total_bytes // len(block))):
        yield block


# --- the corpus --------------------------------------------------------------------------------


def shared_strings_bomb(expanded_mb: int = 400) -> bytes:
    """Shared strings that expand to `expanded_mb` MB (the audit's: 400 MB from a small file)."""
    block = b"<si><t>" + b"FOG" * 330 + b"</t></si>"
    return workbook(strings=shared_strings(_repeat(block * 1000, expanded_mb * 1024 * 1024)))


def endless_sheet(rows: int = 5_000_000) -> bytes:
    """A sheet of `rows` rows that does not declare its size (the audit's: 5 million rows)."""
    row = b'<row><c t="inlineStr"><is><t>x</t></is></c></row>'
    block = row * 10_000
    return workbook(sheet_xml=sheet(_repeat(block, rows * len(row))))


def compressed_too_well(expanded_mb: int = 40) -> bytes:
    """A member under the size limit that expands hundreds of times (a bomb's ratio)."""
    block = b"<si><t>AAAA</t></si>" * 50_000
    return workbook(strings=shared_strings(_repeat(block, expanded_mb * 1024 * 1024)), level=9)


def sheet_declaring(dimension: str) -> bytes:
    """A small sheet whose dimension claims `dimension` (e.g. A1:C5000000, or A1:XFD2)."""
    return workbook(sheet_xml=sheet([_data_row(1)], dimension=dimension))


def sheet_with_a_row_gap(last_row: int = 1_048_576) -> bytes:
    """Two rows, the second numbered `last_row`: openpyxl fills the gap with empty rows."""
    far = f'<row r="{last_row}">{_cell("BL-far")}{_cell("Far Diner")}</row>'.encode()
    return workbook(sheet_xml=sheet([_data_row(1), far]))


def rows_without_dimension(rows: int) -> bytes:
    """A sheet of `rows` real rows that does not declare its size (under the size limits)."""
    return workbook(sheet_xml=sheet(_data_row(n) for n in range(rows)))


def zip_not_a_workbook() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("readme.txt", "not a workbook")
    return buffer.getvalue()


def garbage(size: int = 64 * 1024, *, seed: int = 15) -> bytes:
    """Random bytes, but none in the first eight (where a NUL would give them away at once)."""
    generator = random.Random(seed)
    return b"Licence," + bytes(generator.randrange(256) for _ in range(size))


def csv_with_a_huge_first_line(chars: int = 2 * 1024 * 1024) -> bytes:
    return b"Licence No," + b"x" * chars + b"\r\nBL-1,Diner\r\n"


def csv_with_columns(columns: int) -> bytes:
    header = ",".join(f"Column {n}" for n in range(columns))
    return (f"Licence No,Business Name,{header}\r\nBL-1,Diner\r\n").encode()


# --- for every upload, not only the spreadsheets ------------------------------------------------


def utf16_text() -> bytes:
    """A CSV saved as UTF-16 without its byte-order mark: every other byte a NUL, and nothing to
    say which encoding it is (with the mark, a reader may rightly decode it)."""
    return "Licence No,Business Name,Site Address\r\nBL-1,Diner,1 Main St\r\n".encode("utf-16-le")


def html_named_pdf() -> bytes:
    """A page with a script, sent as report.pdf with the PDF content type."""
    return b"<!DOCTYPE html><html><body><script>fetch('/api/v1/')</script></body></html>\n"


def png_bomb(side: int = 40_000) -> bytes:
    """A valid PNG header declaring side x side pixels (1.6 billion at 40,000) of one-bit grey,
    whose pixel data (all zeros) compresses to a few hundred kB: a decompression bomb for images."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)
    row = b"\x00" * (1 + (side + 7) // 8)
    compressor = zlib.compressobj(9)
    data = b"".join(compressor.compress(row) for _ in range(side)) + compressor.flush()
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


def truncated_jpeg() -> bytes:
    """A JPEG cut off after its first kilobyte: the right magic bytes, no image."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (400, 300), (200, 40, 40)).save(buffer, format="JPEG")
    return buffer.getvalue()[:1024]
