"""Schema of game.yaml and of component files."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from spellpress.model.limits import MAX_HAND
from spellpress.model.modes import BackMode, CutMode, MarkMode, Paper
from spellpress.model.types import Mm, Pt, Strict, text_like

ComponentKind = Literal["card", "tile", "die", "sheet", "token", "board"]
Identifier = Annotated[str, text_like(r"^[a-z0-9][a-z0-9-]*$", "an id of lowercase letters, digits and hyphens, such as my-deck")]


class Players(Strict):
    min: int = Field(ge=1)
    max: int = Field(ge=1)

    @model_validator(mode="after")
    def _ordered(self) -> Players:
        if self.max < self.min:
            raise ValueError("max must be at least min")
        return self


class PrintSettings(Strict):
    paper: Paper = "a4"
    bleed: Mm = Field(default=3.0, ge=0, le=12)
    margin: Mm = Field(default=4.0, ge=0, le=40)
    safe: Mm = Field(default=3.0, ge=0, le=20)
    cut: CutMode = "shared"
    gutter: Mm = Field(default=0.0, ge=0, le=40)
    backs: BackMode = "duplex-long"
    back_offset: tuple[Mm, Mm] = (0.0, 0.0)
    crop_marks: bool = True
    marks: MarkMode | None = None  # None: crop, or none when crop_marks is false
    mark_length: Mm = Field(default=5.0, ge=2, le=30)  # the longest; shorter (to 2 mm) where the sheet has no room
    mark_offset: Mm = Field(default=0.5, ge=0, le=10)
    mark_weight: Pt = Field(default=0.25, gt=0, le=3)
    corner_radius: Mm = Field(default=0.0, ge=0, le=20)
    duplex_tolerance: Mm = Field(default=2.0, ge=0, le=10)  # backs off their fronts by up to this: different backs kept 2x apart


class SizeSpec(Strict):
    width: Mm = Field(gt=0, le=1000)
    height: Mm = Field(gt=0, le=1000)


class FaceSpec(Strict):
    """A face drawn from a template with its own fields (a deck back, say)."""

    template: str
    fields: dict[str, Any] = {}


SHIPPED_LEXICON = "english"
Language = Literal["en", "fr", "de", "es"]
SHIPPED_LISTS: dict[str, str] = {"en": "english", "fr": "french", "de": "german", "es": "spanish"}  # language -> its list


class WordsSpec(Strict):
    """How the game's words are judged (letter analysis and rules engines)."""

    min_length: int = Field(default=2, ge=1, le=15)
    # the words' language: its alphabet and accent policy, its shipped list, its syllable rules (docs/yaml.md)
    language: Language = "en"
    # a shipped list by name (default: the language's), or a plain word file in the game folder, one word a line
    lexicon: str = SHIPPED_LEXICON
    allow: list[str] = []
    deny: list[str] = []
    syllables: dict[str, int] = {}
    hand: int | None = Field(default=None, ge=1, le=MAX_HAND)
    wilds: int = Field(default=0, ge=0, le=10)
    # what the simulated players and the letter figures know: a SCOWL level, 10 common ... 95 rare
    # (None: every word); set by --vocabulary, English list only (docs/simulate.md)
    vocabulary: int | None = Field(default=None, ge=10, le=95)

    @model_validator(mode="after")
    def _vocabulary_needs_levels(self) -> WordsSpec:
        if self.vocabulary is not None and self.lexicon != SHIPPED_LEXICON:
            raise ValueError(f"a vocabulary needs a word list with commonness levels: only the English list "
                             f"({SHIPPED_LEXICON!r}) has them, this game uses {self.lexicon!r}")
        return self

    @model_validator(mode="before")
    @classmethod
    def _language_list(cls, data: Any) -> Any:
        """Without `lexicon:`, the game uses its language's shipped list."""
        if isinstance(data, dict) and "lexicon" not in data and data.get("language") in SHIPPED_LISTS:
            return {**data, "lexicon": SHIPPED_LISTS[data["language"]]}
        return data


class GameSpec(Strict):
    name: str
    id: Identifier | None = None
    description: str = ""
    designer: str = ""  # the PDFs' Author
    players: Players
    minutes: tuple[int, int] | None = None
    print: PrintSettings = PrintSettings()
    sizes: dict[str, SizeSpec] = {}
    backs: dict[str, FaceSpec] = {}
    fonts: dict[str, str] = {}
    icons: dict[str, str] = {}
    components: list[str] = Field(min_length=1)
    words: WordsSpec = WordsSpec()
    rules: dict[str, Any] = {}


FieldType = Literal["str", "int", "float", "bool", "list", "map", "str?", "int?", "float?", "bool?", "list?", "map?"]
LetterRole = Literal["auto", "deck", "dice", "tiles", "market", "none"]


class CardsFrom(Strict):
    """A spreadsheet that holds a component's cards, one row per card (docs/yaml.md)."""

    file: str
    sheet: str | None = None  # a workbook's sheet by name (default: the first)
    separator: str = Field(default="|", min_length=1, max_length=3)  # between the items of a list cell


class ComponentSpec(Strict):
    id: Identifier | None = None
    name: str
    kind: ComponentKind = "card"
    size: str | SizeSpec = "poker"
    template: str
    back: str | None = None
    back_template: str | None = None
    fields: dict[str, FieldType] = {}
    defaults: dict[str, Any] = {}
    letters: LetterRole = "auto"
    cards: list[dict[str, Any]] | None = Field(default=None, min_length=1)
    cards_from: str | CardsFrom | None = None  # a spreadsheet file, or {file, sheet, separator}

    @model_validator(mode="after")
    def _one_back(self) -> ComponentSpec:
        if self.back and self.back_template:
            raise ValueError("give either back (a deck back) or back_template (double-sided), not both")
        if (self.cards is None) == (self.cards_from is None):
            raise ValueError("give the cards either as a list (cards:) or as a spreadsheet (cards_from:), one of the two")
        if self.cards_from is not None and not self.fields:
            raise ValueError("a component whose cards come from a spreadsheet needs fields: to type its columns")
        return self

    @property
    def sheet(self) -> CardsFrom | None:
        return CardsFrom(file=self.cards_from) if isinstance(self.cards_from, str) else self.cards_from

    @field_validator("defaults")
    @classmethod
    def _no_reserved(cls, value: dict[str, Any]) -> dict[str, Any]:
        for key in RESERVED_CARD_KEYS:
            if key in value:
                raise ValueError(f"'{key}' cannot have a default")
        return value


RESERVED_CARD_KEYS = ("count", "id", "back")
