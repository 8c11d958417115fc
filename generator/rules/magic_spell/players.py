"""The heuristic player: memory of face-up returns (the skill knob), spell choice, casting."""

from __future__ import annotations

import random
from collections import Counter
from itertools import compress, filterfalse, repeat
from typing import NamedTuple

from spellpress.rules.magic_spell.actions import (
    KEEP,
    NO_TARGET,
    RESEARCH,
    REST,
    RETURN,
    STOP,
    Cast,
    Drop,
    TileChoice,
    Weave,
)
from spellpress.rules.magic_spell.content import Letters
from spellpress.rules.magic_spell.state import MagicSpellState, _spares
from spellpress.rules.protocol import Player

STUCK_TURNS = 20  # a heuristic gives up on a spell after this many of its own turns without progress
MEMORY_SPANS = {"none": 0, "partial": 6, "perfect": None}
# The heuristic's weight on spells that hit other students: 1.0 cast about one spell a game, so
# spell effects were barely exercised; at 1.75 it casts five times as often, and this player
# wins 31.3% against two 1.0 players (900 three-player games, fair 33.3%): about as strong.
ATTACK_WEIGHT = 1.75


class _Reach(NamedTuple):
    """What a cast can reach this turn: the letters still needed, the cabinet tiles among them, the
    spirit left after paying, and the useful tiles the lab is thought to hold."""

    needs: Counter
    matches: int
    spirit_left: int
    lab: int


class _Table(NamedTuple):
    """What weighing a cast finds of the position, the same for every spell: the students it may
    hit (not warded), the letters still needed, the cabinet tiles among them, the useful tiles the
    lab is thought to hold."""

    others: list[int]
    needs: Counter
    matches: int
    lab: int


class MagicSpellPlayer(Player[MagicSpellState]):
    """Picks spells it can finish, scrounges with memory, casts when a spell is worth it.

    `memory` is how many of the most recent face-up returns it remembers: 0 (none),
    a span (partial, 6 by default) or None (perfect). It reads only public facts
    (face-up returns, spellbooks, spirit, cabinet sizes) and its own cabinet and homework.
    """

    def __init__(self, memory: int | None = None, name: str | None = None, attack_weight: float = ATTACK_WEIGHT):
        self.memory = memory
        self.attack_weight = attack_weight
        self.name = name or ("heuristic-" + ("perfect" if memory is None else "none" if memory == 0 else f"memory{memory}"))

    # ---- memory ------------------------------------------------------------------
    def remembered(self, state: MagicSpellState, seat: int) -> dict[int, str]:
        span = state.options.get("memory")
        span = MEMORY_SPANS[span] if isinstance(span, str) else self.memory
        if span is None:
            return state.known_letters()
        if span == 0:
            return {}
        cutoff = state.serial - span
        return {t: state.cat.letters[t] for t, serial in state.known.items() if serial > cutoff}

    def pick_slot(self, state: MagicSpellState, seat: int, rng: random.Random, needs: Letters, verb: str,
                  memory: dict[int, str] | None = None):
        known = state.takeable_known(verb)
        if memory is None:
            memory = self.remembered(state, seat)
        # the remembered tiles whose letter is needed (needs holds only letters still needed, so `in` is
        # a count above 0), and the tiles not remembered: map/compress/filterfalse, no Python loop per tile
        wanted = list(compress(known, map(needs.__contains__, map(memory.get, known))))
        takes = state.cat.takes[verb]  # the takes, made once: a known tile's by its number, an unseen one's last
        if wanted:
            return takes[min(wanted, key=lambda t: self._weave_rank(state, seat, state.cat.letters[t], needs))]
        unknown = list(filterfalse(memory.__contains__, known))
        total = state.mixed_count + len(unknown)
        if total == 0:  # everything left is remembered and useless: take the most useful letter
            return takes[max(known, key=lambda t: state.cat.demand.get(state.cat.letters[t], 0))]
        if rng.random() * total < state.mixed_count:
            return takes[-1]
        return takes[unknown[int(rng.random() * len(unknown))]]

    # ---- evaluation -----------------------------------------------------------------
    def best_spell_for(self, state: MagicSpellState, seat: int, letter: str, exclude: int | None = None):
        best, key = None, None
        if letter not in state.needs(seat):  # no spell of the homework needs it (mostly, for a scrounged tile)
            return None
        for sid in state.homework[seat]:
            if sid == exclude:
                continue
            left = state.remaining(sid)
            if letter not in left:  # it holds only the letters still needed
                continue
            rank = (sum(left.values()), -state.cat.spells[sid].credits)
            if key is None or rank < key:
                best, key = sid, rank
        return best

    def _weave_rank(self, state, seat, letter, needs) -> int:
        return -needs[letter]

    def cabinet_weave(self, state: MagicSpellState, seat: int):
        """The best weave from the cabinet (completing spells first), or None."""
        cabinet = state.cabinet[seat]
        best = None
        # mostly (in the extra phase, after a weave) no cabinet letter is one the homework needs (a
        # stone's never is): then no spell is ranked
        if not state.needs(seat).keys().isdisjoint(map(state.cat.letters.__getitem__, cabinet)):
            best = self._letter_weave(state, seat, cabinet)
        if best is None and state.stones:
            for tile in state.cabinet[seat]:
                if state.cat.stone[tile]:
                    for sid in state.homework[seat]:
                        left = state.remaining(sid)
                        if sum(left.values()) == 1:
                            letter = next(iter(left))
                            if state.can_weave(seat, tile, sid, letter):
                                return Weave("weave", tile, sid, letter)
        return best

    @staticmethod
    def _letter_weave(state: MagicSpellState, seat: int, cabinet: list[int]) -> Weave | None:
        """The best weave of a cabinet letter (no stone): onto the spell closest to done."""
        best, key = None, None
        letters, stone, credits = state.cat.letters, state.cat.stone, state.cat.spell_credits
        # best_spell_for for every tile, each spell's rank worked out once
        homework = [(sum(left.values()), credits[sid], sid, left) for sid in state.homework[seat]
                    for left in (state.remaining(sid),)]
        for tile in cabinet:
            if stone[tile]:
                continue
            letter = letters[tile]
            found = None
            for entry in homework:
                if letter in entry[3] and (found is None or entry[0] < found[0]
                                           or (entry[0] == found[0] and entry[1] > found[1])):
                    found = entry
            if found is not None and (key is None or found[0] < key):
                best, key = Weave("weave", tile, found[2], letter), found[0]
        return best

    def cast_value(self, state: MagicSpellState, seat: int, sid: int,
                   memory: dict[int, str] | None = None, table: _Table | None = None) -> tuple[float, int]:
        """What casting the spell is worth to this seat, and whom it targets; -1 when it cannot be cast.
        `table`: what `_table` found of this position (the same for every spell the seat weighs)."""
        spell = state.cat.spells[sid]
        if spell.cost > state.spirit[seat]:
            return -1.0, -1
        if table is None:
            table = self._table(state, seat, memory)
        others = table.others
        if spell.who == "target":
            if not others:
                return -1.0, -1
            leader = max(others, key=lambda s: (state.credits(s), len(state.cabinet[s]), -s))
            victims = [leader]
        else:
            victims = others if spell.who == "others" else []
        reach = _Reach(table.needs, table.matches, state.spirit[seat] - spell.cost, table.lab)
        value = -0.25 * spell.cost
        for key, n in spell.effects:
            own = self._own_effect_value(state, seat, key, n, reach)
            if own is not None:
                value += own
                continue
            for victim in victims:  # added one by one, so the sum is the same to the last bit
                value += self._attack_value(state, seat, victim, key, n, reach.needs)
        return value, (victims[0] if spell.who == "target" else NO_TARGET)

    def _table(self, state: MagicSpellState, seat: int, memory: dict[int, str] | None) -> _Table:
        """The students a spell may hit, and what a cast can reach this turn but for its cost."""
        others = [s for s in range(state.players) if s != seat and not state.warded(s)]
        needs = state.needs(seat)  # letters still needed: membership is a count above 0
        matches = sum(map(needs.__contains__, map(state.cat.letters.__getitem__, state.cabinet[seat])))
        if memory is None:
            memory = self.remembered(state, seat)
        useful = sum(map(needs.__contains__, memory.values()))
        unknown = len(state.known) - len(memory)
        lab = min(state.lab_size(), useful + (state.mixed_count + unknown) // 3)
        return _Table(others, needs, matches, lab)

    @staticmethod
    def _own_effect_value(state: MagicSpellState, seat: int, key: str, n: int, reach: _Reach) -> float | None:
        """An effect on the caster's own turn, or None for one that hits other students."""
        if key == "spirit":
            spirit = reach.spirit_left
            return (0.3 if spirit < 4 else 0.12 if spirit < 8 else 0.0) * n
        if key == "draw":
            room = max(0, state.cabinet_limit(seat) - len(state.cabinet[seat]))
            return 0.6 * min(n, reach.lab, room)
        if key == "scrounge":
            return 0.75 * min(n, reach.lab)
        if key == "weaves":
            return 0.9 * min(n, reach.matches)
        if key == "research":
            return 0.6 * n if len(state.homework[seat]) < 3 else 0.1 * n
        if key == "transmute":
            return 0.5 * min(n, reach.lab, len(_spares(state.cabinet[seat], reach.needs, state.cat)))
        return None

    def _attack_value(self, state: MagicSpellState, seat: int, victim: int, key: str, n: int, needs: Counter) -> float:
        """An effect on one other student, weighed by how far they lead."""
        lead = 1.0 + 0.1 * max(0, state.credits(victim) - state.credits(seat))
        if key != "swap":  # a swap is a trade, not a blow: never worth more than a plain turn
            lead *= self.attack_weight
        if key == "steal":
            return 0.6 * lead * min(n, len(state.cabinet[victim]))
        if key == "swap":
            return 0.45 * lead * min(n, len(state.cabinet[victim]), len(_spares(state.cabinet[seat], needs, state.cat)))
        if key == "drain":
            return 0.12 * lead * min(n, state.spirit[victim])
        if key == "siphon":
            return 0.3 * lead * min(n, state.spirit[victim])
        if key == "scatter":
            return 0.3 * lead * min(n, len(state.cabinet[victim]))
        if key in ("unweave", "tamper"):
            full = state._fullest(victim)
            woven = len(state.woven.get(full, ())) if full is not None else 0
            return 0.35 * lead * min(n, woven)
        return 0.0

    # ---- the policy -------------------------------------------------------------------
    def act(self, state: MagicSpellState, seat: int, rng: random.Random):
        phase = state.phase
        if phase == "action":
            return self.main_action(state, seat, rng)
        if phase == "scrounged":
            tile = state.looking
            assert tile is not None  # a scrounged tile is in the hand
            letter = state.cat.letters[tile]
            if state.cat.stone[tile]:
                return KEEP
            sid = self.best_spell_for(state, seat, letter)
            if sid is not None:
                return Weave("weave", tile, sid, letter)
            if len(state.cabinet[seat]) < state.cabinet_limit(seat):
                return KEEP
            worst = self.worst_tile(state, seat)
            if worst is not None and self.tile_value(state, seat, tile) > self.tile_value(state, seat, worst):
                return KEEP
            return RETURN
        if phase == "extra":
            weave = self.cabinet_weave(state, seat)
            if weave is not None and state.weave_cost(seat, weave[1], paid=True) <= state.spirit[seat]:
                return weave
            return STOP
        if phase in ("scrounge", "pick"):
            return self.pick_slot(state, seat, rng, state.needs(seat), phase)
        if phase == "give":
            return TileChoice("give", self.worst_tile(state, seat))
        if phase == "transmute":
            spares = _spares(state.cabinet[seat], state.needs(seat), state.cat)
            if spares:
                return TileChoice("return_tile", min(spares, key=lambda t: state.cat.demand.get(state.cat.letters[t], 0)))
            return STOP
        if phase == "trim_tiles":
            return TileChoice("discard", self.worst_tile(state, seat))
        if phase == "trim_spells":
            return Drop("drop", max(state.homework[seat], key=lambda s: (self.difficulty(state, seat, s), s)))
        raise AssertionError(phase)

    def stuck(self, state: MagicSpellState, seat: int, sid: int) -> bool:
        """No progress on this spell for STUCK_TURNS of my own turns."""
        return state.turns - state.progress.get(sid, state.turns) > STUCK_TURNS * state.players

    def difficulty(self, state: MagicSpellState, seat: int, sid: int) -> float:
        left = state.remaining(sid)
        rare = sum(n for letter, n in left.items() if state.cat.demand.get(letter, 0) < 0.02)
        return sum(left.values()) + rare + (20 if self.stuck(state, seat, sid) else 0) - 0.5 * state.cat.spells[sid].credits

    def tile_value(self, state: MagicSpellState, seat: int, tile: int) -> float:
        if state.cat.stone[tile]:
            return 10.0
        letter = state.cat.letters[tile]
        return state.needs(seat).get(letter, 0) + state.cat.demand.get(letter, 0)

    def worst_tile(self, state: MagicSpellState, seat: int):
        cabinet = state.cabinet[seat]
        if not cabinet:
            return None
        needs = state.needs(seat)
        spares = _spares(cabinet, needs, state.cat)
        pool = spares or [t for t in cabinet if not state.cat.stone[t]] or cabinet
        return min(pool, key=lambda t: (state.cat.demand.get(state.cat.letters[t], 0), t))

    def main_action(self, state: MagicSpellState, seat: int, rng: random.Random):
        needs = state.needs(seat)  # holds only the letters still needed
        memory = self.remembered(state, seat)
        # the first remembered tile whose letter is needed (map/compress: no Python loop per tile)
        wanted = next(compress(memory, map(needs.__contains__, memory.values())), None)
        oldest = state.turns - STUCK_TURNS * state.players  # self.stuck for every spell, inline
        stuck = any(map(oldest.__gt__, map(state.progress.get, state.homework[seat], repeat(state.turns))))
        if stuck and self._can_research(state, seat):  # give up on a hopeless spell: research, then drop it
            return RESEARCH
        # no casting while a spell is stuck: save the spirit to research a new one (two students
        # swapping tiles back and forth every turn stalled games)
        book = state.spellbook[seat]  # mostly empty
        castable = list(compress(book, map(state.cat.castable.__getitem__, book))) if book and not stuck else []
        weave, weave_found = None, False
        if castable:
            # what the plain turn is worth (in tiles woven), to beat with a cast
            if wanted is None:
                weave, weave_found = self.cabinet_weave(state, seat), True
            table = self._table(state, seat, memory)
            plain = (1.0 + 0.9 * min(max(0, table.matches - 1), state.spirit[seat]) if (wanted is not None or weave is not None)
                     else 0.6)
            best, best_value = None, plain + 0.25
            for sid in castable:
                value, target = self.cast_value(state, seat, sid, memory, table)
                if value > best_value:
                    best, best_value = Cast("cast", sid, target), value
            if best is not None:
                return best
        # 2. a remembered tile that one of my spells needs
        if wanted is not None:
            return state.cat.takes["scrounge"][wanted]
        # 3. weave what the cabinet already holds
        if not weave_found:
            weave = self.cabinet_weave(state, seat)
        if weave is not None:
            return weave
        # 4. more homework when short of it
        can_research = self._can_research(state, seat)
        homework = len(state.homework[seat])
        if can_research and (homework < 2 or stuck or (homework < state.homework_limit(seat)
                                                       and state.spirit[seat] >= state.research_cost(seat) + 3)):
            return RESEARCH
        # 5. look for ingredients
        if state.lab_size() and (state.mixed_count or len(memory) < len(state.known)):
            return self.pick_slot(state, seat, rng, needs, "scrounge", memory)
        if can_research:
            return RESEARCH
        return REST

    @staticmethod
    def _can_research(state: MagicSpellState, seat: int) -> bool:
        return state.spirit[seat] >= state.research_cost(seat) and bool(state.deck_mixed or state.deck_bottom)
