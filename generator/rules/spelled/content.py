"""Spelled's cards, read once per game from the YAML: every physical card as a uid -> CardDef
table, its abilities kept as data in a small vocabulary (ABILITIES) that the state interprets."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any, Literal, get_args

from spellpress.model.game import Game
from spellpress.model.memo import memo_on
from spellpress.words.finder import for_words
from spellpress.words.index import key as letter_key

# The effect vocabulary: ability name -> what gaining it does (see State._gain).
Ability = Literal["energy", "damage", "heal", "draw", "scrap_hand", "scrap_discard", "scrap_market",
                  "acquire", "to_hand", "to_top", "discard", "destroy"]
ABILITIES: tuple[str, ...] = get_args(Ability)
TOKENS = ("scrap_hand", "scrap_discard", "scrap_market", "to_hand", "to_top", "discard", "destroy")
AT_ONCE = ("energy", "heal", "draw")  # used the moment they are gained
Kind = Literal["effect", "shield", "totem"]
KINDS: tuple[str, ...] = get_args(Kind)
LASTING = ("shield", "totem")


@dataclass(frozen=True)
class CardDef:
    key: str          # the card's id in its YAML file
    origin: str       # starter, reserve or market
    letter: str       # lower case
    cost: int
    damage: int
    kind: str         # effect, shield, totem
    strength: int
    fragment: tuple   # ((ability, amount), ...)
    spelled: tuple    # (box, ...)
    scrap: tuple | None


def _box(raw: Any, where: str) -> tuple:
    if raw is None:
        return ()
    items = tuple((str(k), int(v)) for k, v in dict(raw).items())
    for name, amount in items:
        if name not in ABILITIES:
            raise ValueError(f"{where}: unknown ability '{name}' (known: {', '.join(ABILITIES)})")
        if amount < 1:
            raise ValueError(f"{where}: ability '{name}' needs a positive amount")
    return items


def _card_def(card, origin: str) -> CardDef:
    f = card.fields
    kind = f.get("type", "effect")
    if kind not in KINDS:
        raise ValueError(f"{card.id}: type must be one of {KINDS}")
    scrap = f.get("scrap")
    return CardDef(
        key=card.id, origin=origin, letter=str(f["letter"]).lower(), cost=int(f.get("cost", 0)),
        damage=int(f.get("damage", 0)), kind=kind, strength=int(f.get("strength") or 0),
        fragment=_box(f.get("fragment"), card.id),
        spelled=tuple(_box(b, card.id) for b in (f.get("spelled") or ())),
        scrap=_box(scrap, card.id) if scrap else None)


class Catalog:
    """Every physical card of one game as a uid -> CardDef table, and the word finder."""

    def __init__(self, game: Game):
        spec = game.spec
        self.rules = dict(spec.rules)
        self.sides = int(self.rules.get("sides", 2))
        self.defs: list[CardDef] = []
        self.starters: list[list[int]] = [[] for _ in range(self.sides)]
        for card in game.component("starter").cards:
            d = _card_def(card, "starter")
            if card.count % self.sides:
                raise ValueError(f"{card.id}: starter count {card.count} must divide among {self.sides} sides")
            for side in range(self.sides):
                for _ in range(card.count // self.sides):
                    self.starters[side].append(self._add(d))
        self.reserve = [self._add(_card_def(c, "reserve")) for c in game.component("reserve").cards for _ in range(c.count)]
        self.market = [self._add(_card_def(c, "market")) for c in game.component("market").cards for _ in range(c.count)]
        self.market_keys = sorted({self.defs[u].key for u in self.market})
        words = spec.words
        self.min_letters = int(self.rules.get("spell_min_letters", 3))
        _, self.finder = for_words(words, min_length=self.min_letters)
        self.keys = self.finder.index.by_key
        # for the invariant checks: every card, the shields and totems, the reserve vowels
        self.all_cards = frozenset(range(len(self.defs)))
        self.lasting_cards = frozenset(u for u, d in enumerate(self.defs) if d.kind in LASTING)
        self.reserve_cards = frozenset(u for u, d in enumerate(self.defs) if d.origin == "reserve")
        self._spellable: dict[tuple[str, ...], tuple[tuple[int, ...], ...]] = {}

    def spellable(self, letters: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
        """The positions in `letters` (a hand's card letters) of every combination of spell_min_letters or
        more that makes a word, in the order `itertools.combinations` gives them; memoized by hand
        (the memo emptied when it grows large)."""
        found = self._spellable.get(letters)
        if found is None:
            if len(self._spellable) > 100_000:
                self._spellable.clear()
            found = self._spellable[letters] = tuple(
                at for n in range(self.min_letters, len(letters) + 1) for at in combinations(range(len(letters)), n)
                if letter_key("".join(letters[i] for i in at)) in self.keys)
        return found

    def _add(self, d: CardDef) -> int:
        self.defs.append(d)
        return len(self.defs) - 1


def catalog(game: Game) -> Catalog:
    return memo_on(game, "spelled", None, lambda: Catalog(game))
