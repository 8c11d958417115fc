"""Evocabulary's heuristic player: a greedy one-turn lookahead (see cards/evocabulary/README.md)."""

from __future__ import annotations

import random
from collections import Counter

from spellpress.rules.evocabulary.actions import END, Discard, MainAction, Modify, Start, Use
from spellpress.rules.evocabulary.content import WILD
from spellpress.rules.evocabulary.main_search import MainSearch
from spellpress.rules.evocabulary.settings import COPYABLE
from spellpress.rules.evocabulary.state import EvoState
from spellpress.rules.evocabulary.words import make_src
from spellpress.rules.protocol import Player
from spellpress.words.index import key

# What the heuristic thinks each action is worth (a policy, not card data).
HIRE_VALUE = {"draw": 1.4, "wild": 3.0, "burn": 2.5, "publish": 4.5, "lock": 1.5, "hire": 2.0, "teamwork": 2.5, "pickup": 0.8}
LETTER_USE = {char: v for char, v in zip("esaiorntldcupmghbyfkwvzxjq",
                                   (10, 9, 9, 9, 8, 8, 8, 8, 7, 6, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3, 2, 2, 1, 1, 1, 0), strict=False)}
LETTER_USE[WILD] = 12


class EvoPlayer(Player[EvoState]):
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
    def _main(self, st: EvoState, seat: int, rng: random.Random) -> MainAction:
        search = MainSearch(self, st, seat)
        search.add_starts()
        if self.skill >= 0.3:
            search.add_modifies()
        return self._choose_main(st, seat, rng, search.candidates(), search.hand)

    def _choose_main(self, st: EvoState, seat: int, rng: random.Random, plays: list[tuple], hand: list[str]) -> MainAction:
        """The best of the valued plays, or a discard when it is worth more (at the end: a scoring play).
        The discard is chosen only when the play could be worth less: a discard throws back at most
        the hand's letters but its wilds, and is worth at most that many draws."""
        discard = None
        if st.deck_count == 0:
            d_value = -0.5  # a pass: with the deck empty only scoring plays are worth making
            scoring = _endgame_scoring(st, seat, plays, d_value)
            if scoring is not None:
                return scoring
        else:
            d_value = _discard_value(st, len(hand) - hand.count(WILD), len(hand))
        if plays:
            pick = max(plays, key=lambda p: p[0])
            if self.skill < 1 and rng.random() > self.skill:
                plays.sort(key=lambda p: -p[0])
                pick = rng.choice(plays[: max(1, len(plays) // 2)])
            if pick[0] < d_value and st.deck_count:  # what this hand's discard is worth
                discard = self._discard_choice(st, seat, hand)
                d_value = _discard_value(st, len(discard), len(hand))
            if pick[0] >= d_value:
                return _as_move(pick)
        return Discard("discard", self._discard_choice(st, seat, hand) if discard is None else discard)

    def _published(self, st, seat) -> dict[int, tuple[int, list]]:
        """Per team: how many publishes its actions make, and (team, value) of each existing spell
        (its points and best bonus) if it makes any."""
        values: list | None = None  # the same for every team that publishes
        out: dict[int, tuple[int, list]] = {}
        for team in st.content.teams:
            n = len(pubs_slots(st, seat, team))
            if n and values is None:
                values = [(t, st.spell_points(spell) + st.best_bonus(seat, spell[0], spell[1])[0])
                          for t, spell in st.spells[seat].items()]
            out[team] = (n, values) if n and values is not None else (n, [])
        return out

    def _team_values(self, st, seat) -> dict[int, float]:
        """Per team: what its actions but publish are worth now (teamwork: the best copyable action
        of the seat's familiars)."""
        content = st.content
        draw = 0.0 if st.deck_count == 0 else 1.0
        worth: dict[str, float] = {}  # an action's _simple value, asked once

        def value(a: str) -> float:
            v = worth.get(a)
            if v is None:
                v = worth[a] = self._simple(st, seat, a, draw)
            return v
        copy = 0.0
        for t in content.teams:
            for f in st.teams[seat][t]:
                for a in st.fam_actions(f):
                    if a in COPYABLE and a != "publish":
                        copy = max(copy, value(a))
        out = {}
        for team in content.teams:
            v = 0.0
            for _, a in st.team_actions(seat, team):
                if a == "teamwork":
                    v += copy
                elif a != "publish":
                    v += value(a)
            out[team] = v
        return out

    def _simple(self, st, seat, a, draw) -> float:
        if a == "draw":
            return draw
        if a == "wild":
            return 2.2 if st.wild_pile else 0.0
        if a == "burn":
            pts = [st.content.points[i] for i in st.hands[seat]]
            return 0.8 * max(pts, default=0)
        if a == "hire":
            return 2.0 if st.market and any(st.room(seat, t) for t in st.content.teams) and st.deck_count else 0.0
        return 0.2

    def _discard_choice(self, st, seat, hand) -> str:
        """Letters to throw back: unplayable ones (q without u), extra copies, an unbalanced mix."""
        counts = Counter(hand)
        vowels = sum(n for char, n in counts.items() if char in "aeiou")
        out = []
        for char, n in counts.items():
            if char == WILD:
                continue
            keep = 2 if char in "aeiost" else 1
            if char == "q" and "u" not in counts:
                keep = 0
            if LETTER_USE.get(char, 0) <= 2:
                keep = 0
            out += [char] * max(0, n - keep)
        thrown = Counter(out)
        rest = [char for char, n in counts.items() for _ in range(n - thrown[char])]  # the hand less out, as Counter's elements()
        v_left = sum(1 for char in rest if char in "aeiou")
        if v_left > 3:
            extra = sorted((char for char in rest if char in "aeiou"), key=lambda char: LETTER_USE[char])[: v_left - 3]
            out += extra
        elif vowels < 2:
            cons = sorted((char for char in rest if char not in "aeiou" and char != WILD),
                          key=lambda char: LETTER_USE[char])
            out += cons[: max(0, len(cons) - 3)]
        if not out and len(hand) >= st.content.hand_size and st.deck_count:
            out = sorted((char for char in hand if char != WILD), key=lambda char: LETTER_USE.get(char, 0))[:2]
        return key("".join(out))

    # -- team phase ------------------------------------------------------------
    def _team(self, st: EvoState, seat: int, rng: random.Random):
        order = {"draw": 0, "wild": 1, "hire": 2, "lock": 3, "teamwork": 4, "publish": 5, "burn": 6, "pickup": 7}
        free = sorted((order[a], i) for i, (_, a) in enumerate(st.slots) if i not in st.used_slots)
        for _, i in free:
            pos, a = st.slots[i]
            if a == "teamwork":
                best = self._best_copy(st, seat, pos)
                if best is not None:
                    target, name = best
                    params = self._params_for(st, seat, name, None)
                    if params is not None:
                        return Use("use", i, target, *params)
                continue
            params = self._params_for(st, seat, a, pos)
            if params is not None:
                return Use("use", i, *params)
        return END

    def _best_copy(self, st, seat, pos):
        best, best_v = None, 0.5
        draw = 1.0 if st.deck_count else 0.0
        for t in st.content.teams:
            for p2, f in enumerate(st.teams[seat][t]):
                if t == st.active_team and p2 == pos:
                    continue
                for k, a in enumerate(st.fam_actions(f)):
                    if a not in COPYABLE:
                        continue
                    if a == "publish":
                        vals = [st.spell_points(sp) + st.best_bonus(seat, sp[0], sp[1])[0] for sp in st.spells[seat].values()]
                        v = max(vals, default=0)
                    else:
                        v = self._simple(st, seat, a, draw)
                    if a in ("publish", "burn") and not st.deck_count and v > 0:
                        v += 10.0  # deck empty: points now beat a wild that may never be used
                    if v > best_v:
                        best, best_v = ((t, p2, k), a), v
        return best

    def _params_for(self, st: EvoState, seat: int, a: str, pos) -> tuple | None:
        """The parameters to use card action `a` with (see Use), or None to leave it unused."""
        choose = _PARAMS.get(a)
        return choose(self, st, seat, pos) if choose is not None else None

    def _draw_params(self, st: EvoState, seat: int, pos) -> tuple | None:
        return () if st.deck_count else None

    def _wild_params(self, st: EvoState, seat: int, pos) -> tuple | None:
        return () if st.wild_pile else None

    def _burn_params(self, st: EvoState, seat: int, pos) -> tuple | None:
        hand = st.hand_letters(seat)
        if not hand:
            return None
        burnt = max(hand, key=lambda char: (st.content.points[st.hands[seat][hand.index(char)]], -LETTER_USE.get(char, 0)))
        pts = st.content.letter_points.get(burnt, 0)
        if pts >= 3 or (st.deck_count < 8 and pts > 0) or (len(hand) > 8 and pts > 0):
            return (burnt,)
        return None

    def _publish_params(self, st: EvoState, seat: int, pos) -> tuple | None:
        published: tuple[int, str] | None = None
        best_v = 0
        for t, spell in st.spells[seat].items():
            b, aid = st.best_bonus(seat, spell[0], spell[1])
            v = st.spell_points(spell) + b
            if v > best_v:
                published, best_v = (t, aid), v
        return published

    def _pickup_params(self, st: EvoState, seat: int, pos) -> tuple | None:
        if len(st.hands[seat]) <= 2 and st.deck_count:
            cands = [(st.spell_points(sp), t) for t, sp in st.spells[seat].items() if t != st.active_team]
            if cands:
                return (min(cands)[1],)
        return None

    def _lock_params(self, st: EvoState, seat: int, pos) -> tuple | None:
        hand = st.hand_letters(seat)
        if st.teams[seat][st.active_team][pos][2] or not hand:
            return None
        return (self._lock_letter(hand),)

    def _hire_params(self, st: EvoState, seat: int, pos) -> tuple | None:
        content, hand = st.content, st.hand_letters(seat)
        teams = [t for t in content.teams if st.room(seat, t)]
        if not st.market or not teams:
            return None
        hired: tuple[float, int, int] | None = None
        for m, fid in enumerate(st.market):
            sides = content.fam_defs[content.fam_def_of[fid]][1]
            for side in (0, 1):
                worth = sum(HIRE_VALUE[x] for x in sides[side])
                if "lock" in sides[side] and not hand:
                    worth = 0
                if hired is None or worth > hired[0]:
                    hired = (worth, m, side)
        assert hired is not None  # the market is not empty
        _, m, side = hired
        team = min(teams, key=lambda t: (len(st.teams[seat][t]) / content.leaders[t].limit, -self._activation_rate(t)))
        sides = content.fam_defs[content.fam_def_of[st.market[m]]][1]
        lock = self._lock_letter(hand) if "lock" in sides[side] and hand else ""
        return (m, team, side, lock)

    @staticmethod
    def _activation_rate(team: int) -> float:
        return {3: 3, 4: 4, 5: 2, 6: 1}.get(team, 1)

    @staticmethod
    def _lock_letter(hand: list[str]) -> str:
        return max((char for char in hand if char != WILD), key=lambda char: LETTER_USE.get(char, 0), default=hand[0])


# a card action -> the heuristic's choice of its parameters (teamwork is _team's)
_PARAMS = {"draw": EvoPlayer._draw_params, "wild": EvoPlayer._wild_params, "burn": EvoPlayer._burn_params,
           "publish": EvoPlayer._publish_params, "pickup": EvoPlayer._pickup_params, "lock": EvoPlayer._lock_params,
           "hire": EvoPlayer._hire_params}


def pubs_slots(st: EvoState, seat: int, team: int) -> list:
    return [a for _, a in st.team_actions(seat, team) if a == "publish"]


def _discard_value(st: EvoState, thrown: int, hand: int) -> float:
    """What the heuristic thinks a discard of `thrown` letters from a hand of `hand` cards is worth:
    the draws it brings (the hand refilled), as many as the deck holds."""
    return 0.9 * min(thrown + max(0, st.content.hand_size - hand), st.deck_count) + 0.3


def _endgame_scoring(st: EvoState, seat: int, plays: list[tuple], d_value: float) -> MainAction | None:
    """With the deck empty, the engine's scoring play when the search's best play is no publishing
    one worth making (the search sees one wild and one letter out; the engine's sees every play)."""
    publish, _ = st.scoring_teams(seat)
    best = max(plays, key=lambda p: p[0]) if plays else None
    if best is None or best[0] < d_value or st.content.team_of(len(best[3])) not in publish:
        return st.scoring_play(seat)
    return None


def _as_move(pick: tuple) -> Start | Modify:
    """A valued play as the move it makes."""
    _, kind, team, word, base, sub, wl, locked = pick
    w = Counter(wl) if wl else Counter()
    if kind == "start":
        if not locked:  # the usual start: hand letters and wilds only
            return Start("start", word, make_src(word, {"h": Counter(sub), "w": w}))
        lk = Counter(sub) & Counter(locked)
        return Start("start", word, make_src(word, {"l": lk, "h": Counter(sub) - lk, "w": w}))
    return Modify("modify", team, word, make_src(word, {"s": Counter(base), "h": Counter(sub), "w": w}))
