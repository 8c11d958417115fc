"""CMYK PDF/X-1a:2003 files: one face a page, TrimBox and BleedBox, an OutputIntent with the profile."""

from __future__ import annotations

import re
from io import BytesIO
from pathlib import Path

import pikepdf
from PIL import ImageCms

from spellpress.layout.ops import FaceLayout
from spellpress.render.draw import painting
from spellpress.render.forms import FormBook
from spellpress.render.paint import CmykPaint
from spellpress.write.canvas import DocumentInfo, new_canvas
from spellpress.write.pdf import single_face_page


def cmyk_faces_pdf(faces: list[FaceLayout], title: str | DocumentInfo, paint: CmykPaint) -> bytes:
    """The faces in order, one a page, every colour converted through `paint`, as PDF/X-1a:2003."""
    buffer = BytesIO()
    first = faces[0]
    canvas = new_canvas(buffer, (first.width + 2 * first.bleed, first.height + 2 * first.bleed), title)
    forms = FormBook(canvas)
    with painting(paint):
        for face in faces:
            single_face_page(canvas, forms, face)
        canvas.save()
    return pdf_x1a(buffer.getvalue(), title, paint)


REGISTRY_NAME = re.compile(r"CGATS[ /]*TR[ _]?(\d{3})|FOGRA(\d{2})")
CONDITION_KEYWORDS = (("SWOP", "CGATS TR 001"), ("GRACOL", "CGATS TR 006"))  # Adobe's SWOP v2, GRACoL 2006 profiles


def condition_identifier(description: str) -> str:
    """The ICC registry's name for the printing condition a profile describes: a registry name the description
    gives ("CGATS TR 005 (SWOP 2006 Coated #5)", "FOGRA39L coated"), else one its keywords imply ("U.S. Web
    Coated (SWOP) v2" is CGATS TR 001), else the description itself."""
    upper = description.upper()
    named = REGISTRY_NAME.search(upper)
    if named:
        return f"CGATS TR {named.group(1)}" if named.group(1) else f"FOGRA{named.group(2)}"
    return next((name for key, name in CONDITION_KEYWORDS if key in upper), description)


def output_condition(profile: Path) -> tuple[str, str]:
    """(the registry's identifier, the profile's description) of the condition a CMYK profile separates for."""
    description = ImageCms.getOpenProfile(str(profile)).profile.profile_description or Path(profile).stem
    return condition_identifier(description), description


def pdf_x1a(data: bytes, title: str | DocumentInfo, paint: CmykPaint) -> bytes:
    """Add what PDF/X-1a:2003 asks of a CMYK-only PDF: output intent, version keys, Trapped, an ID, a
    TrimBox on every page; PDF 1.4. The few RGB operators reportlab writes by itself (renderPDF opens
    each vector icon with a black fill and stroke) are converted through the same paint."""
    profile = paint.profile
    icc = Path(profile).read_bytes()
    identifier, description = output_condition(profile)
    with pikepdf.open(BytesIO(data)) as pdf:
        dest = pikepdf.Stream(pdf, icc)
        dest["/N"] = 4
        intent = pikepdf.Dictionary(
            Type=pikepdf.Name.OutputIntent,
            S=pikepdf.Name.GTS_PDFX,
            OutputConditionIdentifier=pikepdf.String(identifier),
            OutputCondition=pikepdf.String(description),
            RegistryName=pikepdf.String("http://www.color.org"),
            Info=pikepdf.String(description),
            DestOutputProfile=dest,
        )
        pdf.Root.OutputIntents = pikepdf.Array([pdf.make_indirect(intent)])
        _cmyk_operators(pdf, paint)
        for page in pdf.pages:
            if "/TrimBox" not in page.obj:
                page.obj.TrimBox = page.obj.MediaBox  # a sheet of many cards: the sheet is the final size
            if "/BleedBox" not in page.obj:
                page.obj.BleedBox = page.obj.MediaBox
        info = pdf.docinfo
        info["/Title"] = pikepdf.String(title.title if isinstance(title, DocumentInfo) else title)
        info["/GTS_PDFXVersion"] = pikepdf.String("PDF/X-1a:2003")
        info["/Trapped"] = pikepdf.Name("/False")
        for key in ("/CreationDate", "/ModDate"):
            if key not in info:
                info[key] = pikepdf.String("D:20000101000000+00'00'")
        out = BytesIO()
        pdf.save(out, force_version="1.4", object_stream_mode=pikepdf.ObjectStreamMode.disable,
                 deterministic_id=True, compress_streams=True)
    return out.getvalue()


def _cmyk_operators(pdf: pikepdf.Pdf, paint: CmykPaint) -> None:
    """Every rg/RG in pages and forms (at any depth) as the k/K the paint gives that colour."""
    seen: set = set()

    def rewrite(stream_owner) -> None:
        commands = pikepdf.parse_content_stream(stream_owner)
        changed = False
        out = []
        for command in commands:
            operands: list = list(command.operands)
            operator = command.operator
            name = str(operator)
            if name in ("rg", "RG"):
                red, green, blue = (float(v) for v in operands)
                cmyk = paint.cmyk((red, green, blue, 1.0))
                operands = list(cmyk)
                operator = pikepdf.Operator("k" if name == "rg" else "K")
                changed = True
            out.append((operands, operator))
        if changed:
            data = pikepdf.unparse_content_stream(out)
            if isinstance(stream_owner, pikepdf.Page):
                stream_owner.obj.Contents = pdf.make_stream(data)
            else:
                stream_owner.write(data)

    def forms(resources) -> None:
        if resources is None or "/XObject" not in resources:
            return
        for xobject in resources.XObject.values():
            if xobject.objgen in seen or xobject.get("/Subtype") != "/Form":
                continue
            seen.add(xobject.objgen)
            rewrite(xobject)
            forms(xobject.get("/Resources"))

    for page in pdf.pages:
        rewrite(page)
        forms(page.obj.get("/Resources"))
