"""Evocabulary: spells activate teams of familiars; publish spells for points.

Every number and every card comes from cards/evocabulary/ (letters, wilds,
familiars, leaders, achievements; game.yaml `rules:`). Familiar and leader
actions are lists of action names, interpreted by the small effect vocabulary
below (EFFECTS): draw, wild, burn, publish, lock, hire, teamwork, pickup.

Actions (all tuples):
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
Setup catch-up (rules catch_up, catch_up_points / _letters / _wilds: a number a seat per
player count; options override): later seats start with points (or extra cards).
Choices where the rulebook is silent are documented in cards/evocabulary/README.md.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import lru_cache
from itertools import groupby, product
from typing import Any, Sequence

from generator.model.deck import Game
from generator.rules.protocol import CHANCE, TERMINAL, IllegalAction, InvariantError, Outcome, Player, Rules, State
from generator.words.lexicon import Lexicon
from generator.words.syllables import syllables

ACTIONS = ("draw", "wild", "burn", "publish", "lock", "hire", "teamwork", "pickup")
COPYABLE = frozenset({"draw", "wild", "burn", "publish", "hire", "pickup"})  # teamwork never copies lock/teamwork
WILD = "?"
SOURCE_ORDER = "lshw"  # canonical order of sources within one letter's positions


# ---------------------------------------------------------------- words ----
def key(letters: str) -> str:
    return "".join(sorted(letters))


@lru_cache(maxsize=20000)
def subs_of(sorted_letters: str) -> tuple[str, ...]:
    """Every sub-multiset of a sorted string, each once."""
    subs = [""]
    for letter, run in groupby(sorted_letters):
        count = len(tuple(run))
        subs = [s + letter * i for s in subs for i in range(count + 1)]
    return tuple(subs)


class Words:
    """The game's lexicon as lookup tables: sorted letters -> words, and
    sorted letters -> (letter a wild would stand for, words) for one wild."""

    def __init__(self, lexicon: Lexicon, overrides: dict[str, int]):
        self.words = frozenset(lexicon.words)
        by_key: dict[str, list[str]] = defaultdict(list)
        for word in lexicon.words:
            by_key[key(word)].append(word)
        self.by_key = {k: tuple(v) for k, v in by_key.items()}
        short: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
        for k, words in self.by_key.items():
            for i, letter in enumerate(k):
                if not i or k[i - 1] != letter:
                    short[k[:i] + k[i + 1:]][letter].extend(words)
        self.one_short = {s: tuple((c, tuple(w)) for c, w in sorted(d.items())) for s, d in short.items()}
        self.overrides = dict(overrides)
        self._syllables: dict[str, int] = {}

    def syllables(self, word: str) -> int:
        n = self._syllables.get(word)
        if n is None:
            n = self._syllables[word] = syllables(word, self.overrides)
        return n

    def search(self, base: str, pool: str, wild: bool, need_pool: bool = True):
        """(word, sub of pool used, wild letter or "") for words using all of base,
        some of pool (at least one letter if need_pool) and at most one wild."""
        by_key, one_short = self.by_key, self.one_short
        for sub in subs_of(pool):
            if need_pool and not sub:
                continue
            k = "".join(sorted(base + sub)) if base else sub
            words = by_key.get(k)
            if words:
                for w in words:
                    yield w, sub, ""
            if wild:
                pairs = one_short.get(k)
                if pairs:
                    for letter, ws in pairs:
                        for w in ws:
                            yield w, sub, letter


_WORDS: dict[tuple, Words] = {}


def words_for(game: Game, min_length: int) -> Words:
    spec = game.spec.words
    ident = (min(spec.min_length, min_length), tuple(spec.allow), tuple(spec.deny), tuple(sorted(spec.syllables.items())),
             spec.lexicon)
    if ident not in _WORDS:
        _WORDS[ident] = Words(Lexicon(min_length=ident[0], allow=spec.allow, deny=spec.deny, source=spec.lexicon),
                              spec.syllables)
    return _WORDS[ident]


def make_src(word: str, counts: dict[str, Counter]) -> str:
    """Canonical source string: each letter's positions take sources in the order l, s, h, w."""
    left = {s: Counter(c) for s, c in counts.items()}
    out = []
    for letter in word:
        for source in SOURCE_ORDER:
            c = left.get(source)
            if c and c[letter] > 0:
                c[letter] -= 1
                out.append(source)
                break
        else:
            raise IllegalAction(f"no source for '{letter}' in {word!r}")
    return "".join(out)


def src_counts(word: str, src: str) -> dict[str, Counter]:
    counts: dict[str, Counter] = {s: Counter() for s in SOURCE_ORDER}
    for letter, source in zip(word, src):
        counts[source][letter] += 1
    return counts


# -------------------------------------------------------------- content ----
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
        for component in ("letters", "wilds"):
            for card in game.component(component).cards:
                letter = str(card["letter"]).lower()
                if letter != WILD and not (len(letter) == 1 and letter.isalpha()):
                    raise ValueError(f"letter card {card.id}: single letters only, got {card['letter']!r}")
                for _ in range(card.count):
                    self.letter.append(letter)
                    self.points.append(int(card["points"]))
        self.letter_points = {l: p for l, p in zip(self.letter, self.points) if l != WILD}
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
        self.words = words_for(game, self.min_spell)
        self._pts: dict[str, int] = {}
        self._top: dict[tuple[str, str], int] = {}

    def pts(self, letters: str) -> int:
        """Points of these (non-wild) letters, memoized."""
        p = self._pts.get(letters)
        if p is None:
            p = self._pts[letters] = sum(self.letter_points[l] for l in letters)
        return p

    def top(self, word: str, wild: str) -> int:
        """The highest letter points in a word, one `wild` letter (scoring 0) left out."""
        k = (word, wild)
        t = self._top.get(k)
        if t is None:
            rest = word.replace(wild, "", 1) if wild else word
            t = self._top[k] = max((self.letter_points.get(l, 0) for l in rest), default=0)
        return t

    def team_of(self, length: int) -> int | None:
        if length < self.min_spell:
            return None
        if length in self.leaders:
            return length
        for t in reversed(self.teams):
            if self.leaders[t].or_more and length >= t:
                return t
        return None


_CONTENT: dict[tuple[int, str], Content] = {}


def content_for(game: Game, side: str) -> Content:
    k = (id(game), side)
    if k not in _CONTENT:
        _CONTENT[k] = Content(game, side)
    return _CONTENT[k]


# ---------------------------------------------------------------- state ----
class EvoState(State):
    def __init__(self, content: Content, players: int, extra_letters: Sequence[int] = (), extra_wilds: Sequence[int] = (),
                 extra_points: Sequence[int] = ()):
        c = self.c = content
        self.players = players
        self.turns = 0
        self.deck: dict[str, list[int]] = defaultdict(list)
        self.wild_pile: list[int] = []
        for i, letter in enumerate(c.letter):
            (self.wild_pile if letter == WILD else self.deck[letter]).append(i)
        self.deck = dict(self.deck)
        self.deck_n = sum(len(v) for v in self.deck.values())
        self.discard: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.spells: list[dict[int, list]] = [{} for _ in range(players)]  # team -> [word, card ids]
        # team -> list of [familiar id, side (0 special, 1 plain), locked letter-card ids]
        self.teams: list[dict[int, list[list]]] = [{t: [] for t in c.teams} for _ in range(players)]
        self.fam_deck: dict[int, list[int]] = defaultdict(list)
        for fid, d in enumerate(c.fam_def_of):
            self.fam_deck[d].append(fid)
        self.fam_deck = dict(self.fam_deck)
        self.market: list[int] = []
        self.piles = {p: [a.id for a in c.achievements if a.pile == p and a.players <= players] for p in c.piles}
        self.unused_achievements = [a.id for a in c.achievements if a.players > players]
        self.claimed: list[list[str]] = [[] for _ in range(players)]
        self.scores = [0] * players
        self.ledger = [Counter() for _ in range(players)]  # publish, burn, achievement (and setup) points
        for s, pts in enumerate(extra_points):
            if pts:
                self.scores[s] += pts
                self.ledger[s]["setup"] += pts
        # setup: every seat draws its hand; the catch-up gives later seats extra letters and wilds
        self.extra_letters = list(extra_letters) or [0] * players
        self.extra_wilds = list(extra_wilds) or [0] * players
        self.pending: list[tuple[int, int]] = [(s, c.hand_size + self.extra_letters[s]) for s in range(players)]  # (seat, draws)
        for s in range(players):
            for _ in range(min(self.extra_wilds[s], len(self.wild_pile))):
                self.hands[s].append(self.wild_pile.pop())
        self.refills = c.market_size
        self.seat = 0
        self.phase = "main"  # main | team | over
        self.active = 0  # team being resolved
        self.slots: list[tuple[int, str]] = []  # (familiar position or -1 for the leader, action)
        self.used: set[int] = set()
        self.played: dict[str, set[int]] = defaultdict(set)
        self.figures: Counter = Counter()
        self.quiet = 0  # turns in a row that started with the deck empty, without a point scored
        self.started_empty = False  # did the current turn start with the deck empty?
        self.last_total = sum(self.scores)

    # -- helpers --------------------------------------------------------
    def hand_letters(self, seat: int) -> list[str]:
        return [self.c.letter[i] for i in self.hands[seat]]

    def locked_letters(self, seat: int, team: int) -> str:
        return key("".join(self.c.letter[i] for f in self.teams[seat][team] for i in f[2]))

    def fam_actions(self, fam: list) -> tuple[str, ...]:
        return self.c.fam_defs[self.c.fam_def_of[fam[0]]][1][fam[1]]

    def team_actions(self, seat: int, team: int) -> list[tuple[int, str]]:
        slots = [(-1, a) for a in self.c.leaders[team].actions]
        for pos, fam in enumerate(self.teams[seat][team]):
            slots.extend((pos, a) for a in self.fam_actions(fam))
        return slots

    def room(self, seat: int, team: int) -> bool:
        return len(self.teams[seat][team]) < self.c.leaders[team].limit

    def spell_wilds(self, spell: list) -> int:
        return sum(1 for i in spell[1] if self.c.letter[i] == WILD)

    def spell_points(self, spell: list) -> int:
        return sum(self.c.points[i] for i in spell[1])

    def best_bonus(self, seat: int, word: str, cards: Sequence[int]) -> tuple[int, str]:
        """The best achievement (bonus points, id) this spell could claim now ("" if none)."""
        c = self.c
        if sum(1 for i in cards if c.letter[i] == WILD) > c.max_wilds:
            return 0, ""
        best, best_id = 0, ""
        top = max((c.points[i] for i in cards), default=0)
        for pile in c.piles:
            stack = self.piles[pile]
            if stack:
                a = c.ach_by_id[stack[0]]
                if a.met_by(word, c.words):
                    value = a.points + (a.multiplier - 1) * top if a.multiplier else a.points
                    if value > best or not best_id:
                        best, best_id = value, a.id
        return best, best_id

    # -- protocol -------------------------------------------------------
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if (self.pending and self.deck_n) or (self.refills and self.fam_deck):
            return CHANCE
        return self.seat

    def chance_outcomes(self):
        if self.refills and self.fam_deck:
            total = sum(len(v) for v in self.fam_deck.values())
            return [(("reveal", d), len(v) / total) for d, v in sorted(self.fam_deck.items())]
        total = self.deck_n
        return [(("deal", letter), len(v) / total) for letter, v in sorted(self.deck.items())]

    def legal_actions(self) -> list:
        if self.phase == "over":
            return []
        if self.current_player() == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        if self.phase == "main":
            return self._main_actions()
        return self._team_actions()

    def _main_actions(self) -> list:
        seat, c = self.seat, self.c
        out: list = []
        hand = self.hand_letters(seat)
        letters = key("".join(l for l in hand if l != WILD))
        n_wild = hand.count(WILD)
        free = [t for t in c.teams if t not in self.spells[seat]]
        for teams, locked in self._lock_groups(seat, free):  # start a spell
            for word, counts in _all_builds(c.words, {"l": locked, "h": letters}, min(n_wild, c.spell_max_wilds), teams, c):
                if sum(counts["h"].values()) + sum(counts["w"].values()) >= 1:
                    out.append(("start", word, make_src(word, counts)))
        for team, spell in sorted(self.spells[seat].items()):  # modify a spell
            own = key("".join(c.letter[i] for i in spell[1] if c.letter[i] != WILD))
            sw = self.spell_wilds(spell)
            dests = [t for t in c.teams if t == team or t not in self.spells[seat]]
            for teams, locked in self._lock_groups(seat, dests):
                for word, counts in _all_builds(c.words, {"l": locked, "s": own, "h": letters},
                                               min(n_wild + sw, c.spell_max_wilds), teams, c):
                    if sum(counts["h"].values()) + max(0, sum(counts["w"].values()) - sw) >= 1:
                        out.append(("modify", team, word, make_src(word, counts)))
        for sub in subs_of(key("".join(hand))):
            out.append(("discard", sub))
        return list(dict.fromkeys(out))

    def _lock_groups(self, seat: int, teams: list[int]) -> list[tuple[set[int], str]]:
        """Teams grouped by the locked letters their spells may use."""
        groups: dict[str, set[int]] = defaultdict(set)
        for t in teams:
            groups[self.locked_letters(seat, t)].add(t)
        return [(ts, locked) for locked, ts in sorted(groups.items())]

    def _team_actions(self) -> list:
        out: list = [("end",)]
        for i, (pos, action) in enumerate(self.slots):
            if i in self.used:
                continue
            if action == "teamwork":
                for team in self.c.teams:
                    for p2, fam in enumerate(self.teams[self.seat][team]):
                        if team == self.active and p2 == pos:
                            continue
                        for k, a in enumerate(self.fam_actions(fam)):
                            if a in COPYABLE:
                                out.extend(("use", i, (team, p2, k), *params) for params in self._params(a, None))
            else:
                out.extend(("use", i, *params) for params in self._params(action, pos))
        return out

    def _params(self, action: str, pos: int | None) -> list[tuple]:
        seat = self.seat
        hand = sorted(set(self.hand_letters(seat)))
        if action in ("draw", "wild"):
            return [()]
        if action == "burn":
            return [(l,) for l in hand]
        if action == "publish":
            out = []
            for team, spell in sorted(self.spells[seat].items()):
                out.append((team, ""))
                for aid in self._claimable(spell):
                    out.append((team, aid))
            return out
        if action == "pickup":
            return [(team,) for team in sorted(self.spells[seat])]
        if action == "lock":
            fam = self.teams[seat][self.active][pos]
            return [] if fam[2] else [(l,) for l in hand]
        if action == "hire":
            out = []
            for m, fid in enumerate(self.market):
                sides = self.c.fam_defs[self.c.fam_def_of[fid]][1]
                for team in self.c.teams:
                    if not self.room(seat, team):
                        continue
                    for side in (0, 1):
                        if "lock" in sides[side] and hand:
                            out.extend((m, team, side, l) for l in hand)
                        else:
                            out.append((m, team, side, ""))
            return out
        raise IllegalAction(f"unknown action {action!r}")

    def _claimable(self, spell: list) -> list[str]:
        c = self.c
        if self.spell_wilds(spell) > c.max_wilds:
            return []
        out = []
        for pile in c.piles:
            stack = self.piles[pile]
            if stack and c.ach_by_id[stack[0]].met_by(spell[0], c.words):
                out.append(stack[0])
        return out

    # -- applying ----------------------------------------------------------
    def apply(self, action) -> None:
        if self.phase == "over":
            raise IllegalAction("the game is over")
        if self.current_player() == CHANCE:
            self._apply_chance(action)
            return
        kind = action[0]
        if self.phase == "main":
            self.started_empty = self.deck_n == 0  # a main action is the first of a turn
            if kind == "start":
                self._start(action[1], action[2])
            elif kind == "modify":
                self._modify(action[1], action[2], action[3])
            elif kind == "discard":
                self._discard(action[1])
                return
            else:
                raise IllegalAction(f"{action!r} is not a main action")
        elif kind == "end":
            self._end_turn()
            return
        elif kind == "use":
            self._use(action)
        else:
            raise IllegalAction(f"{action!r} is not a team action")
        self._refill_if_empty()
        if self.phase == "team" and len(self.used) == len(self.slots):
            self._end_turn()

    def _apply_chance(self, action) -> None:
        if action[0] == "reveal":
            ids = self.fam_deck.get(action[1])
            if not self.refills or not ids:
                raise IllegalAction(f"cannot reveal {action!r}")
            self.market.append(ids.pop())
            if not ids:
                del self.fam_deck[action[1]]
            self.refills -= 1
            return
        if action[0] != "deal" or not self.pending:
            raise IllegalAction(f"unexpected chance action {action!r}")
        ids = self.deck.get(action[1])
        if not ids:
            raise IllegalAction(f"no {action[1]!r} in the deck")
        seat, n = self.pending[0]
        self.hands[seat].append(ids.pop())
        if not ids:
            del self.deck[action[1]]
        self.deck_n -= 1
        self.pending[0] = (seat, n - 1)
        if n - 1 == 0:
            self.pending.pop(0)
        if not self.deck_n:
            self.pending.clear()  # no draws from an empty deck

    def _take(self, seat: int, letters: Sequence[str]) -> list[int]:
        """Remove cards with these letters from the hand (lowest ids first)."""
        hand = self.hands[seat]
        taken = []
        for letter in letters:
            for i in hand:
                if self.c.letter[i] == letter and i not in taken:
                    taken.append(i)
                    break
            else:
                raise IllegalAction(f"no '{letter}' in hand")
        for i in taken:
            hand.remove(i)
        return taken

    def _check_word(self, word: str, src: str) -> int:
        c = self.c
        if not isinstance(word, str) or word not in c.words.words:
            raise IllegalAction(f"{word!r} is not a word")
        if len(src) != len(word) or set(src) - set(SOURCE_ORDER):
            raise IllegalAction(f"bad sources {src!r} for {word!r}")
        team = c.team_of(len(word))
        if team is None:
            raise IllegalAction(f"{word!r} is too short for a spell")
        return team

    def _start(self, word: str, src: str) -> None:
        seat, c = self.seat, self.c
        team = self._check_word(word, src)
        if team in self.spells[seat]:
            raise IllegalAction(f"team {team} already has a spell")
        counts = src_counts(word, src)
        if counts["s"]:
            raise IllegalAction("a new spell has no spell cards")
        if not (Counter(counts["l"]) <= Counter(self.locked_letters(seat, team))):
            raise IllegalAction("not enough locked letters at that team")
        if sum(counts["w"].values()) > c.spell_max_wilds:
            raise IllegalAction(f"a spell holds at most {c.spell_max_wilds} wilds")
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
        seat, c = self.seat, self.c
        spell = self.spells[seat].get(team)
        if spell is None:
            raise IllegalAction(f"no spell at team {team}")
        dest = self._check_word(word, src)
        if dest != team and dest in self.spells[seat]:
            raise IllegalAction(f"team {dest} already has a spell")
        counts = src_counts(word, src)
        if not (counts["l"] <= Counter(self.locked_letters(seat, dest))):
            raise IllegalAction("not enough locked letters at that team")
        own = Counter(c.letter[i] for i in spell[1])
        sw = own.pop(WILD, 0)
        if not (counts["s"] <= own):
            raise IllegalAction("those letters are not in the spell")
        n_w = sum(counts["w"].values())
        if n_w > c.spell_max_wilds:
            raise IllegalAction(f"a spell holds at most {c.spell_max_wilds} wilds")
        from_spell_w = min(n_w, sw)
        hand_need = list(counts["h"].elements()) + [WILD] * (n_w - from_spell_w)
        if not hand_need:
            raise IllegalAction("a modified spell needs at least one new letter from the hand")
        if not (Counter(hand_need) <= Counter(self.hand_letters(seat))):
            raise IllegalAction("those letters are not in hand")
        keep_letters = list(counts["s"].elements()) + [WILD] * from_spell_w
        kept, back = [], list(spell[1])
        for letter in keep_letters:
            for i in back:
                if c.letter[i] == letter:
                    kept.append(i)
                    back.remove(i)
                    break
        new_cards = self._take(seat, hand_need)
        self.hands[seat].extend(back)  # removed letters return to the hand
        del self.spells[seat][team]
        self.spells[seat][dest] = [word, kept + new_cards]
        self.figures["modifies"] += 1
        self._activate(dest)

    def _activate(self, team: int) -> None:
        self.phase = "team"
        self.active = team
        self.slots = self.team_actions(self.seat, team)
        self.used = set()
        self._refill_if_empty()
        if not self.slots:
            self._end_turn()

    def _refill_if_empty(self) -> None:
        seat = self.seat
        if self.phase != "over" and not self.hands[seat] and self.deck_n and not self.pending:
            self.pending.append((seat, self.c.hand_size))
            self.figures["empty_hand_draws"] += 1

    def _discard(self, letters: str) -> None:
        seat = self.seat
        if not (Counter(letters) <= Counter(self.hand_letters(seat))):
            raise IllegalAction(f"cannot discard {letters!r}")
        for i in self._take(seat, list(letters)):
            self._to_discard(i)
        need = self.c.hand_size - len(self.hands[seat])
        if need > 0 and self.deck_n:
            self.pending.append((seat, need))
        self.figures["discard_turns"] += 1
        self._end_turn()

    def _to_discard(self, card: int) -> None:
        (self.wild_pile if self.c.letter[card] == WILD else self.discard).append(card)

    def _use(self, action) -> None:
        if len(action) < 2 or not isinstance(action[1], int) or not 0 <= action[1] < len(self.slots):
            raise IllegalAction(f"bad slot in {action!r}")
        slot = action[1]
        if slot in self.used:
            raise IllegalAction(f"slot {slot} already used")
        pos, name = self.slots[slot]
        params = action[2:]
        if name == "teamwork":
            if not params or not isinstance(params[0], tuple) or len(params[0]) != 3:
                raise IllegalAction("teamwork names a familiar to copy")
            team, p2, k = params[0]
            fams = self.teams[self.seat].get(team)
            if fams is None or not 0 <= p2 < len(fams) or (team == self.active and p2 == pos):
                raise IllegalAction("teamwork copies another of your familiars")
            acts = self.fam_actions(fams[p2])
            if not 0 <= k < len(acts) or acts[k] not in COPYABLE:
                raise IllegalAction("that action cannot be copied")
            self._effect(acts[k], params[1:], None)
            self.used.add(slot)
            self.figures["teamwork_copies"] += 1
            return
        self._effect(name, params, pos)  # raises before changing anything if the params are wrong
        self.used.add(slot)

    def _effect(self, name: str, params: tuple, pos: int | None) -> None:
        """The effect vocabulary."""
        seat, c = self.seat, self.c
        if name == "draw":
            if self.deck_n:
                self._add_draw(seat, 1)
        elif name == "wild":
            if self.wild_pile:
                self.hands[seat].append(self.wild_pile.pop())
                self.figures["wilds_taken"] += 1
        elif name == "burn":
            if len(params) != 1:
                raise IllegalAction("burn names a letter")
            card = self._take(seat, [params[0]])[0]
            self.scores[seat] += c.points[card]
            self.ledger[seat]["burn"] += c.points[card]
            self._to_discard(card)
            self.figures["burns"] += 1
        elif name == "publish":
            if len(params) != 2:
                raise IllegalAction("publish names a team and an achievement")
            self._publish(*params)
        elif name == "pickup":
            if len(params) != 1 or params[0] not in self.spells[seat]:
                raise IllegalAction("pickup names one of your spells")
            spell = self.spells[seat].pop(params[0])
            self.hands[seat].extend(spell[1])
            self.figures["pickups"] += 1
        elif name == "lock":
            if pos is None or len(params) != 1:
                raise IllegalAction("lock names a letter")
            fam = self.teams[seat][self.active][pos]
            if fam[2]:
                raise IllegalAction("this familiar already holds a letter")
            fam[2].extend(self._take(seat, [params[0]]))
        elif name == "hire":
            if len(params) != 4:
                raise IllegalAction("hire names market, team, side, lock letter")
            self._hire(*params)
        else:
            raise IllegalAction(f"unknown action {name!r}")

    def _add_draw(self, seat: int, n: int) -> None:
        if self.pending and self.pending[-1][0] == seat:
            self.pending[-1] = (seat, self.pending[-1][1] + n)
        else:
            self.pending.append((seat, n))

    def _publish(self, team: int, achievement: str) -> None:
        seat, c = self.seat, self.c
        spell = self.spells[seat].get(team)
        if spell is None:
            raise IllegalAction(f"no spell at team {team}")
        bonus = 0
        if achievement:
            if achievement not in self._claimable(spell):
                raise IllegalAction(f"achievement {achievement!r} cannot be claimed by {spell[0]!r}")
            a = c.ach_by_id[achievement]
            top = max((c.points[i] for i in spell[1]), default=0)
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
        seat, c = self.seat, self.c
        if not isinstance(m, int) or not 0 <= m < len(self.market):
            raise IllegalAction("no such market card")
        if team not in self.teams[seat] or not self.room(seat, team):
            raise IllegalAction(f"team {team} has no room")
        if side not in (0, 1):
            raise IllegalAction("side is 0 (special) or 1 (plain)")
        fid = self.market[m]
        actions = c.fam_defs[c.fam_def_of[fid]][1][side]
        if "lock" in actions:
            if lock_letter and lock_letter not in self.hand_letters(seat):
                raise IllegalAction(f"no {lock_letter!r} in hand to lock")
            if not lock_letter and self.hands[seat]:
                raise IllegalAction("lock: tuck a letter from your hand")
        elif lock_letter:
            raise IllegalAction("only a lock familiar takes a letter")
        self.market.pop(m)
        fam = [fid, side, []]
        self.teams[seat][team].append(fam)
        if lock_letter:
            fam[2].extend(self._take(seat, [lock_letter]))
        if side == 0:
            for a in set(actions):
                self.played[f"familiar:{a}"].add(seat)
            self.figures["hires_special"] += 1
        else:
            self.figures["hires_plain"] += 1
        self.refills += 1

    def _end_turn(self) -> None:
        self.turns += 1
        self.phase = "main"
        self.slots, self.used = [], set()
        total = sum(self.scores)
        # a full round of turns that start with the deck empty and score nothing also ends
        # the game: every player has shown they cannot (or will not) burn or publish. The turn
        # that empties the deck does not count: its player never had a turn without draws.
        if self.started_empty and total == self.last_total:
            self.quiet += 1
        else:
            self.quiet = 0
        self.last_total = total
        self.seat = (self.seat + 1) % self.players
        if self.deck_n == 0 and not self.pending and (
                self.quiet >= self.players or not any(self.can_score(s) for s in range(self.players))):
            self.phase = "over"
            return
        self._refill_if_empty()

    # -- the end ------------------------------------------------------------
    def can_score(self, seat: int) -> bool:
        """Could this seat burn or publish on its turn (deck empty)? A play must
        reach a team with a burn or publish (its own or copied by teamwork)."""
        c = self.c
        copyable = {a for t in c.teams for f in self.teams[seat][t] for a in self.fam_actions(f) if a in COPYABLE}
        hand = self.hand_letters(seat)
        if not hand:
            return False
        letters = key("".join(l for l in hand if l != WILD))
        n_wild = hand.count(WILD)
        for team in c.teams:
            acts = {a for _, a in self.team_actions(seat, team)}
            if "teamwork" in acts:
                acts |= copyable
            publish, burn = "publish" in acts, "burn" in acts
            if not (publish or burn):
                continue
            if self._has_play(seat, team, letters, n_wild, leftover=not publish):
                return True
        return False

    def _has_play(self, seat: int, team: int, letters: str, n_wild: int, leftover: bool) -> bool:
        c = self.c
        hand_n = len(letters) + n_wild
        locked = self.locked_letters(seat, team)
        bases = []
        if team not in self.spells[seat]:
            bases.append(("", locked, 0))
        for t, spell in self.spells[seat].items():
            if t == team or team not in self.spells[seat]:
                own = key("".join(c.letter[i] for i in spell[1] if c.letter[i] != WILD))
                bases.append(("", own + locked, self.spell_wilds(spell)))
        for base, extra, sw in bases:
            pool = key(letters + extra)
            for word, sub, wl in c.words.search(base, pool, bool(n_wild + sw)):
                if c.team_of(len(word)) != team:
                    continue
                from_hand = sum((Counter(sub) - Counter(extra)).values())
                uses_hand_wild = bool(wl) and sw == 0
                if from_hand + uses_hand_wild == 0:
                    if not (Counter(sub) & Counter(letters)):
                        continue
                    from_hand = 1
                if leftover and from_hand + uses_hand_wild >= hand_n:
                    continue
                return True
        return False

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
        figures["deck_left"] = self.deck_n
        return Outcome(scores=scores, winners=winners, turns=self.turns, stalled=stalled,
                       played={k: set(v) for k, v in self.played.items()}, figures=figures)

    # -- invariants -----------------------------------------------------------
    def check_invariants(self) -> None:
        c = self.c
        places: list[int] = [i for v in self.deck.values() for i in v] + self.wild_pile + self.discard
        for s in range(self.players):
            places += self.hands[s]
            for spell in self.spells[s].values():
                places += spell[1]
            for team in self.teams[s].values():
                for fam in team:
                    places += fam[2]
        if sorted(places) != list(range(len(c.letter))):
            raise InvariantError("a letter card is lost or duplicated")
        if self.deck_n != sum(len(v) for v in self.deck.values()):
            raise InvariantError("deck count is off")
        fams = [i for v in self.fam_deck.values() for i in v] + self.market
        fams += [f[0] for s in range(self.players) for t in self.teams[s].values() for f in t]
        if sorted(fams) != list(range(len(c.fam_def_of))):
            raise InvariantError("a familiar is lost or duplicated")
        achs = [a for p in self.piles.values() for a in p] + self.unused_achievements + [a for cl in self.claimed for a in cl]
        if sorted(achs) != sorted(a.id for a in c.achievements):
            raise InvariantError("an achievement is lost or duplicated")
        for s in range(self.players):
            if self.scores[s] != sum(self.ledger[s].values()):
                raise InvariantError(f"seat {s}'s score does not match its ledger")
            for t, fams_t in self.teams[s].items():
                if len(fams_t) > c.leaders[t].limit:
                    raise InvariantError(f"seat {s}'s team {t} is over its limit")
            for t, spell in self.spells[s].items():
                if c.team_of(len(spell[0])) != t:
                    raise InvariantError(f"spell {spell[0]!r} is at the wrong team")
                need = Counter(spell[0])
                have = Counter(c.letter[i] for i in spell[1])
                wilds = have.pop(WILD, 0)
                locked = Counter(self.locked_letters(s, t))
                missing = need - have
                if not have <= need or sum((missing - locked).values()) > wilds:
                    raise InvariantError(f"spell {spell[0]!r} does not match its cards")


def _all_builds(words: Words, sources: dict[str, str], n_wild: int, teams: set[int], c: Content):
    """Every (word, per-source letter counts) landing at one of `teams` from these sources
    (l locked, s spell, h hand letters) and up to two wilds: for legal_actions only."""
    pool = key("".join(sources.values()))
    seen = set()
    cands: set[tuple[str, str]] = set()
    for sub in subs_of(pool):
        if n_wild == 0:
            for w in words.by_key.get(sub, ()):
                cands.add((w, sub))
            continue
        for w in words.by_key.get(sub, ()):
            cands.add((w, sub))
        for letter, ws in words.one_short.get(sub, ()):
            for w in ws:
                cands.add((w, sub))
        if n_wild >= 2:
            for extra in "abcdefghijklmnopqrstuvwxyz":
                for letter, ws in words.one_short.get(key(sub + extra), ()):
                    for w in ws:
                        cands.add((w, sub))
    for word, sub in sorted(cands):
        if c.team_of(len(word)) not in teams:
            continue
        need = Counter(word)
        wild_n = len(word) - len(sub)
        if wild_n > n_wild or wild_n < 0 or not (Counter(sub) <= need):
            continue
        # split each letter of sub among the sources, every way
        per_letter = []
        for letter, n in sorted(Counter(sub).items()):
            options = []
            avail = [sources.get(s, "").count(letter) for s in "lsh"]
            for a in range(min(n, avail[0]) + 1):
                for b in range(min(n - a, avail[1]) + 1):
                    rest = n - a - b
                    if rest <= avail[2]:
                        options.append((letter, a, b, rest))
            per_letter.append(options)
        wild_letters = need - Counter(sub)
        for combo in product(*per_letter):
            counts = {s: Counter() for s in SOURCE_ORDER}
            for letter, a, b, h in combo:
                counts["l"][letter] += a
                counts["s"][letter] += b
                counts["h"][letter] += h
            counts["w"] = Counter(wild_letters)
            ident = (word, make_src(word, counts))
            if ident not in seen:
                seen.add(ident)
                yield word, counts


# --------------------------------------------------------------- players ----
# What the heuristic thinks each action is worth (a policy, not card data).
HIRE_VALUE = {"draw": 1.4, "wild": 3.0, "burn": 2.5, "publish": 4.5, "lock": 1.5, "hire": 2.0, "teamwork": 2.5, "pickup": 0.8}
LETTER_USE = {l: v for l, v in zip("esaiorntldcupmghbyfkwvzxjq",
                                   (10, 9, 9, 9, 8, 8, 8, 8, 7, 6, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3, 2, 2, 1, 1, 1, 0))}
LETTER_USE[WILD] = 12


class EvoPlayer(Player):
    """Greedy one-turn lookahead: value each play by what its team does now
    (publish, burn, draws, wilds, hires) plus the points it banks in spells."""

    name = "heuristic"

    def __init__(self, skill: float = 1.0):
        self.skill = skill
        self.name = f"heuristic-{skill:g}"

    def act(self, state: EvoState, seat: int, rng: random.Random):
        if state.phase == "main":
            return self._main(state, seat, rng)
        return self._team(state, seat, rng)

    # -- main phase ------------------------------------------------------------
    def _main(self, st: EvoState, seat: int, rng: random.Random):
        c = st.c
        hand = st.hand_letters(seat)
        letters = key("".join(l for l in hand if l != WILD))
        n_wild = hand.count(WILD)
        spells = st.spells[seat]
        endgame = st.deck_n == 0
        hand_n = len(hand)
        team_value = {t: self._team_value(st, seat, t) for t in c.teams}
        published = {t: (len(pubs_slots(st, seat, t)), self._publish_values(st, seat, t)) for t in c.teams}
        refill = 5.0 if st.deck_n >= c.hand_size else 0.0
        bank = 0.2 if endgame else 0.55
        lp = c.letter_points
        bonus = self._bonus_table(st)
        best = (-1e9, None)
        plays = []  # (value, kind, from team, word, base, sub, wild letter, locked)
        search = c.words.search
        team_of = c.team_of
        free = [t for t in c.teams if t not in spells]
        for teams, locked in st._lock_groups(seat, free):  # start
            pool = key(letters + locked) if locked else letters
            for word, sub, wl in search("", pool, n_wild > 0):
                team = team_of(len(word))
                if team not in teams:
                    continue
                hsub = _minus(sub, locked) if locked else sub
                used = len(hsub) + (1 if wl else 0)
                if not used:
                    continue
                pts = c.pts(hsub)
                v = team_value[team] + (refill if used >= hand_n else 0.0)
                n_pub, pubs = published[team]
                if n_pub:
                    mine = pts + bonus(word, wl)
                    opts = sorted([pv for _, pv in pubs] + [mine], reverse=True)
                    v += sum(opts[:n_pub])
                elif endgame:
                    v -= 1.0
                else:
                    v += bank * pts + 0.4 * len(word)
                plays.append((v, "start", team, word, "", sub, wl, locked))
        if self.skill >= 0.3:
            for team, spell in spells.items():  # modify
                own = key("".join(c.letter[i] for i in spell[1] if c.letter[i] != WILD))
                sw = st.spell_wilds(spell)
                old_pts = st.spell_points(spell)
                bases = [own] + ([own.replace(l, "", 1) for l in sorted(set(own))] if self.skill >= 0.6 else [])
                for base in bases:
                    base_pts = c.pts(base)
                    for word, sub, wl in search(base, letters, n_wild + sw > 0, need_pool=False):
                        dest = team_of(len(word))
                        if dest is None or (dest != team and dest in spells):
                            continue
                        used = len(sub) + (1 if wl and not sw else 0)
                        if not used:
                            continue
                        pts = base_pts + c.pts(sub)
                        v = team_value[dest] + (refill if used >= hand_n else 0.0)
                        n_pub, pubs = published[dest]
                        if n_pub:
                            mine = pts + bonus(word, wl)
                            opts = sorted([pv for t, pv in pubs if t != team] + [mine], reverse=True)
                            v += sum(opts[:n_pub])
                        elif endgame:
                            v -= 1.0
                        else:
                            v += bank * pts + 0.4 * len(word)
                            v -= bank * old_pts + 0.4 * len(spell[0])
                        plays.append((v, "modify", team, word, base, sub, wl, ""))
        discard = self._discard_choice(st, seat, hand)
        d_value = 0.9 * min(len(discard) + max(0, c.hand_size - hand_n), st.deck_n) + 0.3
        if endgame:
            d_value = -0.5  # a pass: with the deck empty only scoring plays are worth making
        if plays:
            pick = max(plays, key=lambda p: p[0])
            if self.skill < 1 and rng.random() > self.skill:
                plays.sort(key=lambda p: -p[0])
                pick = rng.choice(plays[: max(1, len(plays) // 2)])
            if pick[0] >= d_value:
                v, kind, team, word, base, sub, wl, locked = pick
                w = Counter(wl) if wl else Counter()
                if kind == "start":
                    lk = Counter(sub) & Counter(locked)
                    counts = {"l": lk, "h": Counter(sub) - lk, "w": w}
                    return ("start", word, make_src(word, counts))
                counts = {"s": Counter(base), "h": Counter(sub), "w": w}
                return ("modify", team, word, make_src(word, counts))
        return ("discard", discard)

    def _bonus_table(self, st):
        """bonus(word, wild letter): the best achievement the word could claim now."""
        c = st.c
        by_len: dict[int, list] = defaultdict(list)
        by_syl: dict[int, list] = defaultdict(list)
        for pile in c.piles:
            stack = st.piles[pile]
            if stack:
                a = c.ach_by_id[stack[0]]
                if a.letters:
                    for n in range(a.letters, 16 if a.or_more else a.letters + 1):
                        by_len[n].append(a)
                else:
                    by_syl[a.syllables].append(a)
        words, top_of = c.words, c.top

        def bonus(word: str, wl: str) -> float:
            if (1 if wl else 0) > c.max_wilds:
                return 0.0
            cands = by_len.get(len(word), ()) 
            if by_syl:
                cands = [*cands, *by_syl.get(words.syllables(word), ())]
            best = 0.0
            if cands:
                top = top_of(word, wl)
                for a in cands:
                    v = a.points + (a.multiplier - 1) * top if a.multiplier else a.points
                    if v > best:
                        best = v
            return best
        return bonus

    def _publish_values(self, st, seat, team):
        """(team, value) of each existing spell if the team at `team` can publish."""
        if not pubs_slots(st, seat, team):
            return []
        out = []
        for t, spell in st.spells[seat].items():
            b, _ = st.best_bonus(seat, spell[0], spell[1])
            out.append((t, st.spell_points(spell) + b))
        return out

    def _team_value(self, st, seat, team) -> float:
        c = st.c
        v = 0.0
        draw = 0.0 if st.deck_n == 0 else 1.0
        copy = 0.0
        for t in c.teams:
            for f in st.teams[seat][t]:
                for a in st.fam_actions(f):
                    if a in COPYABLE and a != "publish":
                        copy = max(copy, self._simple(st, seat, a, draw))
        for _, a in st.team_actions(seat, team):
            if a == "teamwork":
                v += copy
            elif a != "publish":
                v += self._simple(st, seat, a, draw)
        return v

    def _simple(self, st, seat, a, draw) -> float:
        if a == "draw":
            return draw
        if a == "wild":
            return 2.2 if st.wild_pile else 0.0
        if a == "burn":
            pts = [st.c.points[i] for i in st.hands[seat]]
            return 0.8 * max(pts, default=0)
        if a == "hire":
            return 2.0 if st.market and any(st.room(seat, t) for t in st.c.teams) and st.deck_n else 0.0
        return 0.2

    def _discard_choice(self, st, seat, hand) -> str:
        """Letters to throw back: unplayable ones (q without u), extra copies, an unbalanced mix."""
        counts = Counter(hand)
        vowels = sum(n for l, n in counts.items() if l in "aeiou")
        out = []
        for l, n in counts.items():
            if l == WILD:
                continue
            keep = 2 if l in "aeiost" else 1
            if l == "q" and "u" not in counts:
                keep = 0
            if LETTER_USE.get(l, 0) <= 2:
                keep = 0
            out += [l] * max(0, n - keep)
        rest = Counter(hand) - Counter(out)
        v_left = sum(n for l, n in rest.items() if l in "aeiou")
        if v_left > 3:
            extra = sorted((l for l in rest.elements() if l in "aeiou"), key=lambda l: LETTER_USE[l])[: v_left - 3]
            out += extra
        elif vowels < 2:
            cons = sorted((l for l in rest.elements() if l not in "aeiou" and l != WILD), key=lambda l: LETTER_USE[l])
            out += cons[: max(0, len(cons) - 3)]
        if not out and len(hand) >= st.c.hand_size and st.deck_n:
            out = sorted((l for l in hand if l != WILD), key=lambda l: LETTER_USE.get(l, 0))[:2]
        return key("".join(out))

    # -- team phase ------------------------------------------------------------
    def _team(self, st: EvoState, seat: int, rng: random.Random):
        c = st.c
        order = {"draw": 0, "wild": 1, "hire": 2, "lock": 3, "teamwork": 4, "publish": 5, "burn": 6, "pickup": 7}
        free = sorted((order[a], i) for i, (_, a) in enumerate(st.slots) if i not in st.used)
        for _, i in free:
            pos, a = st.slots[i]
            if a == "teamwork":
                best = self._best_copy(st, seat, pos)
                if best is not None:
                    target, name = best
                    params = self._params_for(st, seat, name, None)
                    if params is not None:
                        return ("use", i, target, *params)
                continue
            params = self._params_for(st, seat, a, pos)
            if params is not None:
                return ("use", i, *params)
        return ("end",)

    def _best_copy(self, st, seat, pos):
        best, best_v = None, 0.5
        draw = 1.0 if st.deck_n else 0.0
        for t in st.c.teams:
            for p2, f in enumerate(st.teams[seat][t]):
                if t == st.active and p2 == pos:
                    continue
                for k, a in enumerate(st.fam_actions(f)):
                    if a not in COPYABLE:
                        continue
                    if a == "publish":
                        vals = [st.spell_points(sp) + st.best_bonus(seat, sp[0], sp[1])[0] for sp in st.spells[seat].values()]
                        v = max(vals, default=0)
                    else:
                        v = self._simple(st, seat, a, draw)
                    if v > best_v:
                        best, best_v = ((t, p2, k), a), v
        return best

    def _params_for(self, st: EvoState, seat: int, a: str, pos):
        c = st.c
        hand = st.hand_letters(seat)
        if a == "draw":
            return () if st.deck_n else None
        if a == "wild":
            return () if st.wild_pile else None
        if a == "burn":
            if not hand:
                return None
            best = max(hand, key=lambda l: (c.points[st.hands[seat][hand.index(l)]], -LETTER_USE.get(l, 0)))
            pts = c.letter_points.get(best, 0)
            if pts >= 3 or (st.deck_n < 8 and pts > 0) or (len(hand) > 8 and pts > 0):
                return (best,)
            return None
        if a == "publish":
            best, best_v = None, 0
            for t, spell in st.spells[seat].items():
                b, aid = st.best_bonus(seat, spell[0], spell[1])
                v = st.spell_points(spell) + b
                if v > best_v:
                    best, best_v = (t, aid), v
            return best
        if a == "pickup":
            if len(hand) <= 2 and st.deck_n:
                cands = [(st.spell_points(sp), t) for t, sp in st.spells[seat].items() if t != st.active]
                if cands:
                    return (min(cands)[1],)
            return None
        if a == "lock":
            if st.teams[seat][st.active][pos][2] or not hand:
                return None
            return (self._lock_letter(hand),)
        if a == "hire":
            if not st.market:
                return None
            teams = [t for t in c.teams if st.room(seat, t)]
            if not teams:
                return None
            best = None
            for m, fid in enumerate(st.market):
                sides = c.fam_defs[c.fam_def_of[fid]][1]
                for side in (0, 1):
                    v = sum(HIRE_VALUE[x] for x in sides[side])
                    if "lock" in sides[side] and not hand:
                        v = 0
                    if best is None or v > best[0]:
                        best = (v, m, side)
            _, m, side = best
            team = min(teams, key=lambda t: (len(st.teams[seat][t]) / c.leaders[t].limit, -self._activation_rate(t)))
            sides = c.fam_defs[c.fam_def_of[st.market[m]]][1]
            lock = self._lock_letter(hand) if "lock" in sides[side] and hand else ""
            return (m, team, side, lock)
        return None

    @staticmethod
    def _activation_rate(team: int) -> float:
        return {3: 3, 4: 4, 5: 2, 6: 1}.get(team, 1)

    @staticmethod
    def _lock_letter(hand: list[str]) -> str:
        return max((l for l in hand if l != WILD), key=lambda l: LETTER_USE.get(l, 0), default=hand[0])


def _minus(sub: str, locked: str) -> str:
    """sub without the locked letters it contains (both sorted)."""
    rest = list(sub)
    for l in locked:
        if l in rest:
            rest.remove(l)
    return "".join(rest)


def pubs_slots(st: EvoState, seat: int, team: int) -> list:
    return [a for _, a in st.team_actions(seat, team) if a == "publish"]


# ----------------------------------------------------------------- rules ----
def seat_table(value: Any, players: int, name: str) -> list[int]:
    """A per-seat setup number for this player count, from game.yaml `rules:` (a map
    players -> one number a seat, in turn order) or an --option ("0,1,1,2" or one number
    for every seat). None: 0 for every seat."""
    if value is None or value is False:
        return [0] * players
    if isinstance(value, dict):
        value = {int(k): v for k, v in value.items()}.get(players)
        if value is None:
            return [0] * players
    if isinstance(value, str):
        value = [int(v) for v in value.replace(" ", "").split(",") if v]
    if isinstance(value, (int, float)):
        value = [int(value)] * players
    table = [int(v) for v in value]
    if len(table) != players or min(table) < 0:
        raise ValueError(f"rules.{name}: {players} numbers of 0 or more, one a seat, got {table}")
    return table


class EvoRules(Rules):
    id = "evocabulary"
    length_unit = "turns"
    turn_cap = 600
    # A turn: find a word in a hand of 7 (about 20 s), place it and resolve the
    # team's 1-4 actions (about 10 s): 30 s a turn, all players' turns counted.
    seconds_per_turn = 30.0

    @property
    def settings(self):
        from generator.rules.evocabulary_settings import EvoSettings

        return EvoSettings

    def new_state(self, game: Game, players: int, options: dict[str, Any] | None = None) -> EvoState:
        options = options or {}
        rules = game.spec.rules
        side = str(options.get("leader_side", rules.get("leader_side", "A")))
        if not game.spec.players.min <= players <= game.spec.players.max:
            raise ValueError(f"Evocabulary is for {game.spec.players.min}-{game.spec.players.max} players")
        catch_up = options.get("catch_up", rules.get("catch_up", True))
        if isinstance(catch_up, str):
            catch_up = catch_up.strip().lower() not in ("false", "no", "off", "0")
        extra = {}
        for name in ("catch_up_letters", "catch_up_wilds", "catch_up_points"):
            value = options.get(name, rules.get(name)) if catch_up else None
            extra[name] = seat_table(value, players, name)
        return EvoState(content_for(game, side), players, extra["catch_up_letters"], extra["catch_up_wilds"],
                        extra["catch_up_points"])

    def heuristic_player(self, skill: float = 1.0) -> Player:
        return EvoPlayer(skill)


RULES = EvoRules()
