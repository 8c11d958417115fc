"""The cards of one game, read once from the YAML: Nature and Spell words, and the Special cards'
powers as data (`effect: {kind: ..., ...}`) read by the small effect vocabulary below."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from spellpress.errors import UserError
from spellpress.model.game import Game
from spellpress.model.memo import memo_on
from spellpress.rules.lost_words.settings import ENGINE, RULE_DEFAULTS, LostWordsSettings
from spellpress.rules.settings import OPTION, settings_for

NATURE, SPELL, SPECIAL = "nature", "spell", "special"
# The effect vocabulary: kind -> its parameters and their defaults. Every effect
# may also say `costs_action` (default true) and `stays` (default false).
EFFECTS: dict[str, dict[str, Any]] = {
    "draw": {"cards": 1},                                   # draw extra cards from the deck
    "extra-actions": {"actions": 1},                        # more actions this turn
    "ask-everyone": {"miss_turns": 1},                      # name a Spell; nobody has it: miss turns
    "knock-off": {"victim_may_replace": True, "replace_draw": 1},  # another player's Spell to the discard
    "swap-pair": {},                                        # take a completed pair, give an uncovered card
    "protect": {},                                          # guard one of your completed pairs
    "wild-spell": {"protects": True},                       # cover any of your Nature cards
}
COMMON_KEYS = {"kind": None, "costs_action": True, "stays": False}


class LostWordsError(ValueError):
    pass


@dataclass(frozen=True)
class Effect:
    kind: str
    params: Mapping[str, Any]
    costs_action: bool
    stays: bool

    def __getitem__(self, key: str) -> Any:
        return self.params[key]


@dataclass
class Defs:
    """The cards of one game, as plain lists indexed by a physical card number."""

    kind: list[str] = field(default_factory=list)          # card -> nature / spell / special
    word: list[str | None] = field(default_factory=list)   # nature and spell cards: their word
    special: list[str | None] = field(default_factory=list)  # special cards: their key (YAML id)
    type_key: list[str] = field(default_factory=list)      # "nature:fern", "spell:fern", "special:the-acorn"
    nature_ids: list[int] = field(default_factory=list)
    spell_ids: list[int] = field(default_factory=list)     # the Spell/Special deck
    effects: dict[str, Effect] = field(default_factory=dict)  # special key -> effect
    names: dict[str, str] = field(default_factory=dict)    # special key -> printed name
    copies: dict[str, int] = field(default_factory=dict)   # spell word -> copies in the deck
    spell_words: list[str] = field(default_factory=list)   # words with Spell cards, in YAML order
    params: dict[str, Any] = field(default_factory=dict)
    printed: list[tuple[str, str]] = field(default_factory=list)  # card -> (component id, card id) it was printed as
    printed_of_key: dict[str, tuple[str, str]] = field(default_factory=dict)  # type_key -> the same
    nature_each: dict[int, int] = field(default_factory=dict)
    cover_to_win: int | str = "all"   # covered Nature cards that win, or "all"

    def word_of(self, card: int) -> str:
        """The word of a Nature or Spell card."""
        word = self.word[card]
        assert word is not None, f"card {card} ({self.type_key[card]}) has no word"
        return word

    def effect_of(self, card: int) -> Effect:
        """The effect of a Special card."""
        key = self.special[card]
        assert key is not None, f"card {card} ({self.type_key[card]}) is not a Special"
        return self.effects[key]

    def to_win(self, players: int) -> int:
        """Covered Nature cards that win at this player count."""
        each = self.nature_each[players]
        return each if self.cover_to_win == "all" else min(int(self.cover_to_win), each)

    @property
    def cards(self) -> int:
        return len(self.kind)

    @cached_property
    def nature_set(self) -> frozenset[int]:
        """nature_ids as a set (the invariants check piles against it after every action)."""
        return frozenset(self.nature_ids)

    @cached_property
    def special_set(self) -> frozenset[int]:
        return frozenset(card for card, kind in enumerate(self.kind) if kind == SPECIAL)

    @cached_property
    def card_word(self) -> list[str]:
        """card -> its word, "" for a Special: word_of without its check, for the loops over rows at every action."""
        return [word or "" for word in self.word]

    @cached_property
    def spell_word(self) -> list[str | None]:
        """card -> its word if it is a Spell, else None (the players count Spells by word in C loops)."""
        return [word if kind == SPELL else None for kind, word in zip(self.kind, self.word, strict=True)]

    @cached_property
    def guards(self) -> list[bool]:
        """card -> whether, covering a Nature card, it protects the pair (a Special whose effect `protects`)."""
        return [kind == SPECIAL and bool(self.effect_of(card).params.get("protects", False))
                for card, kind in enumerate(self.kind)]


def _effect(card) -> Effect:
    raw = card.fields.get("effect")
    where = f"{card.location}: card '{card.id}'"
    if not isinstance(raw, Mapping) or "kind" not in raw:
        raise UserError.at(card.location, f"card '{card.id}' needs an effect mapping with a kind")
    kind = raw["kind"]
    if kind not in EFFECTS:
        raise UserError.at(card.location, f"{where}: unknown effect kind {kind!r} (known: {', '.join(EFFECTS)})")
    allowed = {**COMMON_KEYS, **EFFECTS[kind]}
    unknown = [key for key in raw if key not in allowed]
    if unknown:
        raise UserError.at(card.location, f"{where}: effect {kind!r} has no parameter {', '.join(map(repr, unknown))} "
                                          f"(parameters: {', '.join(k for k in allowed if k != 'kind')})")
    params = {key: raw.get(key, default) for key, default in EFFECTS[kind].items()}
    return Effect(kind, params, bool(raw.get("costs_action", True)), bool(raw.get("stays", False)))


def definitions(game: Game, options: Mapping[str, Any] | None = None) -> Defs:
    """The game's cards and rule numbers (options override game.yaml `rules:`)."""
    options = dict(options or {})
    return memo_on(game, "lost-words", tuple(sorted((k, str(v)) for k, v in options.items())),
                   lambda: _definitions(game, options))


def _definitions(game: Game, options: dict[str, Any]) -> Defs:
    unknown = [name for name in options if name not in LostWordsSettings.model_fields]
    if unknown:
        raise UserError.at(OPTION, f"unknown option {unknown[0]!r} "
                                   f"(options: {', '.join([*RULE_DEFAULTS, 'nature_cards', 'cover_to_win'])})")
    settings = settings_for(game, LostWordsSettings, ENGINE, options)
    params = {name: getattr(settings, name) for name in RULE_DEFAULTS}
    nature_each = (dict(settings.nature_cards) if isinstance(settings.nature_cards, dict)
                   else {players: settings.nature_cards for players in range(1, 11)})
    defs = Defs(params=params, nature_each=nature_each, cover_to_win=settings.cover_to_win)
    for component_id in settings.nature_deck:
        for card in game.component(component_id).cards:
            for _ in range(card.count):
                number = len(defs.kind)
                defs.kind.append(NATURE)
                defs.word.append(str(card["word"]))
                defs.special.append(None)
                defs.type_key.append(f"nature:{card['word']}")
                defs.printed.append((component_id, card.id))
                defs.nature_ids.append(number)
    for component_id in settings.spell_deck:
        for card in game.component(component_id).cards:
            if "effect" in card.fields:
                effect = _effect(card)
                defs.effects[card.id] = effect
                defs.names[card.id] = str(card.get("name", card.id))
            for _ in range(card.count):
                number = len(defs.kind)
                defs.printed.append((component_id, card.id))
                if "effect" in card.fields:
                    defs.kind.append(SPECIAL)
                    defs.word.append(None)
                    defs.special.append(card.id)
                    defs.type_key.append(f"special:{card.id}")
                else:
                    word = str(card["word"])
                    defs.kind.append(SPELL)
                    defs.word.append(word)
                    defs.special.append(None)
                    defs.type_key.append(f"spell:{word}")
                    if word not in defs.copies:
                        defs.spell_words.append(word)
                    defs.copies[word] = defs.copies.get(word, 0) + 1
                defs.spell_ids.append(number)
    for number, type_key in enumerate(defs.type_key):
        defs.printed_of_key.setdefault(type_key, defs.printed[number])
    return defs
