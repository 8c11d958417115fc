"""The heuristic's main-phase search (players.py): the starts and modifies of a hand, each valued
by what its team does now (publish, burn, draws, wilds, hires) plus the points it banks in spells.

A play is (value, kind, from team, word, base, sub, wild letter, locked). The words of one group
(one part of the hand, and a wild or not) land at one team, use the same letters and score the
same but for a publishing team's syllable achievements.

Below skill 1 every play is kept (the player draws among the better half). At skill 1 only the best
is wanted, so a group is valued without its words where it can be: off a publishing team, or at one
where no syllable achievement could pay more than the length's, every word of a group is worth the
same, and the group's first word stands for all. The other groups are ranked by what their best
word could be worth at most (the best syllable achievement on a pile) and only those that could
still beat the best play are read a word of each syllable count at a time. Ties go to the play
the search met first, as if every play were valued in the search's order.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING

from spellpress.rules.evocabulary.content import WILD
from spellpress.words.index import key

if TYPE_CHECKING:
    from spellpress.rules.evocabulary.content import Content
    from spellpress.rules.evocabulary.players import EvoPlayer
    from spellpress.rules.evocabulary.state import EvoState


BONUSES_KEPT = 1_000  # Bonuses kept per game's content (one per set of pile tops met) before starting over


def bonuses_of(st: EvoState) -> Bonuses:
    """The Bonuses of the achievements atop the state's piles: one per set of tops, kept with the
    content, so what it works out serves every decision that meets those tops."""
    content = st.content
    tops = tuple(stack[0] if stack else "" for stack in st.piles.values())
    found = content.bonuses.get(tops)
    if found is None:
        if len(content.bonuses) >= BONUSES_KEPT:
            content.bonuses.clear()
        found = content.bonuses[tops] = Bonuses(content, tops)
    return found


class Bonuses:
    """The best achievement a word could claim now: by its length and the highest letter it scores
    (the pile tops of letter achievements), or by its syllables (those of syllable achievements).
    `tops`: the achievement atop each pile ("" for an empty pile)."""

    def __init__(self, content: Content, tops: tuple[str, ...]):
        self.by_len: dict[int, list] = defaultdict(list)
        self.by_syl: dict[int, list] = defaultdict(list)
        for top in tops:
            if top:
                a = content.ach_by_id[top]
                if a.letters:
                    for n in range(a.letters, 16 if a.or_more else a.letters + 1):
                        self.by_len[n].append(a)
                else:
                    self.by_syl[a.syllables].append(a)
        self.syllables = content.words.syllables
        self.max_wilds = content.max_wilds
        self.top_of = content.top_letter
        self._length: dict[tuple[int, int], float] = {}
        self._syllable: dict[tuple[int, int], float] = {}
        self._any_syllable: dict[int, float] = {}
        self._group: dict[tuple[int, bool, int], tuple[float, float]] = {}

    def length_best(self, length: int, top: int) -> float:
        found = self._length.get((length, top))
        if found is None:
            found = self._length[(length, top)] = _best_of(self.by_len.get(length, ()), top)
        return found

    def syllable_best(self, n: int, top: int) -> float:
        found = self._syllable.get((n, top))
        if found is None:
            found = self._syllable[(n, top)] = _best_of(self.by_syl.get(n, ()), top)
        return found

    def any_syllable_best(self, top: int) -> float:
        """What a syllable achievement could pay at most, whatever the word's syllables."""
        found = self._any_syllable.get(top)
        if found is None:
            found = self._any_syllable[top] = max((self.syllable_best(n, top) for n in self.by_syl), default=0.0)
        return found

    def group(self, letters: str, wild: bool) -> tuple[float, float]:
        """A group's bonus by length (every word's least), and the most a word of it could get; the
        group's letters but the wild's give its highest letter (a wild scores 0). Kept by the length,
        the wild and the highest letter, all it depends on."""
        length = len(letters) + wild
        if not self.by_syl and length not in self.by_len:
            return _NO_BONUS
        asked = (length, wild, self.top_of(letters))
        found = self._group.get(asked)
        if found is None:
            found = self._group[asked] = self._group_bonus(*asked)
        return found

    def _group_bonus(self, length: int, wild: bool, top: int) -> tuple[float, float]:
        if (1 if wild else 0) > self.max_wilds:
            return 0.0, 0.0
        least = self.length_best(length, top)
        if not self.by_syl:
            return least, least
        most = self.any_syllable_best(top)
        return least, most if most > least else least

    def word(self, word: str, letters: str, least: float) -> float:
        """A word's bonus: its syllables' best, or its length's (`least`) when that pays more."""
        b = self.syllable_best(self.syllables(word), self.top_of(letters))
        return b if b > least else least

    def for_group(self, letters: str, wild: bool) -> Callable[[str], float]:
        """word -> its bonus, for the words of one group."""
        least, most = self.group(letters, wild)
        if most == least:
            return lambda _: least
        return lambda word: self.word(word, letters, least)


_NO_BONUS = (0.0, 0.0)


def _best_of(achievements, top: int) -> float:
    best = 0.0
    for a in achievements:
        v = a.points + (a.multiplier - 1) * top if a.multiplier else a.points
        if v > best:
            best = v
    return best


def best_sum(others: list, mine: float, n: int) -> float:
    """The sum of the n highest of `others` and `mine` (the spells n publishes would publish)."""
    if n == 1:  # the highest, as sum() adds it to 0
        most = max(others, default=mine)
        return 0 + (mine if mine > most else most)
    return sum(sorted([*others, mine], reverse=True)[:n])


def minus(sub: str, locked: str) -> str:
    """sub without the locked letters it contains (both sorted)."""
    rest = list(sub)
    for char in locked:
        if char in rest:
            rest.remove(char)
    return "".join(rest)


class MainSearch:
    """One main-phase decision's search (see the module doc)."""

    def __init__(self, player: EvoPlayer, st: EvoState, seat: int, swaps: bool | None = None):
        content = st.content
        self.st, self.seat, self.content = st, seat, content
        self.hand = st.hand_letters(seat)
        self.letters = key("".join(char for char in self.hand if char != WILD))
        self.n_wild = self.hand.count(WILD)
        self.endgame = st.deck_count == 0
        self.team_value = player._team_values(st, seat)
        self.published = player._published(st, seat)
        self.refill = 5.0 if st.deck_count >= content.hand_size else 0.0
        self.bank = 0.2 if self.endgame else 0.55
        self.bonuses = bonuses_of(st)
        # modifies that take a letter out of a spell (and perhaps add others): from skill 0.6
        self.swaps = player.skill >= 0.6 if swaps is None else swaps
        self.keep_all = player.skill < 1
        self.plays: list[tuple] = []  # below skill 1: every play
        # at skill 1: the best play whose value is known, as (value, order, letters, wild, play), and the
        # groups still to read, as (most it could be worth, order, letters, wild, v0, pts, publishes, others, play, least)
        self.best: tuple | None = None
        self.open: list[tuple] = []
        self.order = 0
        self._others: dict[tuple[int, int | None], tuple[int, list]] = {}

    def candidates(self) -> list[tuple]:
        """The plays kept: every one below skill 1, else the best."""
        if self.keep_all:
            return self.plays
        best = self._resolve()
        return [] if best is None else [best]

    def others(self, dest: int, spell_team: int | None) -> tuple[int, list]:
        """How many publishes `dest`'s actions make, and the values of the seat's other spells (all but
        the one at `spell_team`, which a modify moves)."""
        found = self._others.get((dest, spell_team))
        if found is None:
            n_pub, pubs = self.published[dest]
            found = self._others[(dest, spell_team)] = (n_pub, [pv for t, pv in pubs if t != spell_team])
        return found

    def consider(self, k: str, wild: bool, v0: float, pts: int, n_pub: int, others: list, given_up: float | None,
                 play: tuple) -> None:
        """Value the group of words with letters k (and the wild or not)."""
        if self.keep_all:
            self._keep_every_word(k, wild, v0, pts, n_pub, others, given_up, play)
            return
        order = self.order
        self.order += 1
        if n_pub:
            least, most = self.bonuses.group(k, wild)
            if most != least:
                bound = v0 + best_sum(others, pts + most, n_pub)
                self.open.append((bound, order, k, wild, v0, pts, n_pub, others, play, least))
                return
            v = v0 + best_sum(others, pts + least, n_pub)
        elif self.endgame:
            v = v0 - 1.0
        else:
            v = v0 + (self.bank * pts + 0.4 * (len(k) + wild))
            if given_up is not None:
                v -= given_up
        best = self.best
        if best is None or v > best[0]:
            self.best = (v, order, k, wild, play)

    def _resolve(self) -> tuple | None:
        """The best play: the best group valued whole, unless an open group's word beats it."""
        best = self.best
        word = None
        for bound, order, k, wild, v0, pts, n_pub, others, play, least in sorted(self.open, key=lambda g: (-g[0], g[1])):
            if best is not None and (bound < best[0] or (bound == best[0] and order > best[1])):
                if bound < best[0]:
                    break
                continue
            for _, w, wl in self.content.words.syllable_firsts(k, wild):
                v = v0 + best_sum(others, pts + self.bonuses.word(w, k, least), n_pub)
                if best is None or v > best[0] or (v == best[0] and order < best[1]):
                    best, word = (v, order, k, wild, play), (w, wl)
        if best is None:
            return None
        v, _, k, wild, play = best
        if word is None or best is self.best:
            word = self.content.words.first_member(k, wild)[0]
        kind, team, base, sub, locked = play
        return (v, kind, team, word[0], base, sub, word[1], locked)

    def _keep_every_word(self, k: str, wild: bool, v0: float, pts: int, n_pub: int, others: list,
                         given_up: float | None, play: tuple) -> None:
        """Below skill 1: a play for every word of the group."""
        kind, team, base, sub, locked = play
        bonus = self.bonuses.for_group(k, wild) if n_pub else None
        for word, wl in self.content.words.members(k, wild):
            v = v0
            if bonus is not None:
                v += best_sum(others, pts + bonus(word), n_pub)
            elif self.endgame:
                v -= 1.0
            else:
                v += self.bank * pts + 0.4 * len(word)
                if given_up is not None:
                    v -= given_up
            self.plays.append((v, kind, team, word, base, sub, wl, locked))

    def add_starts(self) -> None:
        st, seat, content = self.st, self.seat, self.content
        free = [t for t in content.teams if t not in st.spells[seat]]
        team_of, pts_of, n_hand = content.team_of, content.pts, len(self.hand)
        for teams, locked in st._lock_groups(seat, free):
            pool = key(self.letters + locked) if locked else self.letters
            for sub, wild, k in content.words.groups("", pool, self.n_wild > 0):
                team = team_of(len(k) + wild)
                if team not in teams:
                    continue
                hsub = minus(sub, locked) if locked else sub
                used = len(hsub) + wild
                if not used:
                    continue
                v0 = self.team_value[team] + (self.refill if used >= n_hand else 0.0)
                n_pub, others = self.others(team, None)
                self.consider(k, wild, v0, pts_of(hsub), n_pub, others, None, ("start", team, "", sub, locked))

    def add_modifies(self) -> None:
        st, seat, content = self.st, self.seat, self.content
        for team, spell in st.spells[seat].items():
            own = key("".join(content.letter[i] for i in spell[1] if content.letter[i] != WILD))
            given_up = self.bank * st.spell_points(spell) + 0.4 * len(spell[0])  # what a modify gives up of the spell's value
            for dropped in [""] + (sorted(set(own)) if self.swaps else []):  # keep the spell, or all but a letter
                self._modify_base(team, own, dropped, st.spell_wilds(spell), given_up)

    def _modify_base(self, team: int, own: str, dropped: str, sw: int, given_up: float) -> None:
        """The modifies of the spell at `team` that keep the letters `own` of it less `dropped` (one or none)."""
        content, spells = self.content, self.st.spells[self.seat]
        base = own.replace(dropped, "", 1) if dropped else own
        base_pts = content.pts(base)
        team_of, pts_of, n_hand = content.team_of, content.pts, len(self.hand)
        for sub, wild, k in content.words.groups(own, self.letters, self.n_wild + sw > 0, need_pool=False, dropped=dropped):
            dest = team_of(len(k) + wild)
            if dest is None or (dest != team and dest in spells):
                continue
            used = len(sub) + (1 if wild and not sw else 0)
            if not used:
                continue
            v0 = self.team_value[dest] + (self.refill if used >= n_hand else 0.0)
            n_pub, others = self.others(dest, team)
            self.consider(k, wild, v0, base_pts + pts_of(sub), n_pub, others, given_up, ("modify", team, base, sub, ""))
