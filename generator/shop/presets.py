"""Shop presets: one YAML file each, shipped in generator/data/shops; a game folder may add its own in shops/."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import Field

from spellpress.errors import Location, Problems, UserError
from spellpress.load.validate import validated
from spellpress.load.yamlsrc import read_yaml
from spellpress.model.modes import ColorMode
from spellpress.model.schema import ComponentKind
from spellpress.model.types import Mm, NonNegativeMm, NonNegativePt, Strict
from spellpress.render.paint import BlackText

SHIPPED = Path(__file__).resolve().parents[1] / "data" / "shops"
PROFILES = Path(__file__).resolve().parents[1] / "data" / "icc"
DEFAULT_CMYK_PROFILE = PROFILES / "FOGRA39L.icc"


class SizeSpec(Strict):
    width: Mm = Field(gt=0, le=1000)
    height: Mm = Field(gt=0, le=1000)


Figure = Literal["sizes", "kinds", "bleed", "safe", "dpi", "color", "profile", "ink_limit", "black_text", "format",
                 "files", "order"]


class BlackTextSpec(Strict):
    """Small dark type and thin dark lines in black ink only, 100% K (render/paint.py BlackText)."""

    size: NonNegativePt = 12.0  # text at or below this size, and icons no taller (0: none)
    line: NonNegativePt = 1.0  # strokes at or below this width
    lightness: float = Field(default=30.0, ge=0, le=100)  # CIE L* at or below which a colour is dark
    chroma: float = Field(default=25.0, ge=0, le=200)  # C*ab from which a colour is the designer's and kept

    def rule(self) -> BlackText:
        return BlackText(self.size, self.line, self.lightness, self.chroma)


class Source(Strict):
    url: str | None = None  # None: the figure is quoted from elsewhere, not confirmed from the shop's own page
    confirms: str
    figures: list[Figure] = []  # the preset keys this source gives; `spellpress shops` names it beside each


class ShopSpec(Strict):
    title: str
    about: str = ""  # what the shop is, in a line, for `spellpress shops`
    sizes: dict[str, SizeSpec] = {}  # the built-in sizes it prints, at its trim; none: any size
    kinds: list[ComponentKind] = ["card"]  # the component kinds it prints
    bleed: NonNegativeMm
    safe: NonNegativeMm
    dpi: int = Field(default=300, ge=72, le=1200)
    color: ColorMode = "rgb"
    profile: str | None = None  # a shipped profile's file name, or a path beside the preset
    ink_limit: float | None = Field(default=None, gt=0, le=400)
    black_text: BlackTextSpec = BlackTextSpec()  # CMYK only
    format: Literal["pdf-x1a", "png"]
    files: Literal["per-deck", "per-card", "sides"]
    order: Literal["back-front", "front-back"] = "back-front"
    sources: list[Source] = Field(min_length=1)


@dataclass(frozen=True)
class Shop:
    name: str
    spec: ShopSpec
    path: Path

    def profile_path(self) -> Path:
        """The CMYK output profile of a shop that prints in CMYK."""
        if self.spec.profile is None:
            return DEFAULT_CMYK_PROFILE
        for candidate in (self.path.parent / self.spec.profile, PROFILES / self.spec.profile):
            if candidate.resolve().is_file() and _inside(candidate, (self.path.parent, PROFILES)):
                return candidate
        raise UserError.at(Location(self.path), f"profile '{self.spec.profile}' not found beside the preset "
                                                 "or among the shipped profiles")


def _inside(path: Path, folders) -> bool:
    resolved = path.resolve()
    return any(resolved.is_relative_to(folder.resolve()) for folder in folders)


def shops(game_folder: Path | None = None) -> dict[str, Shop]:
    """Every preset by name: the shipped ones, then the game's own shops/*.yaml (which win)."""
    problems = Problems()
    found: dict[str, Shop] = {}
    folders = [SHIPPED] + ([game_folder / "shops"] if game_folder is not None else [])
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.yaml")):
            if not _inside(path, (folder,)):
                continue  # a symlink out of the game's folder is not read
            doc = read_yaml(path)
            spec = validated(ShopSpec, doc.data, doc, (), problems)
            if spec is not None:
                found[path.stem] = Shop(path.stem, spec, path)
    problems.raise_if_any()
    return found


def shop(name: str, game_folder: Path | None = None) -> Shop:
    known = shops(game_folder)
    if name not in known:
        where = Location(game_folder or Path("."))
        raise UserError.at(where, f"unknown shop '{name}' (known: {', '.join(sorted(known))}; see spellpress shops)")
    return known[name]
