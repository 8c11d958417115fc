"""Magic Spell's tiles and spells, read once per game from the YAML; spell effects stay data,
named by the small vocabulary below and interpreted by the state (state.py)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Literal, get_args

from spellpress.model.game import Game
from spellpress.model.memo import memo_on
from spellpress.rules.magic_spell.actions import MIXED, LabDraw, SpellDraw, Take, TileDraw

CastEffect = Literal["spirit", "draw", "scrounge", "weaves", "research", "transmute",
                     "steal", "swap", "drain", "siphon", "scatter", "unweave", "tamper"]
CAST_EFFECTS: tuple[str, ...] = get_args(CastEffect)
VICTIM_EFFECTS = ("steal", "swap", "drain", "siphon", "scatter", "unweave", "tamper")
LastingEffect = Literal["cabinet", "homework", "rest", "regen", "research_discount", "free_weave", "second_look", "ward"]
LASTING_EFFECTS: tuple[str, ...] = get_args(LastingEffect)


class Letters(Counter):
    """A Counter of letters, made without Counter's own checks: the letters a spell or a student
    still needs are counted anew after most moves, and Counter(...) costs eight times as much."""

    __init__ = dict.__init__


@dataclass(frozen=True)
class Spell:
    index: int
    id: str
    word: str  # lower case
    need: tuple[tuple[str, int], ...]  # letter counts of the word
    credits: int
    cost: int
    who: str | None
    effects: tuple[tuple[str, int], ...]
    always: tuple[tuple[str, int], ...]

    @property
    def castable(self) -> bool:
        return bool(self.effects)


class Catalog:
    """The game's cards and numbers, read once from the loaded YAML."""

    def __init__(self, game: Game):
        rules = game.spec.rules
        self.params = {key: rules[key] for key in (
            "start_ingredients", "start_spells", "start_spirit", "homework_limit", "cabinet_limit", "goal",
            "research_cost", "rest_gain", "recover_below", "extra_weave_cost", "move_weave_cost",
            "stone_credit", "stones_per_spell")}
        self.letters: list[str] = []  # tile id -> letter ("*", "!", "?" for stones)
        self.stone: list[bool] = []
        self.tile_cards: list[str] = []  # tile id -> the id of the ingredient card it was printed as
        self.letter_cards: dict[str, str] = {}  # letter -> the first ingredient card of that letter
        for card in game.component("ingredients").cards:
            self.letter_cards.setdefault(str(card["letter"]).lower(), card.id)
            for _ in range(card.count):
                self.tile_cards.append(card.id)
                self.letters.append(str(card["letter"]).lower())
                self.stone.append(bool(card.get("stone", False)))
        self.spells: list[Spell] = []
        for card in game.component("spells").cards:
            if card.count != 1:
                raise ValueError(f"spell {card.id}: every spell is a single card")
            effects = tuple((str(k), int(v)) for k, v in (card.get("effects") or {}).items())
            always = tuple((str(k), int(v)) for k, v in (card.get("always") or {}).items())
            for key, _ in effects:
                if key not in CAST_EFFECTS:
                    raise ValueError(f"spell {card.id}: unknown effect '{key}' (known: {', '.join(CAST_EFFECTS)})")
            for key, _ in always:
                if key not in LASTING_EFFECTS:
                    raise ValueError(f"spell {card.id}: unknown lasting effect '{key}' (known: {', '.join(LASTING_EFFECTS)})")
            who = card.get("who")
            if any(key in VICTIM_EFFECTS for key, _ in effects) and who not in ("target", "others"):
                raise ValueError(f"spell {card.id}: effects on other students need who: target or others")
            word = str(card["word"]).lower()
            self.spells.append(Spell(len(self.spells), card.id, word, tuple(sorted(Counter(word).items())),
                                     int(card["credits"]), int(card.get("cost") or 0), who, effects, always))
        demand: Counter[str] = Counter()
        for spell in self.spells:
            demand.update(spell.word)
        total = sum(demand.values()) or 1
        self.demand = {letter: demand[letter] / total for letter in set(self.letters)}
        # for the invariant checks: every tile, the tiles of each letter, every spell, each spell's letters
        self.all_tiles = frozenset(range(len(self.letters)))
        by_letter: dict[str, set[int]] = {}
        for tile, letter in enumerate(self.letters):
            by_letter.setdefault(letter, set()).add(tile)
        self.tiles_of = {letter: frozenset(tiles) for letter, tiles in by_letter.items()}
        self.all_spells = frozenset(range(len(self.spells)))
        self.spell_credits = [spell.credits for spell in self.spells]  # spell -> its credits, for scoring
        self.castable = [spell.castable for spell in self.spells]  # spell -> has it effects to cast
        self.spell_needs = [dict(spell.need) for spell in self.spells]  # spell -> letter -> how many its word has
        self.spell_always: list[dict[str, int]] = []  # spell -> lasting effect -> its total
        for spell in self.spells:
            totals: dict[str, int] = {}
            for key, n in spell.always:
                totals[key] = totals.get(key, 0) + n
            self.spell_always.append(totals)
        # the chance outcomes, made once: a letter from the unseen laboratory, a spell, a tile
        self.lab_letters = sorted(set(self.letters))
        self.no_tiles = [()] * len(self.lab_letters)  # what the laboratory holds of a letter it has none of
        self.lab_draws = [LabDraw("lab", letter) for letter in self.lab_letters]
        self.lab_index = {letter: i for i, letter in enumerate(self.lab_letters)}
        # every take of a laboratory tile, by verb: the known tile's, then (last) an unseen one's
        self.takes = {verb: [Take(verb, tile) for tile in range(len(self.letters))] + [Take(verb, MIXED)]
                      for verb in ("scrounge", "pick")}
        self.spell_draws = [SpellDraw("spell", sid) for sid in range(len(self.spells))]
        self.pick_draws = [TileDraw("pick", tile) for tile in range(len(self.letters))]
        # no homework limit is ever below this (lasting homework effects may be negative)
        self.homework_floor = self.params["homework_limit"] + sum(
            min(0, n) for spell in self.spells for key, n in spell.always if key == "homework")
        self.fitting_claims: set[tuple[int, tuple]] = set()

    def fits(self, sid: int, pairs: list[tuple[int, str]]) -> bool:
        """Do the letters these woven (tile, letter) pairs claim all fit in the spell's word? The
        claims found to fit are remembered in `fitting_claims` (the invariant checks ask after every
        action, mostly about the same spells), forgotten when there are many."""
        claimed = Counter(letter for _, letter in pairs)
        if claimed - Counter(self.spells[sid].word):
            return False
        if len(self.fitting_claims) > 100_000:
            self.fitting_claims.clear()
        self.fitting_claims.add((sid, tuple(pairs)))
        return True


def catalog(game: Game) -> Catalog:
    return memo_on(game, "magic-spell", None, lambda: Catalog(game))
