"""Tiny XLSX and ODS files written by hand (zip + XML), as a spreadsheet program saves them."""

from __future__ import annotations

import zipfile
from pathlib import Path
from xml.sax.saxutils import escape


def _xlsx_cell(ref: str, value) -> str:
    if isinstance(value, bool):
        return f'<c r="{ref}" t="b"><v>{int(value)}</v></c>'
    if isinstance(value, (int, float)):
        return f'<c r="{ref}"><v>{value}</v></c>'
    return f'<c r="{ref}" t="inlineStr"><is><t>{escape(str(value))}</t></is></c>'


def write_xlsx(path: Path, sheets: dict[str, list[list]]) -> Path:
    def column(n: int) -> str:
        return "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[n]

    with zipfile.ZipFile(path, "w") as book:
        book.writestr("[Content_Types].xml",
                      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                      '<Default Extension="xml" ContentType="application/xml"/>'
                      '<Override PartName="/xl/workbook.xml" '
                      'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
                      + "".join(f'<Override PartName="/xl/worksheets/sheet{i}.xml" '
                                'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
                                for i in range(1, len(sheets) + 1)) + "</Types>")
        book.writestr("_rels/.rels",
                      '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                      '<Relationship Id="rId1" '
                      'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
                      'Target="xl/workbook.xml"/></Relationships>')
        book.writestr("xl/workbook.xml",
                      '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
                      'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>'
                      + "".join(f'<sheet name="{escape(name)}" sheetId="{i}" r:id="rId{i}"/>' for i, name in enumerate(sheets, 1))
                      + "</sheets></workbook>")
        book.writestr("xl/_rels/workbook.xml.rels",
                      '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                      + "".join(f'<Relationship Id="rId{i}" '
                                'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" '
                                f'Target="worksheets/sheet{i}.xml"/>'
                                for i in range(1, len(sheets) + 1)) + "</Relationships>")
        for i, rows in enumerate(sheets.values(), 1):
            body = "".join(f'<row r="{r}">' + "".join(_xlsx_cell(f"{column(c)}{r}", v) for c,
                                                      v in enumerate(row) if v is not None)
                           + "</row>" for r, row in enumerate(rows, 1))
            book.writestr(f"xl/worksheets/sheet{i}.xml",
                          '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                          f"<sheetData>{body}</sheetData></worksheet>")
    return path


def _ods_cell(value) -> str:
    if value is None:
        return "<table:table-cell/>"
    if isinstance(value, bool):
        return f'<table:table-cell office:value-type="boolean" office:boolean-value="{str(value).lower()}"/>'
    if isinstance(value, (int, float)):
        return f'<table:table-cell office:value-type="float" office:value="{value}"><text:p>{value}</text:p></table:table-cell>'
    return f'<table:table-cell office:value-type="string"><text:p>{escape(str(value))}</text:p></table:table-cell>'


def write_ods(path: Path, sheets: dict[str, list[list]]) -> Path:
    ns = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
          'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
          'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"')
    tables = "".join(f'<table:table table:name="{escape(name)}">'
                     + "".join("<table:table-row>" + "".join(_ods_cell(v) for v in row) + "</table:table-row>" for row in rows)
                     + "</table:table>" for name, rows in sheets.items())
    with zipfile.ZipFile(path, "w") as book:
        book.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        book.writestr("META-INF/manifest.xml",
                      '<?xml version="1.0"?><manifest:manifest '
                      'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">'
                      '<manifest:file-entry manifest:full-path="/" '
                      'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
                      '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
                      '</manifest:manifest>')
        book.writestr("content.xml", f'<?xml version="1.0"?><office:document-content {ns} office:version="1.2">'
                                     f"<office:body><office:spreadsheet>{tables}</office:spreadsheet></office:body>"
                                     "</office:document-content>")
    return path
