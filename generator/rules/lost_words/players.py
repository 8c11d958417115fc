"""The heuristic player: covers what it can, keeps the Spells its Nature cards need, and plays the
Specials where they gain the most."""

from __future__ import annotations

from collections import defaultdict
from itertools import chain
from typing import Any

from spellpress.rules.lost_words.actions import (
    DRAW_DECK,
    DRAW_DISCARD,
    PASS,
    REPLACE,
    Action,
    Discard,
    Exchange,
    Place,
    Play,
    PlayOn,
    PlaySwap,
    PlayWord,
)
from spellpress.rules.lost_words.content import SPECIAL, SPELL
from spellpress.rules.lost_words.state import DISCARD, DRAW, NONE, REPLY, LostWordsState
from spellpress.rules.protocol import Player

SPECIAL_VALUE = {  # how much a heuristic player values holding a Special, by effect kind
    "wild-spell": 90, "swap-pair": 60, "knock-off": 40, "extra-actions": 30,
    "ask-everyone": 25, "draw": 20, "protect": 12,
}


class LostWordsPlayer(Player[LostWordsState]):
    """A heuristic player. Reads only public information and its own hand.

    Public: every row, the spares, the whole discard pile (every card was seen as
    it was discarded), the deck size and hand sizes. With probability
    1 - skill a decision is a uniformly random legal action.
    """

    name = "lost-words heuristic"

    def __init__(self, skill: float = 1.0, heron_threshold: float = 0.0):
        self.skill = skill
        self.heron_threshold = heron_threshold
        self.name = f"lost-words heuristic (skill {skill:g})"

    def act(self, state: LostWordsState, seat: int, rng) -> Any:
        if self.skill < 1.0 and rng.random() >= self.skill:
            return rng.choice(list(state.legal_actions()))
        if state.phase == DRAW:
            return self._draw(state, seat)
        if state.phase == REPLY:
            return REPLACE
        if state.phase == DISCARD:
            return self._discard(state, seat)
        return self._action(state, seat)

    # public knowledge
    @staticmethod
    def _unseen(state: LostWordsState, seat: int) -> defaultdict[str | None, int]:
        """Copies of each Spell not visible to `seat`: in the deck or in other hands."""
        defs = state.defs
        unseen: defaultdict[str | None, int] = defaultdict(int)  # a word without Spell cards: 0
        unseen.update(defs.copies)
        for word in map(defs.spell_word.__getitem__, chain(
                [cover for row in state.rows for _, cover, _ in row if cover != NONE], state.discard, state.hands[seat])):
            if word is not None:
                unseen[word] -= 1
        return unseen

    def _draw(self, state: LostWordsState, seat: int) -> Any:
        defs = state.defs
        if state.discard and defs.kind[state.discard[-1]] == SPELL:
            word = defs.word[state.discard[-1]]
            if word in state.uncovered_words(seat) and not state.hand_spells(seat).get(word):
                return DRAW_DISCARD
        return DRAW_DECK if (state.deck or len(state.discard) > 1) else state.legal_actions()[0]

    def _card_value(self, state: LostWordsState, seat: int, card: int, hand_spells: dict[str, int], uncovered: set,
                    spares: set, wanted_by_others: set) -> float:
        defs = state.defs
        kind = defs.kind[card]
        if kind == SPECIAL:
            effect = defs.effect_of(card)
            value: float = SPECIAL_VALUE.get(effect.kind, 10)
            if effect.kind == "protect":
                value = 15 if any(s[1] != NONE and not state.protected(s) for s in state.rows[seat]) else 5
            return value
        word = defs.card_word[card]
        if word in uncovered:
            return 100 if hand_spells.get(word) == 1 else 6
        index = state.slot_of(seat, word)
        value = 2.0
        if index >= 0 and not state.protected(state.rows[seat][index]):
            value = 8  # a spare copy re-covers the pair after a Conker
        elif word in spares:
            value = 5
        if word in wanted_by_others:
            value += 3  # keep it off the discard pile
        return value

    def _discard(self, state: LostWordsState, seat: int) -> Any:
        defs = state.defs
        hand_spells = state.hand_spells(seat)
        uncovered = set(state.uncovered_words(seat))
        spares = {defs.word[c] for c in state.spares}
        word = defs.card_word  # the other seats' uncovered words (uncovered_words, written out for each)
        wanted = {word[nature] for s, row in enumerate(state.rows) if s != seat for nature, cover, _ in row if cover == NONE}
        worst = min(state.hands[seat], key=lambda c: (self._card_value(state, seat, c, hand_spells, uncovered, spares, wanted),
                                                      defs.type_key[c]))
        return Discard("discard", defs.type_key[worst])

    def _action(self, state: LostWordsState, seat: int) -> Action:
        table = _Reading(state, seat)
        return (self._first_moves(table) or self._cover(table) or self._exchange(table) or self._later_specials(table)
                or PASS)

    @staticmethod
    def _first_moves(table: _Reading) -> Action | None:
        """The Lark when it turns into two useful actions this turn; a Magpie or Conker on a leader one card
        from winning."""
        specials = table.specials
        useful = len(table.placeable) + (1 if "swap-pair" in specials and table.targets else 0) \
            + (1 if "wild-spell" in specials and table.worst_uncovered() else 0)
        if "extra-actions" in specials and useful >= 2 and table.mine_left >= 2:
            return Play("play", specials["extra-actions"])
        if "swap-pair" in specials and table.threat:
            return table.magpie()
        if "knock-off" in specials and table.threat:
            return table.conker()
        return None

    @staticmethod
    def _cover(table: _Reading) -> Action | None:
        """Cover a Nature card: with a Spell (the one least likely to come again), the Wild One, or a Magpie."""
        placeable = table.placeable
        if placeable:
            return Place("place", placeable[0] if len(placeable) == 1 else min(placeable, key=lambda w: (table.unseen[w], w)))
        if "wild-spell" in table.specials:
            worst = table.worst_uncovered()
            if worst:
                return PlayWord("play", table.specials["wild-spell"], worst)
        if "swap-pair" in table.specials and table.targets:
            return table.magpie()
        return None

    @staticmethod
    def _exchange(table: _Reading) -> Action | None:
        """Exchange a hopeless card for a spare we hold the Spell for, or a better one."""
        spells = table.spells
        spare_words = [table.state.defs.word_of(c) for c in table.state.spares]
        held_spares = [s for s in spare_words if spells.get(s)]
        worst = table.worst_uncovered() if held_spares else None
        if worst:
            return Exchange("exchange", worst, held_spares[0])
        unseen = table.unseen
        hopeless = [w for w in table.uncovered if unseen[w] == 0 and not spells.get(w)]
        if hopeless:
            best = max(spare_words, key=lambda s: (unseen[s], s))
            if unseen[best] > 0:
                return Exchange("exchange", hopeless[0], best)
        return None

    def _later_specials(self, table: _Reading) -> Action | None:
        """The Specials left: a Conker on a leader no further from winning, then draw, ask, wall, any Conker."""
        state, seat, specials = table.state, table.seat, table.specials
        if "knock-off" in specials and table.targets and table.left[table.leader] <= table.mine_left:
            return table.conker()
        if "draw" in specials:
            return Play("play", specials["draw"])
        if "ask-everyone" in specials:
            asked = self._heron_target(state, seat, table.uncovered, table.spells, table.unseen)
            if asked is not None:
                return PlayWord("play", specials["ask-everyone"], asked)
        if "protect" in specials:
            open_pairs = [state.defs.word_of(s[0]) for s in state.rows[seat] if s[1] != NONE and not state.protected(s)]
            if open_pairs:
                return PlayWord("play", specials["protect"], open_pairs[0])
        if "knock-off" in specials and table.targets:
            return table.conker()
        return None

    def _heron_target(self, state: LostWordsState, seat: int, uncovered: list[str], spells: dict[str, int],
                      unseen: defaultdict[str | None, int]) -> str | None:
        """The needed Spell most likely to be in another hand, if likely enough."""
        others = sum(len(h) for s, h in enumerate(state.hands) if s != seat)
        pool = others + len(state.deck)
        if pool == 0:
            return None
        share = others / pool
        best, chance = None, 0.0
        for word in uncovered:
            if spells.get(word) or unseen[word] <= 0:
                continue
            p = 1.0 - (1.0 - share) ** unseen[word]
            if p > chance:
                best, chance = word, p
        return best if chance >= self.heron_threshold else None


class _Reading:
    """What the heuristic player reads off the table before an action: its uncovered Nature cards, the
    Spells and Specials (effect kind -> key) in hand; the unseen Spells and the race (the pairs it can
    attack, the seats' cards still to cover, the leader) are worked out when a rule asks for them: most
    actions need neither (a plain slotted class: a dataclass's __init__ costs more at every action)."""

    __slots__ = ("state", "seat", "uncovered", "spells", "specials", "placeable", "_unseen", "_targets", "_left",
                 "_leader")

    def __init__(self, state: LostWordsState, seat: int):
        self.state, self.seat = state, seat
        self.uncovered = uncovered = state.uncovered_words(seat)
        self.spells = spells = state.hand_spells(seat)
        effects = state.defs.effects
        self.specials = {effects[key].kind: key for key in state.hand_specials(seat)}
        self.placeable = [w for w in uncovered if spells.get(w)]
        self._unseen: defaultdict[str | None, int] | None = None
        self._targets: list[tuple[int, str]] | None = None
        self._left: dict[int, int] = {}
        self._leader = -1

    @property
    def unseen(self) -> defaultdict[str | None, int]:
        """Copies of each Spell the seat cannot see (LostWordsPlayer._unseen)."""
        if self._unseen is None:
            self._unseen = LostWordsPlayer._unseen(self.state, self.seat)
        return self._unseen

    @property
    def targets(self) -> list[tuple[int, str]]:
        """The pairs the seat can attack: (victim, word)."""
        if self._targets is None:
            self._race()
        assert self._targets is not None
        return self._targets

    @property
    def left(self) -> dict[int, int]:
        """Nature cards still to cover, for this seat and each seat it can attack."""
        if self._targets is None:
            self._race()
        return self._left

    @property
    def leader(self) -> int:
        """The opponent nearest to winning among those with pairs to attack, or -1."""
        if self._targets is None:
            self._race()
        return self._leader

    def _race(self) -> None:
        state, seat = self.state, self.seat
        self._targets = targets = state.attackable(seat)
        victims = {v for v, _ in targets}
        self._left = left = {s: state.still_to_cover(s) for s in {seat, *victims}}
        self._leader = min(victims, key=lambda v: (left[v], (v - seat) % state.players)) if victims else -1

    @property
    def threat(self) -> bool:
        return self.leader >= 0 and self.left[self.leader] <= 1

    @property
    def mine_left(self) -> int:
        return self.left[self.seat] if self._targets is not None else self.state.still_to_cover(self.seat)

    def worst_uncovered(self, exclude_held: bool = True) -> str | None:
        """The uncovered card whose Spell is least likely to turn up (by default one not held)."""
        pool = [w for w in self.uncovered if not (exclude_held and self.spells.get(w))]
        if len(pool) <= 1:
            return pool[0] if pool else None
        return min(pool, key=lambda w: (self.unseen[w], w))

    def magpie(self) -> PlaySwap:
        give = self.worst_uncovered() or self.worst_uncovered(False)
        assert give is not None  # a seat with every card covered has won: it acts no more
        pairs = [w for v, w in self.targets if v == self.leader]
        return PlaySwap("play", self.specials["swap-pair"], self.leader, sorted(pairs)[0], give)

    def conker(self) -> PlayOn:
        pairs = [w for v, w in self.targets if v == self.leader]
        # prefer a pair whose other copy is out of reach (so it cannot be put back)
        word = min(pairs, key=lambda w: (self.unseen[w], w))
        return PlayOn("play", self.specials["knock-off"], self.leader, word)
