"""Evocabulary's cards as the engine needs them, read once per game from the YAML: letters and
wilds (letter, points), familiars (actions on each side), leaders (length, limit, actions on the
side in play) and achievements (pile, what they ask, what they pay)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import repeat
from typing import Any

from spellpress.model.game import Game
from spellpress.model.memo import memo_on
from spellpress.rules.evocabulary.actions import MainAction
from spellpress.rules.evocabulary.settings import ACTIONS
from spellpress.rules.evocabulary.words import WILD, Words


@dataclass(frozen=True)
class Leader:
    length: int
    or_more: bool
    limit: int
    actions: tuple[str, ...]


@dataclass(frozen=True)
class Achievement:
    id: str
    pile: str
    letters: int
    syllables: int
    or_more: bool
    points: int
    multiplier: int
    players: int

    def met_by(self, word: str, words: Words) -> bool:
        if self.letters:
            return len(word) >= self.letters if self.or_more else len(word) == self.letters
        return words.syllables(word) == self.syllables


class Content:
    """The game's cards as the engine needs them, read once from the loaded Game."""

    def __init__(self, game: Game, side: str):
        rules = game.spec.rules
        self.hand_size = int(rules.get("hand_size", 7))
        self.min_spell = int(rules.get("min_spell", 3))
        self.market_size = int(rules.get("market_size", 3))
        self.max_wilds = int(rules.get("achievement_max_wilds", 1))
        self.spell_max_wilds = int(rules.get("spell_max_wilds", 2))
        if not 0 <= self.spell_max_wilds <= 2:
            raise ValueError(f"rules.spell_max_wilds: 0, 1 or 2 wilds in a spell, got {self.spell_max_wilds}")
        self.letter: list[str] = []  # per letter-card id: lowercase letter or "?"
        self.points: list[int] = []
        self.printed: list[tuple[str, str]] = []  # per letter-card id: (component id, card id) it was printed as
        for component in ("letters", "wilds"):
            for card in game.component(component).cards:
                letter = str(card["letter"]).lower()
                if letter != WILD and not (len(letter) == 1 and letter.isalpha()):
                    raise ValueError(f"letter card {card.id}: single letters only, got {card['letter']!r}")
                for _ in range(card.count):
                    self.letter.append(letter)
                    self.points.append(int(card["points"]))
                    self.printed.append((component, card.id))
        self.letter_points = {char: p for char, p in zip(self.letter, self.points, strict=False) if char != WILD}
        self.fam_defs: list[tuple[str, tuple[tuple[str, ...], tuple[str, ...]]]] = []
        self.fam_def_of: list[int] = []  # physical familiar -> definition index
        for card in game.component("familiars").cards:
            sides = (tuple(card.fields["actions"]), tuple(card.back_fields["actions"]))
            for side_actions in sides:
                for a in side_actions:
                    if a not in ACTIONS:
                        raise ValueError(f"familiar {card.id}: unknown action {a!r} (known: {', '.join(ACTIONS)})")
            self.fam_defs.append((card.id, sides))
            self.fam_def_of.extend([len(self.fam_defs) - 1] * card.count)
        self.leaders: dict[int, Leader] = {}
        for card in game.component("leaders").cards:
            fields = card.fields if side == str(card.fields.get("side", "A")) else card.back_fields
            if str(fields.get("side", "A")) != side:
                raise ValueError(f"leader {card.id} has no side {side!r}")
            actions = tuple(fields["actions"])
            for a in actions:
                if a not in ACTIONS:
                    raise ValueError(f"leader {card.id}: unknown action {a!r}")
            self.leaders[int(card["length"])] = Leader(int(card["length"]), bool(card["or_more"]), int(card["limit"]), actions)
        self.teams = tuple(sorted(self.leaders))
        self.achievements = [
            Achievement(c.id, str(c["pile"]), int(c["letters"]), int(c["syllables"]), bool(c["or_more"]),
                        int(c["points"]), int(c["multiplier"]), int(c["players"]))
            for c in game.component("achievements").cards for _ in range(c.count)]
        self.ach_by_id = {a.id: a for a in self.achievements}
        self.piles = list(dict.fromkeys(a.pile for a in self.achievements))
        self.words = Words(game)
        self._pts: dict[str, int] = {}
        self._top_letter: dict[str, int] = {}
        self.scoring_plays: dict[tuple, MainAction | None] = {}  # EvoState.scoring_play's answers by the seat's letters
        self.can_score: dict[tuple, bool] = {}  # EvoState.can_score's, the same way
        self.bonuses: dict[tuple[str, ...], Any] = {}  # main_search.Bonuses by the achievements atop the piles
        # team_of for every length up to one past the longest team's, which stands for all longer ones
        self._team_by_length = [self._team_of(n) for n in range(max(self.teams, default=0) + 2)]

    def pts(self, letters: str) -> int:
        """Points of these (non-wild) letters, memoized."""
        p = self._pts.get(letters)
        if p is None:
            p = self._pts[letters] = sum(map(self.letter_points.__getitem__, letters))
        return p

    def top_letter(self, letters: str) -> int:
        """The highest letter points among these (non-wild) letters, memoized."""
        t = self._top_letter.get(letters)
        if t is None:
            t = self._top_letter[letters] = max(map(self.letter_points.get, letters, repeat(0)), default=0)
        return t

    def team_of(self, length: int) -> int | None:
        """The team a spell of this many letters goes to (None: no team takes it)."""
        table = self._team_by_length
        return table[length] if length < len(table) else table[-1]

    def _team_of(self, length: int) -> int | None:
        if length < self.min_spell:
            return None
        if length in self.leaders:
            return length
        for t in reversed(self.teams):
            if self.leaders[t].or_more and length >= t:
                return t
        return None


def content_for(game: Game, side: str) -> Content:
    return memo_on(game, "evocabulary", side, lambda: Content(game, side))
