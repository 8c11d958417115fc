"""Magic Spell (Jonathan Leistiko, 2005): weave ingredient tiles into magic words.

Every number and every card comes from `cards/magic-spell/`: the tile letters
and counts (ingredients.yaml), the spells with their credits, costs and effects
(spells.yaml) and the rule parameters (game.yaml `rules:`). This module holds
only the rules: the state, its legal moves, the effect vocabulary's meaning
(content.py names it), scoring and invariants:

cast effects (`effects:`, applied in order; victims are `who:` "target" or "others")
    spirit N     gain N spirit
    draw N       take N face-down laboratory ingredients into your cabinet
    scrounge N   scrounge N times
    weaves N     weave up to N times without paying spirit
    research N   draw N spells
    transmute N  return up to N cabinet ingredients, then take as many face-down ones
                 (never one just returned)
    steal N      take N random ingredients from each victim's cabinet
    swap N       give each victim N of your ingredients, take N random ones of theirs
    drain N      each victim loses N spirit
    siphon N     each victim loses N spirit, you gain what they lose
    scatter N    each victim drops N random cabinet ingredients into the laboratory
    unweave N    each victim returns N woven ingredients (from their fullest spell)
    tamper N     N woven ingredients of each victim's fullest spell are swapped for
                 face-down laboratory ones (a misspelling waiting to happen)
lasting effects (`always:`, while the spell is in your spellbook)
    cabinet N, homework N   raise your limits
    rest N, regen N          more spirit when resting / at the end of each turn
    research_discount N      research costs N less
    free_weave N             your first N extra weaves each turn are free
    second_look N            N times a turn, after returning a scrounged tile, scrounge again
    ward N                   other students' spells cannot affect you

The laboratory is modelled exactly for a memory game: tiles never revealed since
the initial mix are one indistinguishable pool (a scrounge there is a chance
event over its letters); a tile returned face up sits at a known spot whose
letter every student saw. Players differ in how much of that they remember
(the memory knob of the heuristic player). Chance is explicit: the state never
draws random numbers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from itertools import chain, compress, repeat
from operator import itemgetter
from typing import Any

from spellpress.rules.chance import Counted
from spellpress.rules.magic_spell.actions import (
    DRAW_TYPES,
    KEEP,
    MIXED,
    MOVE_TYPES,
    NO_TARGET,
    RESEARCH,
    REST,
    RETURN,
    STOP,
    Cast,
    Choice,
    Drop,
    LabDraw,
    SpellDraw,
    Take,
    TileChoice,
    Weave,
    typed,
)
from spellpress.rules.magic_spell.content import Catalog, Letters
from spellpress.rules.magic_spell.draws import draw_by_sizes, draw_uniform
from spellpress.rules.observation import CardRef, Observation, Zone, hand_zone, to_move
from spellpress.rules.protocol import CHANCE, TERMINAL, IllegalAction, InvariantError, Outcome, State, redeal


class MagicSpellState(State):
    def __init__(self, cat: Catalog, players: int, options: dict[str, Any]):
        p = cat.params
        self.cat = cat
        self.players = players
        self.options = options
        self.goal = int(options.get("goal", p["goal"]))
        self.trading = bool(options.get("trading", True))
        self.stones = bool(options.get("stones", False))
        self.open_research = bool(options.get("open_research", False))
        self.turns = 0
        # laboratory
        self.mixed: dict[str, list[int]] = {}
        self.mixed_count = 0
        self.known: dict[int, int] = {}  # tile -> reveal serial (face down, letter seen by all)
        self.serial = 0
        self.removed: list[int] = []
        for tile, letter in enumerate(cat.letters):
            if cat.stone[tile] and not self.stones:
                self.removed.append(tile)
            else:
                self.mixed.setdefault(letter, []).append(tile)
                self.mixed_count += 1
        # players
        self.cabinet: list[list[int]] = [[] for _ in range(players)]
        self.homework: list[list[int]] = [[] for _ in range(players)]
        self.spellbook: list[list[int]] = [[] for _ in range(players)]
        self.woven: dict[int, list[tuple[int, str]]] = {}  # homework spell -> (tile, letter it stands for)
        self.tampered: set[int] = set()  # woven tiles swapped in face down by a tamper: their owner does not know them
        self.given: list[int] = []  # tiles given away by the swap of the spell being cast (never taken back)
        self.returned: list[int] = []  # tiles the spell being cast returned (its takes never pick them)
        self.spirit = [int(p["start_spirit"])] * players
        self.deck_mixed: list[int] = [s.index for s in cat.spells]
        self.deck_bottom: list[int] = []
        self.looking: int | None = None  # a scrounged tile in the hand of the active student
        # turn machinery
        self.seat = 0
        self.phase = "setup"
        self.queue: list[tuple] = []
        self.chance: tuple | None = None
        self.free_weaves = 0
        self.free_weave_used = 0
        self.second_looks_used = 0
        self.final_left: int | None = None
        self.done = False
        # statistics
        self.held: list[set[int]] = [set() for _ in range(players)]
        self.completed: dict[int, int] = {}  # spell -> seat
        self._left: dict[int, Letters] = {}  # cache of remaining(); dropped whenever a spell's tiles change
        self._needs: dict[int, Letters] = {}  # cache of needs(); dropped whenever the seat's homework changes
        self._lasting: dict[int, tuple[list[int], dict[str, int]]] = {}  # seat -> (a copy of its spellbook, lasting totals)
        self._trade_views: dict[int, tuple] = {}
        self._weave_tables: dict[int, tuple[Letters, dict[str, int], int]] = {}  # seat -> its needs, _weave_table()
        self._credits: tuple[list[list[int]], tuple[float, ...]] = ([], ())  # returns()'s credits, with their spellbooks
        # the seats in the trade window at the start of each seat's turn: the others (both of two)
        self._windows = [list(range(players)) if players == 2 else [s for s in range(players) if s != seat]
                         for seat in range(players)]
        self._known_letters: dict[int, str] = {}  # known_letters(), kept in step with `known` by the moves
        # (the laboratory and the count they were counted for, the unseen tiles of each letter in cat.lab_letters'
        # order, the letters it has): _unseen_counts(), kept in step by the draws
        self._lab_counts: tuple[dict[str, list[int]], int, list[int], set[str]] | None = None
        self.progress: dict[int, int] = {}  # homework spell -> turn it last gained a tile (its owner knows)
        self.stats: Counter = Counter()
        # what the last invariant check saw of the unseen laboratory and of the spells' places
        self._last_unseen: tuple | None = None
        self._last_spells: tuple | None = None
        self._last_caches: tuple | None = None
        for seat in range(players):
            self.queue += [("deal_tile", seat)] * int(p["start_ingredients"])
            self.queue += [("deal_spell", seat)] * int(p["start_spells"])
        self.queue.append(("begin_turn",))
        self._advance()

    # ---- derived values ---------------------------------------------------
    def lasting(self, seat: int, key: str) -> int:
        book = self.spellbook[seat]
        if not book:  # most of the time, for most students
            return 0
        known = self._lasting.get(seat)
        if known is None or known[0] != book:  # summed once for each spellbook a seat has
            always = self.cat.spell_always
            totals: dict[str, int] = {}
            for sid in book:
                for name, n in always[sid].items():
                    totals[name] = totals.get(name, 0) + n
            known = self._lasting[seat] = (list(book), totals)
        return known[1].get(key, 0)

    # the limits and the research cost: lasting() asked only of a student with a spellbook (few are)
    def cabinet_limit(self, seat: int) -> int:
        return self.cat.params["cabinet_limit"] + (self.lasting(seat, "cabinet") if self.spellbook[seat] else 0)

    def homework_limit(self, seat: int) -> int:
        return self.cat.params["homework_limit"] + (self.lasting(seat, "homework") if self.spellbook[seat] else 0)

    def research_cost(self, seat: int) -> int:
        if not self.spellbook[seat]:
            return max(0, self.cat.params["research_cost"])
        return max(0, self.cat.params["research_cost"] - self.lasting(seat, "research_discount"))

    def credits(self, seat: int) -> int:
        return sum(map(self.cat.spell_credits.__getitem__, self.spellbook[seat]))

    def stones_held(self, seat: int) -> int:
        return sum(1 for t in self.cabinet[seat] if self.cat.stone[t])

    def _spell_changed(self, seat: int, sid: int) -> None:
        """The tiles on a spell of the seat's homework, or the homework itself, changed: drop what was cached."""
        self._left.pop(sid, None)
        self._needs.pop(seat, None)

    def _recount(self, seat: int, sid: int, letter: str, change: int) -> None:
        """A tile claiming `letter` went onto (change -1) or off (+1) a spell of the seat's homework:
        the cached counts of what it and the seat still need change by one letter, so they are
        adjusted rather than dropped. (A spell never claims more of a letter than its word has, and
        a weave claims only a letter still needed.) A letter a spell needs again is dropped instead:
        the order of remaining()'s letters, the word's, shows in the statistics."""
        left = self._left.get(sid)
        if left is not None and letter not in left and change > 0:
            del self._left[sid]
        elif left is not None:
            self._left[sid] = _adjusted(left, letter, change)
        needs = self._needs.get(seat)  # its order shows nowhere: only looked up
        if needs is not None:
            self._needs[seat] = _adjusted(needs, letter, change)

    def drop_caches(self) -> None:
        """Forget every cached `remaining` and `needs` and the laboratory's counts (after changing spells,
        homework or the unseen laboratory by hand)."""
        self._lab_counts = None
        self._left.clear()
        self._needs.clear()
        self._trade_views.clear()
        self._weave_tables.clear()

    def remaining(self, sid: int) -> Letters:
        """Letters the spell still needs (by what its tiles claim to be); cached, do not modify."""
        left = self._left.get(sid)
        if left is None:
            left = self._left[sid] = self._count_left(sid)
        return left

    def _count_left(self, sid: int) -> Letters:
        woven = self.woven.get(sid)
        if not woven:
            return Letters(self.cat.spell_needs[sid])
        left = dict(self.cat.spell_needs[sid])
        for _, letter in woven:
            left[letter] = left.get(letter, 0) - 1
        return Letters({letter: n for letter, n in left.items() if n > 0})

    def lab_size(self) -> int:
        return self.mixed_count + len(self.known)

    def known_letters(self) -> dict[int, str]:
        """Every face-down tile whose letter all students saw -> that letter (what perfect memory
        holds), in the order they were returned. Kept in step with `known` by the moves that return and
        take tiles, and made anew when its tiles are not those of `known` (a change made by hand); it
        changes with the state: do not modify, nor keep it past a move."""
        kept = self._known_letters
        if kept.keys() != self.known.keys():
            kept = self._known_letters = dict(zip(self.known, map(self.cat.letters.__getitem__, self.known), strict=False))
        return kept

    def warded(self, seat: int) -> bool:
        return self.lasting(seat, "ward") > 0

    # ---- protocol ---------------------------------------------------------
    def current_player(self) -> int:
        if self.done:
            return TERMINAL
        if self.chance is not None:
            return CHANCE
        return self.seat

    def chance_outcomes(self) -> Sequence[tuple[Any, float]]:
        chance = self.chance
        assert chance is not None, "chance is not to act"
        kind, cat = chance[0], self.cat
        # Counted: the runner draws these in whole numbers, exactly as it would draw the fractions
        if kind == "lab":  # each letter in proportion to its unseen tiles, in letter order
            counts = list(map(len, map(self.mixed.get, cat.lab_letters, cat.no_tiles)))
            return Counted(cat.lab_draws, counts, self.mixed_count)
        if kind == "spell":
            deck = self.deck_mixed
            return Counted([cat.spell_draws[sid] for sid in deck], [1] * len(deck), len(deck))
        if kind == "pick":  # a random tile among a list
            tiles = chance[2]
            return Counted([cat.pick_draws[t] for t in tiles], [1] * len(tiles), len(tiles))
        raise AssertionError(kind)

    def sample_chance(self, rng) -> Any:
        """chance_outcomes()'s draw (State.sample_chance), from the same random number, no list of
        pairs made: the laboratory's letters by their counts, a spell or a tile uniformly."""
        chance = self.chance
        assert chance is not None, "chance is not to act"
        kind, cat = chance[0], self.cat
        if kind == "lab":
            return draw_by_sizes(cat.lab_draws, self._unseen_counts()[2], self.mixed_count, rng)
        if kind == "spell":
            return draw_uniform(cat.spell_draws, self.deck_mixed, rng)
        if kind == "pick":
            return draw_uniform(cat.pick_draws, chance[2], rng)
        raise AssertionError(kind)

    def _unseen_counts(self) -> tuple[dict[str, list[int]], int, list[int], set[str]]:
        """(the laboratory, its count, how many unseen tiles of each letter it holds in cat.lab_letters'
        order, the letters it has any of); kept while the draws take tiles (see _draw_outcome), counted
        anew for another laboratory (a clone's, a determinized one) or another count (a change by hand);
        do not modify."""
        kept = self._lab_counts
        if kept is None or kept[0] is not self.mixed or kept[1] != self.mixed_count:
            kept = self._lab_counts = self._count_unseen()
        return kept

    def _count_unseen(self) -> tuple[dict[str, list[int]], int, list[int], set[str]]:
        letters = self.cat.lab_letters
        sizes = list(map(len, map(self.mixed.get, letters, self.cat.no_tiles)))
        return self.mixed, self.mixed_count, sizes, set(compress(letters, sizes))

    def returns(self) -> list[float]:
        """Credits of each spellbook (and stones held, in that variant). The runner asks after every
        turn: the credits are kept with a copy of the spellbooks they were summed from."""
        kept = self._credits
        if kept[0] == self.spellbook:  # compares every spell, so any change to a spellbook is seen
            scores = list(kept[1])
        else:
            credits = self.cat.spell_credits.__getitem__
            scores = [float(sum(map(credits, book))) for book in self.spellbook]
            self._credits = ([list(book) for book in self.spellbook], tuple(scores))
        if self.stones:
            credit = self.cat.params["stone_credit"]
            scores = [score + credit * self.stones_held(s) for s, score in enumerate(scores)]
        return scores

    # ---- legal actions -----------------------------------------------------
    def legal_actions(self) -> Sequence[Any]:
        if self.done or self.chance is not None:
            return []
        seat, phase = self.seat, self.phase
        if phase == "action":
            acts = self._weave_actions(seat, paid=False)
            for sid in self.spellbook[seat]:
                spell = self.cat.spells[sid]
                if spell.castable:
                    if spell.who == "target":
                        acts += [Cast("cast", sid, other) for other in range(self.players) if other != seat]
                    else:
                        acts.append(Cast("cast", sid, NO_TARGET))
            acts += self._scrounge_slots("scrounge")
            if self.spirit[seat] >= self.research_cost(seat) and (self.deck_mixed or self.deck_bottom):
                acts.append(RESEARCH)
            acts.append(REST)
            return acts
        if phase == "scrounged":
            return self._weave_actions(seat, paid=False, only=self.looking) + [KEEP, RETURN]
        if phase == "extra":
            return self._weave_actions(seat, paid=True) + [STOP]
        if phase in ("scrounge", "pick"):
            return self._scrounge_slots(phase)
        if phase == "give":
            return [TileChoice("give", t) for t in self.cabinet[seat]]
        if phase == "transmute":
            return [TileChoice("return_tile", t) for t in self.cabinet[seat]] + [STOP]
        if phase == "trim_tiles":
            return [TileChoice("discard", t) for t in self.cabinet[seat]]
        if phase == "trim_spells":
            return [Drop("drop", s) for s in self.homework[seat]]
        raise AssertionError(phase)

    def count_legal_actions(self) -> int:
        """len(legal_actions()), counted without making the actions (the runner counts them at every
        decision of a measured game): the same phases and the same rules, a tally per kind."""
        if self.done or self.chance is not None:
            return 0
        seat, phase = self.seat, self.phase
        if phase == "action":
            count = self._count_weaves(seat, paid=False)
            others = self.players - 1
            for sid in self.spellbook[seat]:
                spell = self.cat.spells[sid]
                if spell.castable:
                    count += others if spell.who == "target" else 1
            count += self._count_scrounge_slots("scrounge") + 1  # and rest
            if self.spirit[seat] >= self.research_cost(seat) and (self.deck_mixed or self.deck_bottom):
                count += 1
            return count
        if phase == "scrounged":
            return self._count_weaves(seat, paid=False, only=self.looking) + 2  # and keep, return
        if phase == "extra":
            return self._count_weaves(seat, paid=True) + 1  # and stop
        if phase in ("scrounge", "pick"):
            return self._count_scrounge_slots(phase)
        if phase in ("give", "trim_tiles"):
            return len(self.cabinet[seat])
        if phase == "transmute":
            return len(self.cabinet[seat]) + 1  # and stop
        if phase == "trim_spells":
            return len(self.homework[seat])
        raise AssertionError(phase)

    def _count_scrounge_slots(self, verb: str) -> int:
        """len(_scrounge_slots(verb))."""
        known = len(self.known) if verb != "pick" or not self.returned else len(self.takeable_known(verb))
        return known + (1 if self.mixed_count else 0)

    def _scrounge_slots(self, verb: str) -> list:
        takes = self.cat.takes[verb]  # made once: a list of them after every decision of a measured game
        slots = list(map(takes.__getitem__, self.takeable_known(verb)))
        if self.mixed_count:
            slots.append(takes[-1])
        return slots

    def takeable_known(self, verb: str) -> list[int]:
        """The remembered laboratory tiles a scrounge or a take ("pick") may choose: a take
        never picks a tile the spell being cast has just returned."""
        if verb == "pick" and self.returned:
            return [t for t in self.known if t not in self.returned]
        return list(self.known)

    def _extra_weave_cost(self, seat: int, paid: bool) -> int:
        """The spirit an extra weave costs beyond the turn's free ones (0 for the action's weave)."""
        if paid and self.free_weaves == 0 and self.free_weave_used >= self.lasting(seat, "free_weave"):
            return self.cat.params["extra_weave_cost"]
        return 0

    def weave_cost(self, seat: int, tile: int, paid: bool) -> int:
        cost = self._extra_weave_cost(seat, paid)
        if tile not in self.cabinet[seat] and tile in self.tile_spell(seat):  # a cabinet tile is on no spell
            cost += self.cat.params["move_weave_cost"]
        return cost

    def tile_spell(self, seat: int) -> dict[int, int]:
        """Tiles on the seat's partially woven spells -> spell."""
        return {t: sid for sid in self.homework[seat] for t, _ in self.woven.get(sid, ())}

    def known_stone(self, tile: int) -> bool:
        """A stone its holder knows is one (a tampered-in stone passes for the letter it stands for)."""
        return self.cat.stone[tile] and tile not in self.tampered

    def shown_letter(self, seat: int, tile: int) -> str:
        """The letter a tile is to its holder: a woven tile stands for its claimed letter."""
        for sid in self.homework[seat]:
            for t, letter in self.woven.get(sid, ()):
                if t == tile:
                    return letter
        return self.cat.letters[tile]

    def can_weave(self, seat: int, tile: int, sid: int, letter: str) -> bool:
        return sid in self.homework[seat] and self._claim_fits(tile, sid, letter, self.shown_letter(seat, tile))

    def _claim_fits(self, tile: int, sid: int, letter: str, shown: str) -> bool:
        """May a tile that is `shown` to its holder go onto the spell, claiming `letter`?"""
        if letter not in self.remaining(sid):  # it holds only the letters still needed
            return False
        if self.known_stone(tile):
            stones = sum(1 for t, _ in self.woven.get(sid, ()) if self.known_stone(t) and t != tile)
            return stones < self.cat.params["stones_per_spell"]
        return shown == letter

    def wrong_tiles(self, pairs: list[tuple[int, str]]) -> list[tuple[int, str]]:
        """Woven tiles that are not what they stand for: a wrong letter, or a stone over the per-spell limit."""
        wrong, stones = [], 0
        for tile, letter in pairs:
            if self.cat.stone[tile]:
                stones += 1
                if stones > self.cat.params["stones_per_spell"]:
                    wrong.append((tile, letter))
            elif self.cat.letters[tile] != letter:
                wrong.append((tile, letter))
        return wrong

    def _weave_actions(self, seat: int, paid: bool, only: int | None = None) -> list:
        """Every legal weave: what `can_weave` and `weave_cost` allow, worked out once per tile."""
        homework = self.homework[seat]
        wanted = self.needs(seat)  # every letter some spell still needs
        letters, stones, tampered = self.cat.letters, self.cat.stone, self.tampered
        # (tile, the spell it is on or None, the letter it shows): a tile in hand (`only`), or the cabinet's
        # tiles and those on the seat's spells; only those that show a wanted letter or may be a stone
        sources: list[tuple[int, int | None, str]]
        if only is not None:
            sources = [(only, None, letters[only])]
        else:
            sources = [(t, None, letters[t]) for t in self.cabinet[seat] if letters[t] in wanted or stones[t]]
            sources += [(t, sid, letter) for sid in homework for t, letter in self.woven.get(sid, ())
                        if letter in wanted or stones[t]]
        if not sources:  # mostly, in the extra phase after a weave
            return []
        lefts = [(sid, self.remaining(sid)) for sid in homework]  # letters each spell still needs (all > 0)
        extra = self._extra_weave_cost(seat, paid)
        move, stone_limit = self.cat.params["move_weave_cost"], self.cat.params["stones_per_spell"]
        acts = []
        for tile, home, shown in sources:
            stone = stones[tile] and tile not in tampered  # known_stone, inline: this loop runs on every check
            if not stone and shown not in wanted:
                continue
            if only is None and extra + (move if home is not None else 0) > self.spirit[seat]:
                continue
            for sid, left in lefts:
                if home == sid:
                    continue
                if not stone:
                    if shown in left:
                        acts.append(Weave("weave", tile, sid, shown))
                elif sum(1 for t, _ in self.woven.get(sid, ()) if t != tile and self.known_stone(t)) < stone_limit:
                    acts += [Weave("weave", tile, sid, letter) for letter in sorted(left)]
        return acts

    def _count_weaves(self, seat: int, paid: bool, only: int | None = None) -> int:
        """len(_weave_actions(...)), without making them when no stone is in play: a tile weaves onto
        every spell of the homework that still needs the letter it shows, but the one it is on."""
        if self.stones:  # a known stone weaves as any letter a spell it fits needs: those are listed
            return len(self._weave_actions(seat, paid, only))
        kept, needs = self._weave_tables.get(seat), self._needs.get(seat)  # _weave_table's check, inline
        if kept is None or needs is None or kept[0] is not needs:
            kept = self._weave_table(seat)
        spells_needing, letters = kept[1], self.cat.letters
        if only is not None:
            return spells_needing.get(letters[only], 0)
        extra, spirit = self._extra_weave_cost(seat, paid) if paid else 0, self.spirit[seat]
        count = 0
        if extra <= spirit:  # the cabinet's tiles
            count = sum(map(spells_needing.get, map(letters.__getitem__, self.cabinet[seat]), repeat(0)))
        if extra + self.cat.params["move_weave_cost"] <= spirit:  # and those on the spells
            count += kept[2]
        return count

    def _weave_table(self, seat: int) -> tuple[Letters, dict[str, int], int]:
        """(the seat's needs, letter -> the seat's homework spells that still need it, the weaves of the
        tiles on those spells onto the others): what _count_weaves reads. Kept while the seat's needs
        are the same object, as every change to its homework or to the tiles on it makes new needs."""
        needs = self.needs(seat)
        kept = self._weave_tables.get(seat)
        if kept is None or kept[0] is not needs:
            kept = self._weave_tables[seat] = (needs, *self._count_weave_table(seat))
        return kept

    def _count_weave_table(self, seat: int) -> tuple[dict[str, int], int]:
        homework = self.homework[seat]
        lefts = list(map(self.remaining, homework))  # letters each spell still needs (all > 0)
        spells_needing: dict[str, int] = {}
        for letter in chain.from_iterable(lefts):
            spells_needing[letter] = spells_needing.get(letter, 0) + 1
        woven, woven_weaves = self.woven, 0
        for sid, left in zip(homework, lefts, strict=True):
            for _, letter in woven.get(sid, ()):  # standing for its letter: onto each other spell needing it
                woven_weaves += spells_needing.get(letter, 0) - (letter in left)
        return spells_needing, woven_weaves

    # ---- applying actions -----------------------------------------------------
    def apply(self, action: Any) -> None:
        if self.done:
            raise IllegalAction("the game is over")
        if self.chance is not None:
            self._apply_chance(action)
        else:  # a move, its method looked up here (every action of every game comes this way)
            # typed(action), its first check inline (a player's actions are their named tuples already);
            # IllegalAction for an unknown verb or a wrong number of fields
            move = action if type(action) is MOVE_TYPES.get(getattr(action, "verb", "")) else typed(action)
            method, phases = _MOVES[move.verb]
            if self.phase not in phases:
                raise IllegalAction(move)
            method(self, self.seat, move)
        self._advance()

    # One method per verb (the _MOVES table below, with the phases that allow it).
    def _weave_move(self, seat: int, move: Weave) -> None:
        if self.phase == "scrounged" and move.tile != self.looking:
            raise IllegalAction(move)  # the one weave there is of the tile in hand
        self._weave(seat, move, paid=self.phase == "extra")

    def _cast_move(self, seat: int, move: Cast) -> None:
        self._cast(seat, move)

    def _scrounge_move(self, seat: int, move: Take) -> None:
        self.stats["scrounges"] += 1
        self._look(seat, move.slot, "scrounge")

    def _pick_move(self, seat: int, move: Take) -> None:
        self._look(seat, move.slot, "pick")

    def _research_move(self, seat: int, move: Choice) -> None:
        cost = self.research_cost(seat)
        if self.spirit[seat] < cost or not (self.deck_mixed or self.deck_bottom):
            raise IllegalAction("research needs spirit and a spell to draw")
        self.spirit[seat] -= cost
        self.stats["researches"] += 1
        self.queue.insert(0, ("draw_spell", seat))

    def _rest_move(self, seat: int, move: Choice) -> None:
        self.spirit[seat] += self.cat.params["rest_gain"] + self.lasting(seat, "rest")
        self.stats["rests"] += 1

    def _keep_move(self, seat: int, move: Choice) -> None:
        tile = self.looking
        assert tile is not None  # the scrounged tile is in the student's hand until kept, woven or returned
        self.looking = None
        self.cabinet[seat].append(tile)

    def _return_move(self, seat: int, move: Choice) -> None:
        tile = self.looking
        assert tile is not None
        self.looking = None
        self._to_lab(tile)
        if self.second_looks_used < self.lasting(seat, "second_look"):
            self.second_looks_used += 1
            self.queue.insert(0, ("scrounge_again", seat))

    def _stop_move(self, seat: int, move: Choice) -> None:
        if self.phase == "extra":
            self.free_weaves = 0
        else:
            self._take_for_returns(seat)

    def _give_move(self, seat: int, move: TileChoice) -> None:
        if move.tile not in self.cabinet[seat]:
            raise IllegalAction(move)
        victim = self.pending
        self.cabinet[seat].remove(move.tile)
        self.cabinet[victim].append(move.tile)
        self.given.append(move.tile)
        self.queue.insert(0, ("take_random", seat, victim, move.tile))

    def _return_tile_move(self, seat: int, move: TileChoice) -> None:
        if move.tile not in self.cabinet[seat] or self.pending <= 0:
            raise IllegalAction(move)
        self.cabinet[seat].remove(move.tile)
        self._to_lab(move.tile)
        self.returned.append(move.tile)
        self.pending -= 1
        if self.pending > 0 and self.cabinet[seat]:
            self.queue.insert(0, ("transmute", seat, self.pending))
        else:
            self._take_for_returns(seat)

    def _take_for_returns(self, seat: int) -> None:
        """A transmute's returns are over: as many takes as tiles returned."""
        self.queue[0:0] = [("draw", seat)] * len(self.returned)

    def _discard_move(self, seat: int, move: TileChoice) -> None:
        if move.tile not in self.cabinet[seat]:
            raise IllegalAction(move)
        self.cabinet[seat].remove(move.tile)
        self._to_lab(move.tile)

    def _drop_move(self, seat: int, move: Drop) -> None:
        if move.spell not in self.homework[seat]:
            raise IllegalAction(move)
        self._drop_spell(seat, move.spell)

    def _look(self, seat: int, slot, purpose: str) -> None:
        if slot == MIXED:
            if not self.mixed_count:
                raise IllegalAction("no unseen tile is left in the laboratory")
            self.chance = ("lab", purpose, seat)
            return
        if slot not in self.known or (purpose == "pick" and slot in self.returned):
            raise IllegalAction((purpose, slot))
        del self.known[slot]
        self._known_letters.pop(slot, None)
        self.stats["scrounges_known"] += purpose == "scrounge"
        self._arrive(seat, slot, purpose)

    def _arrive(self, seat: int, tile: int, purpose: str) -> None:
        """A tile just taken from the laboratory by the active student."""
        if purpose in ("scrounge", "scrounge_again"):
            self.looking = tile
            self.queue.insert(0, ("decide_scrounge",))
        else:
            self.cabinet[seat].append(tile)

    def _weave(self, seat: int, action: Weave, paid: bool) -> None:
        tile, sid, letter = action.tile, action.spell, action.letter
        on_spells: dict[int, int] = {}
        if tile == self.looking and self.phase == "scrounged":
            source = "looking"
        elif tile in self.cabinet[seat]:
            source = "cabinet"
        elif tile in (on_spells := self.tile_spell(seat)) and on_spells[tile] != sid:
            source = "spell"
        else:
            raise IllegalAction(action)
        # can_weave, knowing the source: only a tile on a spell stands for a letter not its own
        shown = (next(char for t, char in self.woven[on_spells[tile]] if t == tile) if source == "spell"
                 else self.cat.letters[tile])
        if sid not in self.homework[seat] or not self._claim_fits(tile, sid, letter, shown):
            raise IllegalAction(action)
        cost = 0
        if source != "looking":  # weave_cost, knowing where the tile comes from
            cost = self._extra_weave_cost(seat, paid) + (self.cat.params["move_weave_cost"] if source == "spell" else 0)
        if cost > self.spirit[seat]:
            raise IllegalAction(f"{action}: costs {cost} spirit")
        self.spirit[seat] -= cost
        if paid:
            if self.free_weaves:
                self.free_weaves -= 1
            elif self.free_weave_used < self.lasting(seat, "free_weave"):
                self.free_weave_used += 1
        if source == "looking":
            self.looking = None
        elif source == "cabinet":
            self.cabinet[seat].remove(tile)
        else:
            old = on_spells[tile]
            self.woven[old] = [(t, char) for t, char in self.woven[old] if t != tile]
            self._recount(seat, old, shown, +1)
        self.woven.setdefault(sid, []).append((tile, letter))
        self._recount(seat, sid, letter, -1)
        self.progress[sid] = self.turns
        self.stats["weaves"] += 1
        if not self.remaining(sid):
            if not self._complete(seat, sid):
                self.queue = [step for step in self.queue if step[0] in ("begin_turn",)]
                self.queue.insert(0, ("end_turn",))
                self.free_weaves = 0
                return
        self.queue.insert(0, ("extra",))

    def _complete(self, seat: int, sid: int) -> bool:
        """The last letter is on: reveal. False when misspelled (wrong tiles go back)."""
        tiles = self.woven[sid]
        self._spell_changed(seat, sid)
        wrong = self.wrong_tiles(tiles)
        if wrong:
            self.stats["misspellings"] += 1
            self.woven[sid] = [pair for pair in tiles if pair not in wrong]
            for t, _ in wrong:
                self._to_lab(t)
            return False
        del self.woven[sid]
        for t, _ in tiles:
            self._to_lab(t)
        self.homework[seat].remove(sid)
        self.spellbook[seat].append(sid)
        self.completed[sid] = seat
        return True

    def _to_lab(self, tile: int) -> None:
        """Returned face up for all to see (a stone leaves the game instead)."""
        self.tampered.discard(tile)
        if self.cat.stone[tile]:
            self.removed.append(tile)
            return
        self.serial += 1
        self.known[tile] = self.serial
        self._known_letters[tile] = self.cat.letters[tile]

    def _drop_spell(self, seat: int, sid: int) -> None:
        self.homework[seat].remove(sid)
        self._spell_changed(seat, sid)
        for t, _ in self.woven.pop(sid, ()):
            self._to_lab(t)
        self.deck_bottom.append(sid)

    def _cast(self, seat: int, action: Cast) -> None:
        sid, target = action.spell, action.target
        if sid not in self.spellbook[seat] or not self.cat.spells[sid].castable:
            raise IllegalAction(action)
        spell = self.cat.spells[sid]
        if spell.who == "target":
            if target == seat or not 0 <= target < self.players:
                raise IllegalAction(action)
            victims = [target]
        else:
            victims = [s for s in range(self.players) if s != seat] if spell.who == "others" else []
        victims = [v for v in victims if not self.warded(v)]
        self.stats["casts"] += 1
        self.given = []
        self.returned = []
        if self.spirit[seat] < spell.cost:  # fill the requirement as far as you can; the spell fizzles
            self.spirit[seat] = 0
            self.stats["fizzles"] += 1
            return
        self.spirit[seat] -= spell.cost
        steps: list[tuple] = []
        for key, n in spell.effects:
            if key == "spirit":
                steps.append(("gain", seat, n))
            elif key == "draw":
                steps += [("draw", seat)] * n
            elif key == "scrounge":
                steps += [("scrounge_step", seat)] * n
            elif key == "weaves":
                steps.append(("free_weaves", seat, n))
            elif key == "research":
                steps += [("draw_spell", seat)] * n
            elif key == "transmute":
                steps.append(("transmute", seat, n))
            else:
                for victim in victims:
                    if key in ("drain", "siphon"):
                        steps.append((key, seat, victim, n))
                    else:
                        steps += [(key, seat, victim)] * n
        self.queue[0:0] = steps

    def _apply_chance(self, action) -> None:
        chance, self.chance = self.chance, None
        assert chance is not None, "chance is not to act"
        try:
            self._draw_outcome(chance, action)
        except IllegalAction:
            self.chance = chance  # refused before anything moved: the draw is still to make
            raise

    def _draw_outcome(self, chance: tuple, action) -> None:
        kind = chance[0]
        # typed(action, DRAW_TYPES), its first check inline (sample_chance draws the named tuples)
        draw = action if type(action) is DRAW_TYPES.get(getattr(action, "verb", "")) else typed(action, DRAW_TYPES)
        if draw.verb != kind:
            raise IllegalAction(action)
        if isinstance(draw, LabDraw):
            if not self.mixed.get(draw.letter):
                raise IllegalAction(action)
            tile = self.mixed[draw.letter].pop()
            kept = self._lab_counts
            if kept is not None and kept[0] is self.mixed and kept[1] == self.mixed_count:  # kept in step
                sizes, index = kept[2], self.cat.lab_index[draw.letter]
                sizes[index] -= 1
                if not sizes[index]:
                    kept[3].discard(draw.letter)
                self._lab_counts = (kept[0], kept[1] - 1, sizes, kept[3])
            self.mixed_count -= 1
            purpose, seat = chance[1], chance[2]
            if purpose == "deal":
                self.cabinet[seat].append(tile)
            elif purpose == "tamper":
                sid = chance[3]
                self._spell_changed(seat, sid)
                self.woven[sid].append((tile, chance[4]))
                self.tampered.add(tile)
                if self.open_research and (tile, chance[4]) in self.wrong_tiles(self.woven[sid]):
                    self.woven[sid].pop()  # face up: the owner sees the wrong tile and sends it back
                    self._to_lab(tile)
            else:
                self._arrive(seat, tile, purpose)
        elif isinstance(draw, SpellDraw):
            if draw.spell not in self.deck_mixed:
                raise IllegalAction(action)
            self.deck_mixed.remove(draw.spell)
            self._receive_spell(chance[1], draw.spell)
        else:
            if draw.tile not in chance[2]:
                raise IllegalAction(action)
            self._picked(chance[1], draw.tile)

    def _receive_spell(self, seat: int, sid: int) -> None:
        self.homework[seat].append(sid)
        self._needs.pop(seat, None)
        self.held[seat].add(sid)
        self.progress[sid] = self.turns

    def _picked(self, step: tuple, tile: int) -> None:
        kind = step[0]
        if kind == "take_random":  # steal / swap
            _, seat, victim, _ = step
            self.cabinet[victim].remove(tile)
            self.cabinet[seat].append(tile)
        elif kind == "scatter":
            victim = step[2]
            self.cabinet[victim].remove(tile)
            self._to_lab(tile)
        elif kind in ("unweave", "tamper"):
            victim, sid = step[2], step[3]
            pairs = self.woven[sid]
            letter = next(char for t, char in pairs if t == tile)
            self.woven[sid] = [(t, char) for t, char in pairs if t != tile]
            self._spell_changed(victim, sid)
            self._to_lab(tile)
            if kind == "tamper":
                if self.mixed_count:
                    self.chance = ("lab", "tamper", victim, sid, letter)
                else:  # nothing unseen to swap in: the tile is simply lost from the spell
                    pass
        else:
            raise AssertionError(kind)

    # ---- the engine loop ---------------------------------------------------------
    def _advance(self) -> None:
        """Run queued steps until a decision or a chance event is needed."""
        steps = _STEPS
        while self.chance is None and not self.done:
            if not self.queue:
                self.phase = "action"
                return
            step = self.queue.pop(0)
            if steps[step[0]](self, step):
                return
        if self.chance is None and not self.done and not self.queue:
            self.phase = "action"

    # One method per step kind (the _STEPS table below): True when the step waits for a decision.
    def _deal_tile(self, step: tuple) -> bool:
        self.chance = ("lab", "deal", step[1])
        return False

    def _draw_spell(self, step: tuple) -> bool:  # deal_spell and draw_spell
        if self.deck_mixed:
            self.chance = ("spell", step[1])
        elif self.deck_bottom:
            self._receive_spell(step[1], self.deck_bottom.pop(0))
        return False

    def _begin_turn_step(self, step: tuple) -> bool:
        self._begin_turn()
        return True

    def _decide_scrounge(self, step: tuple) -> bool:
        self.phase = "scrounged"
        return True

    def _extra(self, step: tuple) -> bool:
        self.phase = "extra"
        return True

    def _scrounge_step(self, step: tuple) -> bool:  # scrounge_step and scrounge_again
        if self.lab_size():
            self.phase = "scrounge"
            return True
        return False

    def _draw(self, step: tuple) -> bool:
        if self.mixed_count or self.takeable_known("pick"):
            self.phase = "pick"
            return True
        return False

    def _free_weaves(self, step: tuple) -> bool:
        self.free_weaves = step[2]
        self.phase = "extra"
        return True

    def _transmute(self, step: tuple) -> bool:
        if self.cabinet[step[1]] and self.lab_size():
            self.pending = step[2]
            self.phase = "transmute"
            return True
        return False

    def _gain(self, step: tuple) -> bool:
        self.spirit[step[1]] += step[2]
        return False

    def _drain(self, step: tuple) -> bool:  # drain and siphon
        kind, seat, victim, n = step
        lost = min(n, self.spirit[victim])
        self.spirit[victim] -= lost
        if kind == "siphon":
            self.spirit[seat] += lost
        return False

    def _steal(self, step: tuple) -> bool:
        if self.cabinet[step[2]]:
            self.chance = ("pick", ("take_random", step[1], step[2], None), tuple(self.cabinet[step[2]]))
        return False

    def _take_random(self, step: tuple) -> bool:  # the second half of a swap: never a tile this cast gave
        tiles = tuple(t for t in self.cabinet[step[2]] if t not in self.given)
        if tiles:
            self.chance = ("pick", step, tiles)
        return False

    def _swap(self, step: tuple) -> bool:
        if self.cabinet[step[1]] and self.cabinet[step[2]]:
            self.pending = step[2]
            self.phase = "give"
            return True
        return False

    def _scatter(self, step: tuple) -> bool:
        if self.cabinet[step[2]]:
            self.chance = ("pick", step, tuple(self.cabinet[step[2]]))
        return False

    def _unweave(self, step: tuple) -> bool:  # unweave and tamper
        victim = step[2]
        sid = self._fullest(victim)
        if sid is not None:
            self.chance = ("pick", (step[0], step[1], victim, sid), tuple(t for t, _ in self.woven[sid]))
        return False

    def _end_turn_step(self, step: tuple) -> bool:
        self._recover()
        seat = self.seat
        if len(self.cabinet[seat]) > self.cabinet_limit(seat) or len(self.homework[seat]) > self.homework_limit(seat):
            self.queue[0:0] = [("trim",), ("next_turn",)]
            return False  # the queue takes over: trim waits for the student's choices
        # the usual end of a turn run here rather than step by step through the queue, as those steps
        # would: nothing to trim, the next turn, and (unless the game is over) its beginning
        if not self._pass_turn():
            return False
        self._begin_turn()
        return True

    def _trim(self, step: tuple) -> bool:
        seat = self.seat
        if len(self.cabinet[seat]) > self.cabinet_limit(seat):
            self.queue.insert(0, step)
            self.phase = "trim_tiles"
            return True
        if len(self.homework[seat]) > self.homework_limit(seat):
            self.queue.insert(0, step)
            self.phase = "trim_spells"
            return True
        return False

    def _next_turn_step(self, step: tuple) -> bool:
        if self._pass_turn():
            self.queue.insert(0, ("begin_turn",))
        return False

    def _fullest(self, victim: int) -> int | None:
        best, most = None, 0
        for sid in self.homework[victim]:
            n = len(self.woven.get(sid, ()))
            if n > most:
                best, most = sid, n
        return best

    def _begin_turn(self) -> None:
        seat = self.seat
        self.phase = "action"
        self.free_weaves = self.free_weave_used = self.second_looks_used = 0
        if self.trading:
            self._trade_window(self._windows[seat])
        self._count_short_letters(seat)
        # the end-of-turn steps run after the action (queue is empty now)
        self.queue = [("end_turn",)]

    def _count_short_letters(self, seat: int) -> None:
        """Statistics: each letter a spell of the student about to play needs and the laboratory has
        run out of."""
        needs, kept = self._needs.get(seat), self._lab_counts  # needs() and _unseen_counts(), inline: every turn
        if needs is None:
            needs = self.needs(seat)
        if kept is None or kept[0] is not self.mixed or kept[1] != self.mixed_count:
            kept = self._unseen_counts()
        unseen = kept[3]
        if needs.keys() <= unseen:  # mostly: the unseen tiles hold every letter needed
            return
        short = needs.keys() - unseen  # set operations: no Python loop per letter or per known tile
        short.difference_update(self.known_letters().values())
        if not short:
            return
        for sid in self.homework[seat]:  # counted per spell, in the homework's and the words' order
            for letter in self.remaining(sid):
                if letter in short:
                    self.stats["short:" + letter] += 1

    def needs(self, seat: int) -> Letters:
        """The letters the seat's homework still needs; cached, do not modify."""
        total = self._needs.get(seat)
        if total is None:
            total = self._needs[seat] = self._count_needs(seat)
        return total

    def _count_needs(self, seat: int) -> Letters:
        total = Letters()
        for sid in self.homework[seat]:
            for letter, n in self.remaining(sid).items():  # Counter.update's sums, without its type checks
                total[letter] = n + total.get(letter, 0)
        return total

    def _trade_window(self, seats: list[int]) -> None:
        """The trading policy: one-for-one swaps that help both students (see README). A trade moves
        tiles between cabinets, never homework, so needs stay as they are through the window."""
        # only a seat with both a spare letter and a wanted one can trade (and the others' cabinets
        # stay as they are through the window)
        views, kept, cabinets, needs = [], self._trade_views, self.cabinet, self._needs
        for seat in seats:
            last = kept.get(seat)  # _trade_view's own check, inline: every turn asks for every other seat
            if last is not None and last[1] is needs.get(seat) and last[0] == cabinets[seat]:
                spare, wanted = last[2]
            else:
                spare, wanted = self._count_trade_view(seat, cabinets[seat], self.needs(seat))
            if spare and wanted:
                views.append([seat, spare, wanted])
        if len(views) < 2:
            return
        for i, first in enumerate(views):
            spare, wanted = first[1], first[2]
            for second in views[i + 1:]:
                # a quick no first (most windows trade nothing), then the exact policy
                if not (spare.isdisjoint(second[2]) or second[1].isdisjoint(wanted)):
                    self._trade_pair(first, second)
                    spare, wanted = first[1], first[2]  # the trades made changed its view

    def _trade_pair(self, first: list, second: list) -> None:
        """Up to three trades between two seats whose views ([seat, spare, wanted]) allow one; the
        views are kept up to date for the window's later pairs."""
        a, b = first[0], second[0]
        for _ in range(3):
            if first[1].isdisjoint(second[2]) or second[1].isdisjoint(first[2]):
                return
            if not self._one_trade(a, b, self.needs(a), self.needs(b)):
                return
            first[1:], second[1:] = self._trade_view(a), self._trade_view(b)

    def _trade_view(self, seat: int) -> tuple[set[str], set[str]]:
        """The letters of the seat's spare tiles, and the letters it needs more of than its cabinet
        holds: a trade between two seats needs each to have a spare the other wants (`_wanted_spare`).
        Kept per seat while its cabinet (compared with a copy) and needs (the same object) stay the same."""
        cabinet = self.cabinet[seat]
        needs = self._needs.get(seat)
        if needs is None:
            needs = self.needs(seat)
        view = self._trade_views.get(seat)
        if view is not None and view[1] is needs and view[0] == cabinet:
            return view[2]
        return self._count_trade_view(seat, cabinet, needs)

    def _count_trade_view(self, seat: int, cabinet: list[int], needs: Letters) -> tuple[set[str], set[str]]:
        """_trade_view counted anew, and kept."""
        letters = self.cat.letters
        if self.stones:  # a stone is never spare (without the variant, no stone is in play)
            held = [letters[t] for t in cabinet if not self.cat.stone[t]]
        else:
            held = list(map(letters.__getitem__, cabinet))
        left = dict(needs)  # what the homework needs beyond the tiles counted so far (none left: dropped)
        spare = set()
        for letter in held:
            n = left.get(letter, 0)
            if n > 1:
                left[letter] = n - 1
            elif n:
                del left[letter]
            else:
                spare.add(letter)
        found = (spare, set(left))
        self._trade_views[seat] = (list(cabinet), needs, found)
        return found

    def _one_trade(self, a: int, b: int, need_a: Counter, need_b: Counter) -> bool:
        give_a = self._wanted_spare(a, need_a, b, need_b)
        if give_a is None:
            return False
        give_b = self._wanted_spare(b, need_b, a, need_a)
        if give_b is None:
            return False
        self.cabinet[a].remove(give_a)
        self.cabinet[b].remove(give_b)
        self.cabinet[a].append(give_b)
        self.cabinet[b].append(give_a)
        self.stats["trades"] += 1
        return True

    def _wanted_spare(self, giver: int, giver_needs: Counter, taker: int, taker_needs: Counter) -> int | None:
        """The first of the giver's spare tiles whose letter the taker needs more of than it holds."""
        letters = self.cat.letters
        held: list[str] | None = None  # the letters of the taker's tiles (counted with list.count: no Counter made)
        for t in _spares(self.cabinet[giver], giver_needs, self.cat):
            letter = letters[t]
            wanted = taker_needs.get(letter, 0)
            if wanted:
                if held is None:
                    held = list(map(letters.__getitem__, self.cabinet[taker]))
                if wanted > held.count(letter):
                    return t
        return None

    def _recover(self) -> None:
        """The end of the active student's turn: a tile left in hand kept, spirit recovered."""
        seat = self.seat
        if self.looking is not None:  # never left in hand, but be safe
            self.cabinet[seat].append(self.looking)
            self.looking = None
        if self.spirit[seat] < self.cat.params["recover_below"]:
            self.spirit[seat] += 1
        self.spirit[seat] += self.lasting(seat, "regen")

    def _pass_turn(self) -> bool:
        """The turn passes to the next student: False when the game is over instead."""
        seat = self.seat
        self.turns += 1
        if self.final_left is not None:
            self.final_left -= 1
        elif (self.credits(seat) if self.spellbook[seat] else 0) >= self.goal:  # credits() of an empty book, inline
            self.final_left = self.players - 1
        if self.final_left is not None and self.final_left <= 0:
            self.done = True
            self.phase = "over"
            return False
        self.seat = (seat + 1) % self.players
        return True

    # ---- for the search player: what a seat cannot see ----------------------------------
    def determinize(self, seat: int, rng) -> MagicSpellState:
        """A clone with the unseen laboratory and the other cabinets re-dealt, and the spells in other
        students' homework with nothing woven on them re-dealt from the undrawn spells.

        A re-dealt spell takes over the progress turn of the spell it replaces (when a student took
        a spell is public, which spell is not)."""
        s = self.clone()
        others = [o for o in range(s.players) if o != seat]
        unseen = [t for tiles in s.mixed.values() for t in tiles]
        hands, rest = redeal(rng, unseen + [t for o in others for t in s.cabinet[o]], [len(s.cabinet[o]) for o in others])
        for o, hand in zip(others, hands, strict=False):
            s.cabinet[o] = hand
        mixed: dict[str, list[int]] = {}
        for t in rest:
            mixed.setdefault(s.cat.letters[t], []).append(t)
        s.mixed = dict(sorted(mixed.items()))
        bare = {o: [sid for sid in s.homework[o] if not s.woven.get(sid)] for o in others}
        hands, rest = redeal(rng, list(s.deck_mixed) + [sid for o in others for sid in bare[o]], [len(bare[o]) for o in others])
        for o, hand in zip(others, hands, strict=False):
            for sid in bare[o]:
                s.woven.pop(sid, None)  # woven once, its tiles since taken back: as bare as a new spell
            turns = [s.progress.pop(sid, s.turns) for sid in bare[o]]
            s.homework[o] = [sid for sid in s.homework[o] if s.woven.get(sid)] + hand
            s.progress.update(zip(hand, turns, strict=False))
        s.deck_mixed = sorted(rest)
        s.drop_caches()
        return s

    # ---- invariants and results -----------------------------------------------------
    def check_invariants(self) -> None:
        """Every tile in exactly one place (each filed under its letter), every spell in exactly one
        place, woven letters the spell needs, no negative spirit, spellbooks matching completions,
        homework limits kept. Cheap enough to run after every action: set operations over the
        places, and the slow search for the culprit only once something is wrong."""
        cat = self.cat
        unseen = self._unseen_checked()
        if len(unseen) != self.mixed_count:
            raise InvariantError("laboratory count is off")
        if not set(chain.from_iterable(self.homework)).issuperset(self.woven):
            raise InvariantError("a woven spell is in no homework")  # and in at most one: each spell is in one place
        fits = cat.fitting_claims
        for sid, pairs in self.woven.items():
            if (sid, tuple(pairs)) not in fits and not cat.fits(sid, pairs):
                raise InvariantError(f"spell {sid} has tiles claiming letters it does not need")
        woven = list(map(itemgetter(0), chain.from_iterable(self.woven.values())))
        if self.tampered and not self.tampered.issubset(woven):
            raise InvariantError("a tampered tile is not on a spell")
        # each tile exactly once: as many places as tiles, and together they hold every tile
        found = set(unseen)
        found.update(self.known, self.removed, woven, *self.cabinet)
        held = self.mixed_count + len(self.known) + len(self.removed) + len(woven) + sum(map(len, self.cabinet))
        if self.looking is not None:
            found.add(self.looking)
            held += 1
        if held != len(cat.all_tiles) or found != cat.all_tiles:
            raise InvariantError(self._misplaced_tiles())
        if min(self.spirit) < 0:
            raise InvariantError("negative spirit")
        self._check_spells()
        if self.phase != "setup":
            for seat, homework in enumerate(self.homework):
                if len(homework) > cat.homework_floor and seat != self.seat and len(homework) > self.homework_limit(seat):
                    raise InvariantError(f"seat {seat} ended its turn over the homework limit")
        self._check_caches()

    def _check_spells(self) -> None:
        """Every spell in exactly one place, and the spellbooks holding exactly the completed spells.
        Incremental like `_unseen_checked`: the places are compared with a copy of the last ones checked."""
        places = (self.deck_mixed, self.deck_bottom, self.homework, self.spellbook, self.completed)
        if self._last_spells == places:
            return
        cat = self.cat
        books = (self.deck_mixed, self.deck_bottom, *self.homework, *self.spellbook)
        found = set(self.deck_mixed)
        found.update(*books)
        if sum(map(len, books)) != len(cat.all_spells) or found != cat.all_spells:
            raise InvariantError("a spell is lost or duplicated")
        if self.completed != dict(zip(chain.from_iterable(self.spellbook),
                                      chain.from_iterable(map(repeat, range(self.players), map(len, self.spellbook))),
                                      strict=False)):
            raise InvariantError("the spellbooks do not hold exactly the spells each student completed")
        self._last_spells = (list(self.deck_mixed), list(self.deck_bottom), [list(h) for h in self.homework],
                             [list(b) for b in self.spellbook], dict(self.completed))

    def _check_caches(self) -> None:
        """What `remaining`, `needs` and `_weave_table` cached is what they would count now (a change
        that did not drop them would make every later move read stale letters). Incremental like
        `_check_spells`: skipped while the spells' tiles, the homework and the cached objects are those
        last checked."""
        cached = (tuple(self._left.items()), tuple(self._needs.items()))  # compared by identity first
        last = self._last_caches
        if last is not None and last[0] == self.woven and last[1] == self.homework and last[2] == cached:
            return
        for sid, left in self._left.items():
            if list(self._count_left(sid).items()) != list(left.items()):  # in the word's order too
                raise InvariantError(f"the cached letters spell {sid} still needs are stale")
        for seat, needs in self._needs.items():
            if not dict.__eq__(needs, self._count_needs(seat)):  # dict's own: Counter's is written in Python
                raise InvariantError(f"the cached letters seat {seat} still needs are stale")
            table = self._weave_tables.get(seat)
            if table is not None and table[0] is needs and table[1:] != self._count_weave_table(seat):
                raise InvariantError(f"the cached weave counts of seat {seat} are stale")
        self._last_caches = ({sid: list(pairs) for sid, pairs in self.woven.items()}, [list(h) for h in self.homework], cached)

    def _unseen_checked(self) -> list[int]:
        """The unseen laboratory's tiles, each checked to be filed under its own letter. Incremental:
        the unseen tiles change only when one is drawn, so the last checked laboratory is kept (a
        copy, compared in full: any change, however made, is checked again)."""
        last = self._last_unseen
        if last is not None and last[0] == self.mixed:
            return last[1]
        cat = self.cat
        try:  # map/all: no Python loop per letter
            filed_right = all(map(frozenset.issuperset, map(cat.tiles_of.__getitem__, self.mixed), self.mixed.values()))
        except KeyError:
            filed_right = False
        if not filed_right:
            bad, letter = next((t, letter) for letter, filed in self.mixed.items() for t in filed if cat.letters[t] != letter)
            raise InvariantError(f"tile {bad} filed under {letter}")
        kept = self._lab_counts
        if kept is not None and kept[0] is self.mixed and kept[1] == self.mixed_count and kept != self._count_unseen():
            raise InvariantError("the cached counts of the unseen laboratory are stale")
        unseen = list(chain.from_iterable(self.mixed.values()))
        self._last_unseen = ({letter: list(filed) for letter, filed in self.mixed.items()}, unseen)
        return unseen

    def _misplaced_tiles(self) -> str:
        """Which tile is where it should not be (the check found the places do not hold each tile once)."""
        places: dict[int, str] = {}
        listed = [("laboratory (unseen)", t) for tiles in self.mixed.values() for t in tiles]
        listed += [("laboratory (seen)", t) for t in self.known] + [("out of the game", t) for t in self.removed]
        listed += [(f"cabinet {seat}", t) for seat in range(self.players) for t in self.cabinet[seat]]
        listed += [(f"spell {sid}", t) for sid, pairs in self.woven.items() for t, _ in pairs]
        listed += [("hand", self.looking)] if self.looking is not None else []
        for where, tile in listed:
            if tile in places:
                return f"tile {tile} is both in {places[tile]} and {where}"
            if tile not in self.cat.all_tiles:
                return f"{where} holds tile {tile}, which is not in the game"
            places[tile] = where
        return f"{len(self.cat.all_tiles) - len(places)} tiles are missing"

    # ---- what a seat sees (spellpress play; heuristics read the state: see MagicSpellPlayer) ----
    def tile_card(self, tile: int) -> CardRef:
        return CardRef("ingredients", self.cat.tile_cards[tile])

    def letter_card(self, letter: str) -> CardRef:
        return CardRef("ingredients", self.cat.letter_cards[letter])

    def spell_card(self, sid: int) -> CardRef:
        return CardRef("spells", self.cat.spells[sid].id)

    def observation(self, seat: int) -> Observation:
        known = sorted(self.known, key=self.known.__getitem__)
        zones = [Zone("lab", "laboratory", "row", None, tuple(self.tile_card(t) for t in known), self.mixed_count,
                      "ingredients", note="face-down tiles whose letters everyone saw, and unseen ones"),
                 Zone("spells", "spell deck", "pile", None, (), len(self.deck_mixed) + len(self.deck_bottom), "spells")]
        if self.removed:
            zones.append(Zone("removed", "out of the game", "row", None, tuple(self.tile_card(t) for t in self.removed)))
        if self.looking is not None and (seat == self.seat or self.looking in self.known):
            zones.append(Zone("looking", "scrounged tile", "row", self.seat, (self.tile_card(self.looking),)))
        elif self.looking is not None:
            zones.append(Zone("looking", "scrounged tile", "row", self.seat, (), 1, "ingredients"))
        facts = []
        for other in range(self.players):
            zones.append(hand_zone(other, seat, [self.tile_card(t) for t in self.cabinet[other]], "ingredients",
                                   "your cabinet" if other == seat else f"seat {other + 1}'s cabinet"))
            bare = 0
            for sid in self.homework[other]:
                woven = self.woven.get(sid, ())
                if other != seat and not woven:
                    bare += 1
                    continue
                claimed = "".join(letter for _, letter in woven).upper()
                zones.append(Zone(f"homework:{other}:{sid}", f"seat {other + 1}'s homework", "row", other,
                                  (self.spell_card(sid),) + tuple(self.letter_card(letter) for _, letter in woven),
                                  note=f"woven: {claimed}" if claimed else ""))
            if bare:
                zones.append(Zone(f"homework:{other}", f"seat {other + 1}'s homework", "pile", other, (), bare, "spells"))
            if self.spellbook[other]:
                zones.append(Zone(f"spellbook:{other}", f"seat {other + 1}'s spellbook", "row", other,
                                  tuple(self.spell_card(sid) for sid in self.spellbook[other])))
            facts.append(f"seat {other + 1}: {self.spirit[other]} spirit, {self.credits(other)} credits")
        facts.append(f"goal: {self.goal} credits")
        return Observation(seat, to_move(self.current_player()), self.phase, tuple(self.returns()), tuple(zones), tuple(facts))

    def action_to_string(self, action) -> str:
        try:
            move = typed(action)
        except IllegalAction:
            return super().action_to_string(action)
        word = lambda sid: self.cat.spells[sid].word.upper()  # noqa: E731
        if isinstance(move, Weave):
            return f"weave {move.letter.upper()} into {word(move.spell)}"
        if isinstance(move, Cast):
            return f"cast {word(move.spell)}" + (f" on seat {move.target + 1}" if move.target != NO_TARGET else "")
        if isinstance(move, Take):
            if move.slot == MIXED:
                return f"{move.verb} an unseen tile"
            return f"{move.verb} the known {self.cat.letters[int(move.slot)].upper()}"
        if isinstance(move, TileChoice):
            return f"{TILE_CHOICE_NAMES[move.verb]} {self.cat.letters[move.tile].upper()}"
        if isinstance(move, Drop):
            return f"drop the spell {word(move.spell)}"
        return CHOICE_NAMES[move.verb]

    def action_cards(self, action) -> tuple[CardRef, ...]:
        try:
            move = typed(action)
        except IllegalAction:
            return ()
        if isinstance(move, (Weave, TileChoice)):
            return (self.tile_card(move.tile),)
        if isinstance(move, (Cast, Drop)):
            return (self.spell_card(move.spell),)
        return ()

    def outcome(self, stalled: bool = False) -> Outcome:
        out = super().outcome(stalled)
        for seat in range(self.players):
            for sid in self.held[seat]:
                out.played.setdefault("spell:" + self.cat.spells[sid].id, set()).add(seat)
        figures = {key: float(value) for key, value in self.stats.items()}
        figures["turns_per_player"] = self.turns / self.players
        figures["spells_completed"] = float(len(self.completed))
        for sid in self.completed:
            figures["completed:" + self.cat.spells[sid].id] = 1.0
        out.figures = figures
        return out


def _spares(tiles: list[int], needs: Counter, cat: Catalog) -> list[int]:
    """Cabinet tiles beyond what the student's homework still needs (never a stone)."""
    left = dict(needs)  # a copy (a plain dict: a Counter's copy is slow)
    spares = []
    for t in tiles:
        letter = cat.letters[t]
        if cat.stone[t]:
            continue
        if left.get(letter, 0) > 0:
            left[letter] -= 1
        else:
            spares.append(t)
    return spares


_STEPS: dict[str, Callable[..., bool]] = {  # step kind -> the method that runs it
    "deal_tile": MagicSpellState._deal_tile, "deal_spell": MagicSpellState._draw_spell,
    "draw_spell": MagicSpellState._draw_spell, "begin_turn": MagicSpellState._begin_turn_step,
    "decide_scrounge": MagicSpellState._decide_scrounge, "extra": MagicSpellState._extra,
    "scrounge_step": MagicSpellState._scrounge_step, "scrounge_again": MagicSpellState._scrounge_step,
    "draw": MagicSpellState._draw, "free_weaves": MagicSpellState._free_weaves,
    "transmute": MagicSpellState._transmute, "gain": MagicSpellState._gain,
    "drain": MagicSpellState._drain, "siphon": MagicSpellState._drain, "steal": MagicSpellState._steal,
    "take_random": MagicSpellState._take_random, "swap": MagicSpellState._swap,
    "scatter": MagicSpellState._scatter, "unweave": MagicSpellState._unweave, "tamper": MagicSpellState._unweave,
    "end_turn": MagicSpellState._end_turn_step, "trim": MagicSpellState._trim, "next_turn": MagicSpellState._next_turn_step,
}


def _adjusted(counts: Letters, letter: str, change: int) -> Letters:
    """A copy of the counts with the letter's count changed (and dropped at zero)."""
    copy = Letters(counts)
    n = copy.get(letter, 0) + change
    if n > 0:
        copy[letter] = n
    else:
        copy.pop(letter)  # dict's own: Counter's __delitem__ is written in Python
    return copy


TILE_CHOICE_NAMES = {"give": "give", "return_tile": "return", "discard": "discard"}
CHOICE_NAMES = {"research": "research a spell", "rest": "rest", "keep": "keep the tile", "return": "put the tile back",
                "stop": "stop"}

_MOVES: dict[str, tuple[Callable[..., None], tuple[str, ...]]] = {  # verb -> its method, the phases it is played in
    "weave": (MagicSpellState._weave_move, ("action", "scrounged", "extra")),
    "cast": (MagicSpellState._cast_move, ("action",)),
    "scrounge": (MagicSpellState._scrounge_move, ("action", "scrounge")),
    "pick": (MagicSpellState._pick_move, ("pick",)),
    "research": (MagicSpellState._research_move, ("action",)),
    "rest": (MagicSpellState._rest_move, ("action",)),
    "keep": (MagicSpellState._keep_move, ("scrounged",)),
    "return": (MagicSpellState._return_move, ("scrounged",)),
    "stop": (MagicSpellState._stop_move, ("extra", "transmute")),
    "give": (MagicSpellState._give_move, ("give",)),
    "return_tile": (MagicSpellState._return_tile_move, ("transmute",)),
    "discard": (MagicSpellState._discard_move, ("trim_tiles",)),
    "drop": (MagicSpellState._drop_move, ("trim_spells",)),
}
