"""Evocabulary's game state: setup, legal moves, applying them (the effect vocabulary),
scoring, the end of the game, and the invariants.

Actions (named tuples, equal to the plain tuples below: see actions.py):
  main phase    ("start", word, src) | ("modify", team, word, src) | ("discard", letters)
                src gives each letter's source: h hand, w wild, l locked letter of
                the destination team, s a card already in the spell (modify only);
                it is canonical (see `make_src`). letters: sorted, "?" for a wild.
  team phase    ("use", slot, *params) | ("end",)
                draw/wild: no params; burn: letter; publish: team, achievement id or "";
                hire: market index, team, side (0 special, 1 plain), lock letter or "";
                pickup: team; lock: letter; teamwork: (team, position, k), then the
                copied action's params.
  chance        ("deal", letter) a letter card from the deck; ("reveal", familiar index).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from typing import Any, cast

from spellpress.rules.chance import draw_chance, draw_counted
from spellpress.rules.evocabulary.actions import (
    CHANCE_TYPES,
    END,
    MAIN_TYPES,
    TEAM_TYPES,
    Deal,
    Discard,
    End,
    MainAction,
    Modify,
    Reveal,
    Start,
    Use,
    typed,
)
from spellpress.rules.evocabulary.content import WILD, Content
from spellpress.rules.evocabulary.settings import COPYABLE
from spellpress.rules.evocabulary.words import SOURCE_ORDER, all_builds, count_builds, src_counts, subs_of
from spellpress.rules.moves import LazyMoves
from spellpress.rules.observation import CardRef, Observation, Zone, hand_zone, to_move
from spellpress.rules.protocol import CHANCE, TERMINAL, IllegalAction, InvariantError, Outcome, State, redeal
from spellpress.words.index import key

SCORING_PLAYS_KEPT = 20_000  # scoring_play's answers kept per game before that memo starts over


class EvoState(State):
    def __init__(self, content: Content, players: int, extra_letters: Sequence[int] = (), extra_wilds: Sequence[int] = (),
                 extra_points: Sequence[int] = ()):
        self.content = content
        self.players = players
        self.version = 0  # actions applied: a MainMoves of an earlier position refuses to answer
        self.turns = 0
        self.deck: dict[str, list[int]] = defaultdict(list)
        self.wild_pile: list[int] = []
        for i, letter in enumerate(content.letter):
            (self.wild_pile if letter == WILD else self.deck[letter]).append(i)
        self.deck = dict(self.deck)
        self.deck_count = sum(len(v) for v in self.deck.values())
        self.discard: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.spells: list[dict[int, list]] = [{} for _ in range(players)]  # team -> [word, card ids]
        # team -> list of [familiar id, side (0 special, 1 plain), locked letter-card ids]
        self.teams: list[dict[int, list[list]]] = [{t: [] for t in content.teams} for _ in range(players)]
        self.familiar_deck: dict[int, list[int]] = defaultdict(list)
        for fid, d in enumerate(content.fam_def_of):
            self.familiar_deck[d].append(fid)
        self.familiar_deck = dict(self.familiar_deck)
        self.market: list[int] = []
        self.piles = {p: [a.id for a in content.achievements if a.pile == p and a.players <= players] for p in content.piles}
        self.unused_achievements = [a.id for a in content.achievements if a.players > players]
        self.claimed: list[list[str]] = [[] for _ in range(players)]
        self.scores = [0] * players
        self.ledger: list[Counter[str]] = [Counter() for _ in range(players)]  # publish, burn, achievement (and setup) points
        for s, pts in enumerate(extra_points):
            if pts:
                self.scores[s] += pts
                self.ledger[s]["setup"] += pts
        # setup: every seat draws its hand; the catch-up gives later seats extra letters and wilds
        self.extra_letters = list(extra_letters) or [0] * players
        self.extra_wilds = list(extra_wilds) or [0] * players
        # (seat, draws still due)
        self.pending: list[tuple[int, int]] = [(s, content.hand_size + self.extra_letters[s]) for s in range(players)]
        for s in range(players):
            for _ in range(min(self.extra_wilds[s], len(self.wild_pile))):
                self.hands[s].append(self.wild_pile.pop())
        self.reveals_due = content.market_size  # market gaps to fill from the familiar deck
        self.seat = 0
        self.phase = "main"  # main | team | over
        self.active_team = 0  # team being resolved
        self.slots: list[tuple[int, str]] = []  # (familiar position or -1 for the leader, action)
        self.used_slots: set[int] = set()
        self.played: dict[str, set[int]] = defaultdict(set)
        self.figures: Counter = Counter()
        self.quiet_turns = 0  # turns in a row that started with the deck empty, without a point scored
        self.started_empty = False  # did the current turn start with the deck empty?
        self.last_total = sum(self.scores)  # every seat's points when the last turn ended

    # -- helpers --------------------------------------------------------
    def hand_letters(self, seat: int) -> list[str]:
        return [self.content.letter[i] for i in self.hands[seat]]

    def locked_letters(self, seat: int, team: int) -> str:
        return key("".join(self.content.letter[i] for f in self.teams[seat][team] for i in f[2]))

    def fam_actions(self, fam: list) -> tuple[str, ...]:
        return self.content.fam_defs[self.content.fam_def_of[fam[0]]][1][fam[1]]

    def team_actions(self, seat: int, team: int) -> list[tuple[int, str]]:
        slots = [(-1, a) for a in self.content.leaders[team].actions]
        for pos, fam in enumerate(self.teams[seat][team]):
            slots.extend((pos, a) for a in self.fam_actions(fam))
        return slots

    def room(self, seat: int, team: int) -> bool:
        return len(self.teams[seat][team]) < self.content.leaders[team].limit

    def spell_wilds(self, spell: list) -> int:
        return sum(1 for i in spell[1] if self.content.letter[i] == WILD)

    def spell_points(self, spell: list) -> int:
        return sum(self.content.points[i] for i in spell[1])

    def best_bonus(self, seat: int, word: str, cards: Sequence[int]) -> tuple[int, str]:
        """The best achievement (bonus points, id) this spell could claim now ("" if none)."""
        content = self.content
        if sum(1 for i in cards if content.letter[i] == WILD) > content.max_wilds:
            return 0, ""
        best, best_id = 0, ""
        top = max((content.points[i] for i in cards), default=0)
        for pile in content.piles:
            stack = self.piles[pile]
            if stack:
                a = content.ach_by_id[stack[0]]
                if a.met_by(word, content.words):
                    value = a.points + (a.multiplier - 1) * top if a.multiplier else a.points
                    if value > best or not best_id:
                        best, best_id = value, a.id
        return best, best_id

    # -- protocol -------------------------------------------------------
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if (self.pending and self.deck_count) or (self.reveals_due and self.familiar_deck):
            return CHANCE
        return self.seat

    def chance_outcomes(self):
        if self.reveals_due and self.familiar_deck:
            total = sum(len(v) for v in self.familiar_deck.values())
            return [(Reveal("reveal", d), len(v) / total) for d, v in sorted(self.familiar_deck.items())]
        total = self.deck_count
        return [(_deal(letter), len(v) / total) for letter, v in sorted(self.deck.items())]

    def sample_chance(self, rng) -> Any:
        """chance_outcomes()'s draw (State.sample_chance), from the same random number: a deal from the
        deck's counts without listing its outcomes."""
        if self.reveals_due and self.familiar_deck:
            return draw_chance(self.chance_outcomes(), rng)
        deck = self.deck
        letters = sorted(deck)
        letter = cast(str, draw_counted(letters, [len(deck[letter]) for letter in letters], self.deck_count, rng))
        return _deal(letter)

    def count_legal_actions(self) -> int:
        """len(legal_actions()) without making the actions (the runner's move counts): a main phase's
        moves counted from the word tables (count_main_actions), a team phase's from each slot's
        parameters, chance's from the deck."""
        if self.phase == "over":
            return 0
        if self.current_player() == CHANCE:
            return len(self.familiar_deck) if self.reveals_due and self.familiar_deck else len(self.deck)
        if self.phase == "main":
            return self.count_main_actions()
        return self._count_team_actions()

    def legal_actions(self) -> Sequence[Any]:
        if self.phase == "over":
            return []
        if self.current_player() == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        if self.phase == "main":
            return MainMoves(self)
        return self._team_actions()

    def _main_actions(self, only: tuple | None = None) -> list:
        """The main phase's moves; with `only`, just those that could equal that one move
        (same rules, one word's builds: what `MainMoves.__contains__` asks)."""
        if only is not None and only[0] == "discard":
            return [Discard(*only)] if only[1] in subs_of(key("".join(self.hand_letters(self.seat)))) else []
        out: list = []
        for kind, team, word, src in self._plays(self.seat, only):
            out.append(_play_move(kind, team, word, src))
        if only is None:
            for sub in subs_of(key("".join(self.hand_letters(self.seat)))):
                out.append(Discard("discard", sub))
        return list(dict.fromkeys(out))

    def count_main_actions(self) -> int:
        """len(_main_actions()), counted without making the moves (the runner's move counts): the moves
        it lists are all different (a word lands at one team, so at one lock group, and each way to
        share its letters among the sources has its own source string)."""
        sizes = self._plays(self.seat, counting=True)
        return sum(sizes) + len(subs_of(key("".join(self.hand_letters(self.seat)))))

    def _plays(self, seat: int, only: tuple | None = None, dests: frozenset[int] | None = None,
               counting: bool = False, ordered: bool = True) -> Iterator:
        """Every start and modify this seat may make, as (kind, spell's team or None, word,
        source string: see make_src); with `only`, just that move's word; with `dests`, only plays
        landing at those teams; `counting`, how many there are, a number per group of plays; not
        `ordered`, the same plays in no set order (the words of a group of plays as found). A start
        takes at least one card from the hand; a modify adds one from the hand or takes one
        out of the spell ("add and/or remove letters"), so rearranging alone is no modify."""
        kind = word = team_only = None
        if only is not None:
            kind = only[0]
            word = only[1] if kind == "start" else only[2]
            if not isinstance(word, str) or self.content.team_of(len(word)) is None:
                return
            team_only = self.content.team_of(len(word))

        def allowed(teams: set[int]) -> set[int]:
            if team_only is not None:
                teams = teams & {team_only}
            return teams & dests if dests is not None else teams

        if kind in (None, "start"):
            yield from self._start_plays(seat, allowed, word, counting, ordered)
        if kind in (None, "modify"):
            yield from self._modify_plays(seat, allowed, word, counting, only[1] if only is not None else None, ordered)

    def _hand_pool(self, seat: int) -> tuple[str, int]:
        """The seat's hand as its letters but the wilds (sorted), and its number of wilds."""
        hand = self.hand_letters(seat)
        return key("".join(char for char in hand if char != WILD)), hand.count(WILD)

    def _start_plays(self, seat: int, allowed: Callable[[set[int]], set[int]], word: str | None,
                     counting: bool, ordered: bool = True) -> Iterator:
        """`_plays`' starts: a new spell at a team without one."""
        content = self.content
        letters, n_wild = self._hand_pool(seat)
        free = [t for t in content.teams if t not in self.spells[seat]]
        for teams, locked in self._lock_groups(seat, free):
            teams = allowed(teams)
            if not teams:
                continue
            sources, wilds = {"l": locked, "h": letters}, min(n_wild, content.spell_max_wilds)
            if counting:
                yield count_builds(content, sources, wilds, teams, _starts)
                continue
            for word_, src, hand_n, spell_n, w in all_builds(content, sources, wilds, teams, word, ordered):
                if _starts(hand_n, spell_n, w):
                    yield "start", None, word_, src

    def _modify_plays(self, seat: int, allowed: Callable[[set[int]], set[int]], word: str | None,
                      counting: bool, only_team: int | None, ordered: bool = True) -> Iterator:
        """`_plays`' modifies: each spell (or the one at `only_team`) made another word."""
        content = self.content
        letters, n_wild = self._hand_pool(seat)
        for team, spell in sorted(self.spells[seat].items()):
            if only_team is not None and team != only_team:
                continue
            own = key("".join(content.letter[i] for i in spell[1] if content.letter[i] != WILD))
            sw = self.spell_wilds(spell)
            dest_teams = [t for t in content.teams if t == team or t not in self.spells[seat]]
            for teams, locked in self._lock_groups(seat, dest_teams):
                teams = allowed(teams)
                if not teams:
                    continue
                sources, wilds = {"l": locked, "s": own, "h": letters}, min(n_wild + sw, content.spell_max_wilds)
                modifies = _modifies(len(own), sw)
                if counting:
                    yield count_builds(content, sources, wilds, teams, modifies)
                    continue
                for word_, src, hand_n, spell_n, w in all_builds(content, sources, wilds, teams, word, ordered):
                    if modifies(hand_n, spell_n, w):
                        yield "modify", team, word_, src

    def _lock_groups(self, seat: int, teams: list[int]) -> list[tuple[set[int], str]]:
        """Teams grouped by the locked letters their spells may use."""
        groups: dict[str, set[int]] = defaultdict(set)
        for t in teams:
            groups[self.locked_letters(seat, t)].add(t)
        return [(ts, locked) for locked, ts in sorted(groups.items())]

    def _team_actions(self) -> list:
        out: list = [END]
        for slot, copied, params in self._slot_params():
            if copied is None:
                out.extend(Use("use", slot, *p) for p in params)
            else:
                out.extend(Use("use", slot, copied, *p) for p in params)
        return out

    def _count_team_actions(self) -> int:
        """len(_team_actions()), from each slot's parameters without making the actions."""
        return 1 + sum(len(params) for _, _, params in self._slot_params())

    def _slot_params(self) -> Iterator[tuple[int, tuple | None, list[tuple]]]:
        """The team phase's unused slots, in order, as (slot, the (team, position, k) a teamwork copies or
        None, every parameter tuple of the action)."""
        for i, (pos, action) in enumerate(self.slots):
            if i in self.used_slots:
                continue
            if action == "teamwork":
                for team in self.content.teams:
                    for p2, fam in enumerate(self.teams[self.seat][team]):
                        if team == self.active_team and p2 == pos:
                            continue
                        for k, a in enumerate(self.fam_actions(fam)):
                            if a in COPYABLE:
                                yield i, (team, p2, k), self._params(a, None)
            else:
                yield i, None, self._params(action, pos)

    def _params(self, action: str, pos: int | None) -> list[tuple]:
        seat = self.seat
        hand = sorted(set(self.hand_letters(seat)))
        if action in ("draw", "wild"):
            return [()]
        if action == "burn":
            return [(char,) for char in hand]
        if action == "publish":
            out: list[tuple] = []
            for team, spell in sorted(self.spells[seat].items()):
                out.append((team, ""))
                for aid in self._claimable(spell):
                    out.append((team, aid))
            return out
        if action == "pickup":
            return [(team,) for team in sorted(self.spells[seat])]
        if action == "lock":
            assert pos is not None, "a lock familiar's position"
            fam = self.teams[seat][self.active_team][pos]
            return [] if fam[2] else [(char,) for char in hand]
        if action == "hire":
            out = []
            for m, fid in enumerate(self.market):
                sides = self.content.fam_defs[self.content.fam_def_of[fid]][1]
                for team in self.content.teams:
                    if not self.room(seat, team):
                        continue
                    for side in (0, 1):
                        if "lock" in sides[side] and hand:
                            out.extend((m, team, side, char) for char in hand)
                        else:
                            out.append((m, team, side, ""))
            return out
        raise IllegalAction(f"unknown action {action!r}")

    def _claimable(self, spell: list) -> list[str]:
        content = self.content
        if self.spell_wilds(spell) > content.max_wilds:
            return []
        out = []
        for pile in content.piles:
            stack = self.piles[pile]
            if stack and content.ach_by_id[stack[0]].met_by(spell[0], content.words):
                out.append(stack[0])
        return out

    # -- applying ----------------------------------------------------------
    def apply(self, action) -> None:
        self.version += 1
        if self.phase == "over":
            raise IllegalAction("the game is over")
        if self.current_player() == CHANCE:
            self._apply_chance(action)
            return
        if self.phase == "main":
            self.started_empty = self.deck_count == 0  # a main action is the first of a turn
            move = typed(action, MAIN_TYPES)  # IllegalAction for anything but a main action
        else:
            move = typed(action, TEAM_TYPES)
        _MOVES[move.verb](self, move)

    def _start_move(self, move: Start) -> None:
        self._start(move.word, move.src)
        self._after_play()

    def _modify_move(self, move: Modify) -> None:
        self._modify(move.team, move.word, move.src)
        self._after_play()

    def _discard_move(self, move: Discard) -> None:
        self._discard(move.letters)

    def _end_move(self, move: End) -> None:
        self._end_turn()

    def _use_move(self, move: Use) -> None:
        self._use(move)
        self._after_play()

    def _after_play(self) -> None:
        """After a start, a modify or a team action: refill an empty hand, end the turn once every
        action of the team is used."""
        self._refill_if_empty()
        if self.phase == "team" and len(self.used_slots) == len(self.slots):
            self._end_turn()

    def _apply_chance(self, action) -> None:
        outcome = typed(action, CHANCE_TYPES)
        if isinstance(outcome, Reveal):
            self._reveal(outcome)
        else:
            self._deal(outcome)

    def _reveal(self, outcome: Reveal) -> None:
        ids = self.familiar_deck.get(outcome.familiar)
        if not self.reveals_due or not ids:
            raise IllegalAction(f"cannot reveal {outcome!r}")
        self.market.append(ids.pop())
        if not ids:
            del self.familiar_deck[outcome.familiar]
        self.reveals_due -= 1

    def _deal(self, outcome: Deal) -> None:
        if not self.pending:
            raise IllegalAction(f"unexpected chance action {outcome!r}")
        ids = self.deck.get(outcome.letter)
        if not ids:
            raise IllegalAction(f"no {outcome.letter!r} in the deck")
        seat, n = self.pending[0]
        self.hands[seat].append(ids.pop())
        if not ids:
            del self.deck[outcome.letter]
        self.deck_count -= 1
        self.pending[0] = (seat, n - 1)
        if n - 1 == 0:
            self.pending.pop(0)
        if not self.deck_count:
            self.pending.clear()  # no draws from an empty deck

    def _take(self, seat: int, letters: Sequence[str]) -> list[int]:
        """Remove cards with these letters from the hand (lowest ids first)."""
        hand = self.hands[seat]
        taken = []
        for letter in letters:
            for i in hand:
                if self.content.letter[i] == letter and i not in taken:
                    taken.append(i)
                    break
            else:
                raise IllegalAction(f"no '{letter}' in hand")
        for i in taken:
            hand.remove(i)
        return taken

    def _check_word(self, word: str, src: str) -> int:
        content = self.content
        if not isinstance(word, str) or word not in content.words.words:
            raise IllegalAction(f"{word!r} is not a word")
        if len(src) != len(word) or set(src) - set(SOURCE_ORDER):
            raise IllegalAction(f"bad sources {src!r} for {word!r}")
        team = content.team_of(len(word))
        if team is None:
            raise IllegalAction(f"{word!r} is too short for a spell")
        return team

    def _start(self, word: str, src: str) -> None:
        seat, content = self.seat, self.content
        team = self._check_word(word, src)
        if team in self.spells[seat]:
            raise IllegalAction(f"team {team} already has a spell")
        counts = src_counts(word, src)
        if counts["s"]:
            raise IllegalAction("a new spell has no spell cards")
        if not (Counter(counts["l"]) <= Counter(self.locked_letters(seat, team))):
            raise IllegalAction("not enough locked letters at that team")
        if sum(counts["w"].values()) > content.spell_max_wilds:
            raise IllegalAction(f"a spell holds at most {content.spell_max_wilds} wilds")
        need = list(counts["h"].elements()) + [WILD] * sum(counts["w"].values())
        if not need:
            raise IllegalAction("a spell needs at least one letter from the hand")
        if not (Counter(need) <= Counter(self.hand_letters(seat))):
            raise IllegalAction("those letters are not in hand")
        cards = self._take(seat, need)
        self.spells[seat][team] = [word, cards]
        self.figures["starts"] += 1
        self._activate(team)

    def _modify(self, team: int, word: str, src: str) -> None:
        seat, content = self.seat, self.content
        spell = self.spells[seat].get(team)
        if spell is None:
            raise IllegalAction(f"no spell at team {team}")
        dest = self._check_word(word, src)
        if dest != team and dest in self.spells[seat]:
            raise IllegalAction(f"team {dest} already has a spell")
        counts = src_counts(word, src)
        if not (counts["l"] <= Counter(self.locked_letters(seat, dest))):
            raise IllegalAction("not enough locked letters at that team")
        own = Counter(content.letter[i] for i in spell[1])
        sw = own.pop(WILD, 0)
        if not (counts["s"] <= own):
            raise IllegalAction("those letters are not in the spell")
        n_w = sum(counts["w"].values())
        if n_w > content.spell_max_wilds:
            raise IllegalAction(f"a spell holds at most {content.spell_max_wilds} wilds")
        from_spell_w = min(n_w, sw)
        hand_need = list(counts["h"].elements()) + [WILD] * (n_w - from_spell_w)
        if not (Counter(hand_need) <= Counter(self.hand_letters(seat))):
            raise IllegalAction("those letters are not in hand")
        keep_letters = list(counts["s"].elements()) + [WILD] * from_spell_w
        kept, back = [], list(spell[1])
        for letter in keep_letters:
            for i in back:
                if content.letter[i] == letter:
                    kept.append(i)
                    back.remove(i)
                    break
        if not hand_need and not back:
            raise IllegalAction("a modify adds a letter from the hand or removes one from the spell")
        new_cards = self._take(seat, hand_need)
        self.hands[seat].extend(back)  # removed letters return to the hand
        del self.spells[seat][team]
        self.spells[seat][dest] = [word, kept + new_cards]
        self.figures["modifies"] += 1
        self._activate(dest)

    def _activate(self, team: int) -> None:
        self.phase = "team"
        self.active_team = team
        self.slots = self.team_actions(self.seat, team)
        self.used_slots = set()
        self._refill_if_empty()
        if not self.slots:
            self._end_turn()

    def _refill_if_empty(self) -> None:
        seat = self.seat
        if self.phase != "over" and not self.hands[seat] and self.deck_count and not self.pending:
            self.pending.append((seat, self.content.hand_size))
            self.figures["empty_hand_draws"] += 1

    def _discard(self, letters: str) -> None:
        seat = self.seat
        if not (Counter(letters) <= Counter(self.hand_letters(seat))):
            raise IllegalAction(f"cannot discard {letters!r}")
        for i in self._take(seat, list(letters)):
            self._to_discard(i)
        need = self.content.hand_size - len(self.hands[seat])
        if need > 0 and self.deck_count:
            self.pending.append((seat, need))
        self.figures["discard_turns"] += 1
        self._end_turn()

    def _to_discard(self, card: int) -> None:
        (self.wild_pile if self.content.letter[card] == WILD else self.discard).append(card)

    def _use(self, action: Use) -> None:
        slot = action.slot
        if not 0 <= slot < len(self.slots):
            raise IllegalAction(f"bad slot in {action!r}")
        if slot in self.used_slots:
            raise IllegalAction(f"slot {slot} already used")
        pos, name = self.slots[slot]
        params = action.params
        if name == "teamwork":
            if not params or not isinstance(params[0], tuple) or len(params[0]) != 3:
                raise IllegalAction("teamwork names a familiar to copy")
            team, p2, k = params[0]
            fams = self.teams[self.seat].get(team)
            if fams is None or not 0 <= p2 < len(fams) or (team == self.active_team and p2 == pos):
                raise IllegalAction("teamwork copies another of your familiars")
            acts = self.fam_actions(fams[p2])
            if not 0 <= k < len(acts) or acts[k] not in COPYABLE:
                raise IllegalAction("that action cannot be copied")
            self._effect(acts[k], params[1:], None)
            self.used_slots.add(slot)
            self.figures["teamwork_copies"] += 1
            return
        self._effect(name, params, pos)  # raises before changing anything if the params are wrong
        self.used_slots.add(slot)

    def _effect(self, name: str, params: tuple, pos: int | None) -> None:
        """The effect vocabulary: the card action `name`, with its parameters, by the familiar at
        `pos` of the active team (None for one copied by teamwork)."""
        effect = _EFFECTS.get(name)
        if effect is None:
            raise IllegalAction(f"unknown action {name!r}")
        effect(self, params, pos)

    def _draw_effect(self, params: tuple, pos: int | None) -> None:
        if self.deck_count:
            self._add_draw(self.seat, 1)

    def _wild_effect(self, params: tuple, pos: int | None) -> None:
        if self.wild_pile:
            self.hands[self.seat].append(self.wild_pile.pop())
            self.figures["wilds_taken"] += 1

    def _burn_effect(self, params: tuple, pos: int | None) -> None:
        if len(params) != 1:
            raise IllegalAction("burn names a letter")
        seat = self.seat
        card = self._take(seat, [params[0]])[0]
        self.scores[seat] += self.content.points[card]
        self.ledger[seat]["burn"] += self.content.points[card]
        self._to_discard(card)
        self.figures["burns"] += 1

    def _publish_effect(self, params: tuple, pos: int | None) -> None:
        if len(params) != 2:
            raise IllegalAction("publish names a team and an achievement")
        self._publish(*params)

    def _pickup_effect(self, params: tuple, pos: int | None) -> None:
        seat = self.seat
        if len(params) != 1 or params[0] not in self.spells[seat]:
            raise IllegalAction("pickup names one of your spells")
        spell = self.spells[seat].pop(params[0])
        self.hands[seat].extend(spell[1])
        self.figures["pickups"] += 1

    def _lock_effect(self, params: tuple, pos: int | None) -> None:
        if pos is None or len(params) != 1:
            raise IllegalAction("lock names a letter")
        fam = self.teams[self.seat][self.active_team][pos]
        if fam[2]:
            raise IllegalAction("this familiar already holds a letter")
        fam[2].extend(self._take(self.seat, [params[0]]))

    def _hire_effect(self, params: tuple, pos: int | None) -> None:
        if len(params) != 4:
            raise IllegalAction("hire names market, team, side, lock letter")
        self._hire(*params)

    def _add_draw(self, seat: int, n: int) -> None:
        if self.pending and self.pending[-1][0] == seat:
            self.pending[-1] = (seat, self.pending[-1][1] + n)
        else:
            self.pending.append((seat, n))

    def _publish(self, team: int, achievement: str) -> None:
        seat, content = self.seat, self.content
        spell = self.spells[seat].get(team)
        if spell is None:
            raise IllegalAction(f"no spell at team {team}")
        bonus = 0
        if achievement:
            if achievement not in self._claimable(spell):
                raise IllegalAction(f"achievement {achievement!r} cannot be claimed by {spell[0]!r}")
            a = content.ach_by_id[achievement]
            top = max((content.points[i] for i in spell[1]), default=0)
            bonus = a.points + ((a.multiplier - 1) * top if a.multiplier else 0)
            self.piles[a.pile].remove(achievement)
            self.claimed[seat].append(achievement)
            self.figures[f"claimed:{a.pile}"] += 1
            self.played[f"achievement:{a.pile}"].add(seat)
        del self.spells[seat][team]
        points = self.spell_points(spell)
        for i in spell[1]:
            self._to_discard(i)
        self.scores[seat] += points + bonus
        self.ledger[seat]["publish"] += points
        self.ledger[seat]["achievement"] += bonus
        self.figures["publishes"] += 1
        self.figures["published_letters"] += len(spell[0])

    def _hire(self, m: int, team: int, side: int, lock_letter: str) -> None:
        seat, content = self.seat, self.content
        if not isinstance(m, int) or not 0 <= m < len(self.market):
            raise IllegalAction("no such market card")
        if team not in self.teams[seat] or not self.room(seat, team):
            raise IllegalAction(f"team {team} has no room")
        if side not in (0, 1):
            raise IllegalAction("side is 0 (special) or 1 (plain)")
        fid = self.market[m]
        actions = content.fam_defs[content.fam_def_of[fid]][1][side]
        if "lock" in actions:
            if lock_letter and lock_letter not in self.hand_letters(seat):
                raise IllegalAction(f"no {lock_letter!r} in hand to lock")
            if not lock_letter and self.hands[seat]:
                raise IllegalAction("lock: tuck a letter from your hand")
        elif lock_letter:
            raise IllegalAction("only a lock familiar takes a letter")
        self.market.pop(m)
        locked: list[int] = []
        fam = [fid, side, locked]
        self.teams[seat][team].append(fam)
        if lock_letter:
            locked.extend(self._take(seat, [lock_letter]))
        if side == 0:
            for a in dict.fromkeys(actions):  # in the card's order, not a set's (that changes between processes)
                self.played[f"familiar:{a}"].add(seat)
            self.figures["hires_special"] += 1
        else:
            self.figures["hires_plain"] += 1
        self.reveals_due += 1

    def _end_turn(self) -> None:
        self.turns += 1
        self.phase = "main"
        self.slots, self.used_slots = [], set()
        total = sum(self.scores)
        # a full round of turns that start with the deck empty and score nothing also ends
        # the game: every player has shown they cannot (or will not) burn or publish. The turn
        # that empties the deck does not count: its player never had a turn without draws.
        if self.started_empty and total == self.last_total:
            self.quiet_turns += 1
        else:
            self.quiet_turns = 0
        self.last_total = total
        self.seat = (self.seat + 1) % self.players
        if self.deck_count == 0 and not self.pending and (
                self.quiet_turns >= self.players or not any(self.can_score(s) for s in range(self.players))):
            self.phase = "over"
            return
        self._refill_if_empty()

    # -- the end ------------------------------------------------------------
    def can_score(self, seat: int) -> bool:
        """Could this seat score on its turn (deck empty)? Whether `scoring_play` finds one, asked of
        the plays in any order: the first scoring play found will do."""
        teams = self.scoring_teams(seat)
        if not any(teams):
            return False
        letters = self._scoring_key(seat, *teams)
        if letters in self.content.scoring_plays:
            return self.content.scoring_plays[letters] is not None
        return _kept(self.content.can_score, letters, lambda: self._any_scoring_play(seat, *teams))

    def _any_scoring_play(self, seat: int, publish: set[int], burn: set[int]) -> bool:
        """Whether _scoring_plays has one: any play at a publishing team (counted, not made: a hand
        that has none is answered without listing every build), else a play at a burning team that
        leaves a letter worth points in the hand (the first found)."""
        if publish and any(self._plays(seat, dests=frozenset(publish), counting=True)):
            return True
        return bool(burn) and next(self._scoring_plays(seat, set(), burn, ordered=False), None) is not None

    def scoring_play(self, seat: int) -> MainAction | None:
        """A start or modify, as the rules allow it (up to two wilds, a modify that only removes
        letters), that reaches a team that publishes, or that burns with a letter worth points
        left in the hand (the team's own actions or one copied by teamwork); None if there is none."""
        teams = self.scoring_teams(seat)
        if not any(teams):
            return None
        return _kept(self.content.scoring_plays, self._scoring_key(seat, *teams),
                     lambda: next(self._scoring_plays(seat, *teams), None))

    def _scoring_key(self, seat: int, publish: set[int], burn: set[int]) -> tuple:
        """What scoring_play's answer depends on: the seat's letters alone (hand, spells, locked) and
        these teams. Answers are kept per game, as the turns at the end of a game ask again of hands
        that have not changed."""
        content = self.content
        return (key("".join(self.hand_letters(seat))),
                tuple((t, spell[0], key("".join(content.letter[i] for i in spell[1])))
                      for t, spell in sorted(self.spells[seat].items())),
                tuple(self.locked_letters(seat, t) for t in content.teams), frozenset(publish), frozenset(burn))

    def _scoring_plays(self, seat: int, publish: set[int], burn: set[int], ordered: bool = True) -> Iterator[MainAction]:
        """The scoring plays (see scoring_play), in the order of the legal actions or in none."""
        content = self.content
        for kind, team, word, src in self._plays(seat, dests=frozenset(publish | burn), ordered=ordered):
            if content.team_of(len(word)) in publish or any(content.letter_points.get(char, 0) > 0
                                                       for char in self._hand_after(seat, team, src_counts(word, src))):
                yield _play_move(kind, team, word, src)

    def scoring_teams(self, seat: int) -> tuple[set[int], set[int]]:
        """This seat's teams that publish, and those that burn but do not publish (their own
        actions or one copied by teamwork)."""
        copyable = {a for t in self.content.teams for f in self.teams[seat][t] for a in self.fam_actions(f) if a in COPYABLE}
        publish, burn = set(), set()
        for team in self.content.teams:
            acts = {a for _, a in self.team_actions(seat, team)}
            if "teamwork" in acts:
                acts |= copyable
            if "publish" in acts:
                publish.add(team)
            elif "burn" in acts:
                burn.add(team)
        return publish, burn

    def _hand_after(self, seat: int, team: int | None, counts: dict[str, Counter]) -> Counter:
        """The seat's hand letters after this start (team None) or modify of its spell at `team`."""
        content = self.content
        hand = Counter(self.hand_letters(seat)) - counts["h"]
        wilds = sum(counts["w"].values())
        if team is None:
            return hand - Counter({WILD: wilds})
        spell = Counter(content.letter[i] for i in self.spells[seat][team][1])
        sw = spell.pop(WILD, 0)
        return hand - Counter({WILD: max(0, wilds - sw)}) + (spell - counts["s"]) + Counter({WILD: max(0, sw - wilds)})

    def returns(self) -> list[float]:
        return [float(s) for s in self.scores]

    def outcome(self, stalled: bool = False) -> Outcome:
        scores = self.returns()
        winners: list[int] = []
        if not stalled:
            best = max(scores)
            tied = [s for s in range(self.players) if scores[s] == best]
            most = max(len(self.claimed[s]) for s in tied)
            winners = [s for s in tied if len(self.claimed[s]) == most]
        figures = dict(self.figures)
        for s in range(self.players):
            for k, v in self.ledger[s].items():
                figures[f"{k}_points"] = figures.get(f"{k}_points", 0) + v
        figures["deck_left"] = self.deck_count
        return Outcome(scores=scores, winners=winners, turns=self.turns, stalled=stalled,
                       played={k: set(v) for k, v in self.played.items()}, figures=figures)

    # -- for the search player: copies, and what a seat cannot see ------------------------
    def clone(self) -> EvoState:
        """State.clone's independent copy, made by hand: every list, dict and set that actions change
        is copied one level down (a team's familiars two: a lock tucks a card into one); the content,
        strings, numbers and tuples are shared (`spellpress check-engine` checks that it shares nothing)."""
        s = object.__new__(type(self))
        s.__dict__.update(self.__dict__)
        s.deck = {letter: ids[:] for letter, ids in self.deck.items()}
        s.wild_pile, s.discard, s.market = self.wild_pile[:], self.discard[:], self.market[:]
        s.hands = [hand[:] for hand in self.hands]
        s.spells = [{t: [spell[0], spell[1][:]] for t, spell in spells.items()} for spells in self.spells]
        s.teams = [{t: [[f[0], f[1], f[2][:]] for f in fams] for t, fams in teams.items()} for teams in self.teams]
        s.familiar_deck = {d: ids[:] for d, ids in self.familiar_deck.items()}
        s.piles = {pile: ids[:] for pile, ids in self.piles.items()}
        s.unused_achievements = self.unused_achievements[:]
        s.claimed = [ids[:] for ids in self.claimed]
        s.scores = self.scores[:]
        s.ledger = [ledger.copy() for ledger in self.ledger]
        s.extra_letters, s.extra_wilds = self.extra_letters[:], self.extra_wilds[:]
        s.pending, s.slots, s.used_slots = self.pending[:], self.slots[:], set(self.used_slots)
        s.played = defaultdict(set, {k: set(v) for k, v in self.played.items()})
        s.figures = self.figures.copy()
        return s

    def determinize(self, seat: int, rng) -> EvoState:
        """A clone with the other seats' letter cards and the deck re-dealt (wilds are dealt face up)."""
        s = self.clone()
        others = [o for o in range(s.players) if o != seat]
        hidden = {o: [i for i in s.hands[o] if s.content.letter[i] != WILD] for o in others}
        pool = [i for ids in s.deck.values() for i in ids] + [i for o in others for i in hidden[o]]
        hands, rest = redeal(rng, pool, [len(hidden[o]) for o in others])
        for o, hand in zip(others, hands, strict=False):
            s.hands[o] = [i for i in s.hands[o] if s.content.letter[i] == WILD] + hand
        deck: dict[str, list[int]] = {}
        for i in rest:
            deck.setdefault(s.content.letter[i], []).append(i)
        s.deck = dict(sorted(deck.items()))
        return s

    # -- invariants -----------------------------------------------------------
    def check_invariants(self) -> None:
        self._check_every_card_in_one_place()
        for s in range(self.players):
            self._check_seat(s)

    def _check_every_card_in_one_place(self) -> None:
        """Every letter card, familiar and achievement is in exactly one place; the deck count is right."""
        content = self.content
        places: list[int] = [i for v in self.deck.values() for i in v] + self.wild_pile + self.discard
        for s in range(self.players):
            places += self.hands[s]
            for spell in self.spells[s].values():
                places += spell[1]
            for team in self.teams[s].values():
                for fam in team:
                    places += fam[2]
        if sorted(places) != list(range(len(content.letter))):
            raise InvariantError("a letter card is lost or duplicated")
        if self.deck_count != sum(len(v) for v in self.deck.values()):
            raise InvariantError("deck count is off")
        fams = [i for v in self.familiar_deck.values() for i in v] + self.market
        fams += [f[0] for s in range(self.players) for t in self.teams[s].values() for f in t]
        if sorted(fams) != list(range(len(content.fam_def_of))):
            raise InvariantError("a familiar is lost or duplicated")
        achs = [a for p in self.piles.values() for a in p] + self.unused_achievements + [a for cl in self.claimed for a in cl]
        if sorted(achs) != sorted(a.id for a in content.achievements):
            raise InvariantError("an achievement is lost or duplicated")

    def _check_seat(self, s: int) -> None:
        """The seat's score matches its ledger, its teams keep their limits, its spells their cards."""
        content = self.content
        if self.scores[s] != sum(self.ledger[s].values()):
            raise InvariantError(f"seat {s}'s score does not match its ledger")
        for t, fams_t in self.teams[s].items():
            if len(fams_t) > content.leaders[t].limit:
                raise InvariantError(f"seat {s}'s team {t} is over its limit")
        for t, spell in self.spells[s].items():
            if content.team_of(len(spell[0])) != t:
                raise InvariantError(f"spell {spell[0]!r} is at the wrong team")
            need = Counter(spell[0])
            have = Counter(content.letter[i] for i in spell[1])
            wilds = have.pop(WILD, 0)
            locked = Counter(self.locked_letters(s, t))
            missing = need - have
            if not have <= need or sum((missing - locked).values()) > wilds:
                raise InvariantError(f"spell {spell[0]!r} does not match its cards")

    # -- what a seat sees (spellpress play) ---------------------------------------
    def letter_card(self, i: int) -> CardRef:
        return CardRef(*self.content.printed[i])

    def familiar_card(self, fid: int) -> CardRef:
        return CardRef("familiars", self.content.fam_defs[self.content.fam_def_of[fid]][0])

    def observation(self, seat: int) -> Observation:
        content = self.content
        letters = lambda ids: tuple(self.letter_card(i) for i in ids)  # noqa: E731
        zones = [Zone("deck", "letter deck", "pile", None, (), self.deck_count, "letters"),
                 Zone("wilds", "wild cards", "pile", None, letters(self.wild_pile[-1:]), max(0, len(self.wild_pile) - 1),
                      "wilds"),
                 Zone("discard", "discard pile", "pile", None, letters(self.discard)),
                 Zone("market", "familiars for hire", "row", None, tuple(self.familiar_card(f) for f in self.market)),
                 Zone("familiars", "familiar deck", "pile", None, (), sum(len(v) for v in self.familiar_deck.values()),
                      "familiars")]
        for pile in content.piles:
            stack = self.piles[pile]
            zones.append(Zone(f"achievements:{pile}", f"achievements: {pile}", "pile", None,
                              tuple(CardRef("achievements", a) for a in stack[:1]), max(0, len(stack) - 1), "achievements"))
        facts = []
        for other in range(self.players):
            zones.append(hand_zone(other, seat, letters(self.hands[other]), "letters"))
            for team in content.teams:
                spell = self.spells[other].get(team)
                if spell:
                    zones.append(Zone(f"spell:{other}:{team}", f"seat {other + 1}'s spell {spell[0].upper()} ({team} letters)",
                                      "row", other, letters(spell[1])))
                fams = self.teams[other][team]
                if fams:
                    locked = "".join(content.letter[i] for f in fams for i in f[2]).upper()
                    zones.append(Zone(f"team:{other}:{team}", f"seat {other + 1}'s team {team}", "row", other,
                                      tuple(self.familiar_card(f[0]) for f in fams),
                                      note=f"locked: {locked}" if locked else ""))
            if self.claimed[other]:
                zones.append(Zone(f"claimed:{other}", f"seat {other + 1}'s achievements", "row", other,
                                  tuple(CardRef("achievements", a) for a in self.claimed[other])))
        if self.phase == "team":
            facts.append(f"seat {self.seat + 1} resolves its team {self.active_team}")
        return Observation(seat, to_move(self.current_player()), self.phase, tuple(self.returns()), tuple(zones), tuple(facts))

    def action_to_string(self, action) -> str:
        kind = action[0]
        if kind == "start":
            return f"start the spell {action[1].upper()}"
        if kind == "modify":
            return f"change the spell of team {action[1]} into {action[2].upper()}"
        if kind == "discard":
            return f"discard {action[1].upper().replace('?', '*')}" if action[1] else "discard nothing"
        if kind == "end":
            return "end the turn"
        if kind == "use":
            pos, name = self.slots[action[1]]
            who = "the leader" if pos < 0 else f"familiar {pos + 1}"
            rest = " ".join(str(p).upper() if isinstance(p, str) else str(p) for p in action[2:] if p != "")
            return f"{name} ({who})" + (f": {rest}" if rest else "")
        return super().action_to_string(action)

    def action_word(self, action, typed: str | None = None) -> str | None:
        return action[1] if action[0] == "start" else action[2] if action[0] == "modify" else None

    def action_cards(self, action) -> tuple[CardRef, ...]:
        kind = action[0]
        if kind not in ("start", "modify", "discard"):
            return ()
        if kind == "discard":
            wanted = list(action[1])
        else:
            word, src = (action[1], action[2]) if kind == "start" else (action[2], action[3])
            wanted = [WILD if s == "w" else letter for letter, s in zip(word, src, strict=False) if s in "hw"]
        cards, hand = [], list(self.hands[self.seat])
        for letter in wanted:
            for i in hand:
                if self.content.letter[i] == letter:
                    cards.append(self.letter_card(i))
                    hand.remove(i)
                    break
        return tuple(cards)


def _starts(hand: int, spell: int, wilds: int) -> bool:
    """Does a build with these many letters from the hand and the spell, and wilds, start a spell?"""
    return hand + wilds >= 1


def _modifies(own: int, spell_wilds: int):
    """Does a build modify a spell of `own` letters and `spell_wilds` wilds: add or remove a letter?"""
    def modifies(hand: int, spell: int, wilds: int) -> bool:
        return bool(hand + max(0, wilds - spell_wilds) or own - spell + max(0, spell_wilds - wilds))
    return modifies


def _kept(memo: dict, letters: tuple, answer: Callable[[], Any]) -> Any:
    """memo's answer for these letters, worked out and kept the first time (the memo starts over
    past SCORING_PLAYS_KEPT answers)."""
    if letters in memo:
        return memo[letters]
    if len(memo) > SCORING_PLAYS_KEPT:
        memo.clear()
    found = memo[letters] = answer()
    return found


_DEALS: dict[str, Deal] = {}  # letter -> its deal, made once


def _deal(letter: str) -> Deal:
    found = _DEALS.get(letter)
    if found is None:
        found = _DEALS[letter] = Deal("deal", letter)
    return found


def _play_move(kind: str, team: int | None, word: str, src: str) -> Start | Modify:
    """One of `_plays`' answers as the move it stands for."""
    if kind == "start":
        return Start("start", word, src)
    assert team is not None, "a modify names its spell's team"
    return Modify("modify", team, word, src)


_MOVES: dict[str, Any] = {"start": EvoState._start_move, "modify": EvoState._modify_move,
                          "discard": EvoState._discard_move, "end": EvoState._end_move, "use": EvoState._use_move}
_EFFECTS: dict[str, Any] = {"draw": EvoState._draw_effect, "wild": EvoState._wild_effect, "burn": EvoState._burn_effect,
                            "publish": EvoState._publish_effect, "pickup": EvoState._pickup_effect,
                            "lock": EvoState._lock_effect, "hire": EvoState._hire_effect}  # teamwork is _use's
MOVE_LENGTHS = {verb: len(kind._fields) for verb, kind in MAIN_TYPES.items()}  # a main move's verb -> its length


class MainMoves(LazyMoves):
    """A main phase's legal actions. Read as a list, every move is built (thousands of
    builds of hundreds of words); asked `action in moves`, as --check asks of each move,
    only the named word's builds are made, by the same code: the same answer, far cheaper."""

    def __init__(self, state: EvoState):
        super().__init__()
        self._state, self._version = state, state.version

    def _current(self) -> EvoState:
        if self._state.version != self._version:
            raise RuntimeError("these legal actions are of a position that has since changed")
        return self._state

    def build(self) -> list:
        return self._current()._main_actions()

    def size(self) -> int:
        return self._current().count_main_actions()

    def allows(self, action) -> bool:
        if not isinstance(action, tuple) or not action or len(action) != MOVE_LENGTHS.get(action[0], -1):
            return False
        return action in self._current()._main_actions(only=action)
