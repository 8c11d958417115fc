"""Evocabulary's words: the game's lexicon through generator/words, syllable counts, and
spells' letters by source (l locked, s spell, h hand, w wild) as moves name them."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Container, Iterable
from functools import lru_cache
from itertools import groupby, product
from typing import TYPE_CHECKING

from spellpress.model.game import Game
from spellpress.rules.protocol import IllegalAction
from spellpress.words.finder import for_words
from spellpress.words.index import _halves, key, sub_multisets, sub_multisets_between, subs_and_lefts
from spellpress.words.syllables import syllables

if TYPE_CHECKING:
    from spellpress.rules.evocabulary.content import Content

WILD = "?"  # a wild card's letter
WILD_COUNTS_KEPT = 200_000  # Words.word_counts' counts of each kind kept before that memo starts over
GROUPS_KEPT = 10_000  # Words.groups' answers kept before that memo starts over
SOURCE_ORDER = "lshw"  # canonical order of sources within one letter's positions


@lru_cache(maxsize=20000)
def subs_of(sorted_letters: str) -> tuple[str, ...]:
    """Every sub-multiset of a sorted hand, wilds ("?") included, each once (the discards)."""
    return tuple(sub_multisets_between(sorted_letters, ""))


def subs_with_keys(base: str, pool: str) -> tuple[list[str], list[str]]:
    """sub_multisets(pool), and beside each part the key of the sorted `base` plus it. The pool's parts
    are its two halves' parts joined (see sub_multisets), and every letter of the head half sorts
    before the tail's, so a key is base's letters before the tail's first plus a head part, sorted,
    then the rest of base plus a tail part, sorted: a sort a part of each half, not one a part."""
    head, tail = _halves(pool)
    heads, tails = subs_and_lefts(head)[0], subs_and_lefts(tail)[0]
    subs = [h + t for h in heads for t in tails]
    if not base:
        return subs, subs
    cut = bisect_left(base, tail[0]) if tail else len(base)
    base_head, base_tail = base[:cut], base[cut:]
    head_keys = [key(base_head + h) for h in heads] if base_head else heads
    tail_keys = [key(base_tail + t) for t in tails] if base_tail else tails
    return subs, [h + t for h in head_keys for t in tail_keys]


class Words:
    """The game's words (its `words:` settings): membership, searches through the shared
    word finder, and syllable counts (memoized)."""

    def __init__(self, game: Game):
        lexicon, self.finder = for_words(game.spec.words)
        self.words = frozenset(lexicon.words)
        self.overrides = dict(game.spec.words.syllables)
        self._syllables: dict[str, int] = {}
        self._members: dict[tuple[str, bool], tuple[tuple[str, str], ...]] = {}
        self._firsts: dict[tuple[str, bool], tuple[tuple[int, str, str], ...]] = {}
        self._one_wild: dict[str, int] = {}  # word_counts' counts by letters, kept
        self._last_keys: tuple[str, str, list[str], list[str]] = ("", "\n", [], [])
        self._two_wilds: dict[str, int] = {}
        self._groups: dict[tuple[str, str, bool, bool, str], list[tuple[str, bool, str]]] = {}

    def syllables(self, word: str) -> int:
        n = self._syllables.get(word)
        if n is None:
            n = self._syllables[word] = syllables(word, self.overrides)
        return n

    def search(self, base: str, pool: str, wild: bool, need_pool: bool = True):
        """(word, sub of pool used, wild letter or "") for words using all of base,
        some of pool (at least one letter if need_pool) and at most one wild. A wild in
        the pool (a locked wild) stands for nothing."""
        return self.finder.extensions(base, pool.replace(WILD, ""), 1 if wild else 0, need_pool)

    def groups(self, base: str, pool: str, wild: bool, need_pool: bool = True, dropped: str = "") -> list[tuple[str, bool, str]]:
        """search's words a group at a time: (sub of pool used, wild or not, the letters of the
        group's words), for the groups search's words come in, in its order. The words of a group
        have the same length and letters but the wild's: `members` and `syllable_firsts` name them.
        With `dropped`, those of `base` less that letter (a spell less one of its letters: the keys
        of the whole spell and each part of the pool, less that letter, are still sorted). Answers are
        kept (the same list each time: read it, do not change it): a seat's letters come again, in a
        game and far more in a search player's playouts."""
        asked = (base, pool, wild, need_pool, dropped)
        found = self._groups.get(asked)
        if found is None:
            if len(self._groups) >= GROUPS_KEPT:
                self._groups.clear()
            found = self._groups[asked] = self._find_groups(*asked)
        return found

    def _find_groups(self, base: str, pool: str, wild: bool, need_pool: bool, dropped: str) -> list[tuple[str, bool, str]]:
        pool = pool.replace(WILD, "")
        by_key = self.finder.index.by_key
        subs, keys = self._keys(base, pool)
        if dropped:
            base = base.replace(dropped, "", 1)
            keys = [k.replace(dropped, "", 1) for k in keys]
        if need_pool and subs and not subs[0]:  # mixed-radix order: the empty part comes first
            subs, keys = subs[1:], keys[1:]
        if not wild:
            return [(sub, False, k) for sub, k in zip(subs, keys, strict=True) if k in by_key]
        one_short = self.finder.index.one_short(len(base) + len(pool) + 1)
        found = []
        for at in [at for at, k in enumerate(keys) if k in by_key or k in one_short]:  # few parts make words
            sub, k = subs[at], keys[at]
            if k in by_key:
                found.append((sub, False, k))
            if k in one_short:
                found.append((sub, True, k))
        return found

    def _keys(self, base: str, pool: str) -> tuple[list[str], list[str]]:
        """subs_with_keys(base, pool), the last answer kept (a spell's modifies ask it for each letter dropped)."""
        last = self._last_keys
        if last[0] != base or last[1] != pool:
            last = self._last_keys = (base, pool, *subs_with_keys(base, pool))
        return last[2], last[3]

    def word_counts(self, pool: str, wilds: int, lengths: Container[int]):
        """(sub of pool, wilds, how many words) for the words extensions("", pool, wilds, need_pool=False)
        makes of each part of the pool with that many wilds (0-2), of the `lengths` wanted: counted,
        not listed (and the costly two-wild counts only where they are wanted)."""
        by_key = self.finder.index.by_key
        if wilds:  # the table of keys a letter short, grown once for the longest part (each growth reads every key)
            self.finder.index.one_short(len(pool) + 2)
        subs = sub_multisets(pool)
        for sub in [sub for sub in subs if sub in by_key and len(sub) in lengths]:  # few parts are words
            yield sub, 0, len(by_key[sub])
        for n_wild, known, count in ((1, self._one_wild, self._one_wild_count), (2, self._two_wilds, self._two_wild_count)):
            if wilds < n_wild:
                break
            for sub in [sub for sub in subs if len(sub) + n_wild in lengths]:
                n = known.get(sub)
                if n is None:
                    n = count(sub)
                if n:
                    yield sub, n_wild, n

    def _one_wild_count(self, letters: str) -> int:
        """How many words these letters make with one wild (kept)."""
        if len(self._one_wild) >= WILD_COUNTS_KEPT:
            self._one_wild.clear()
        pairs = self.finder.index.one_short(len(letters) + 2).get(letters, ())
        one = self._one_wild[letters] = sum(len(words) for _, words in pairs)
        return one

    def _two_wild_count(self, letters: str) -> int:
        """How many words these letters make with two wilds (kept): for each letter the first wild may
        stand for, the words one letter longer than letters and it whose other letter comes no earlier."""
        get = self.finder.index.one_short(len(letters) + 2).get
        two = 0
        cuts = [(letters[:at], letters[at:]) for at in range(len(letters) + 1)]  # each place a letter can go
        for first in self.finder.alphabet:
            head, tail = cuts[bisect_right(letters, first)]
            pairs = get(head + first + tail)
            if pairs:
                for letter, words in pairs:
                    if letter >= first:
                        two += len(words)
        if len(self._two_wilds) >= WILD_COUNTS_KEPT:
            self._two_wilds.clear()
        self._two_wilds[letters] = two
        return two

    def members(self, letters: str, wild: bool) -> tuple[tuple[str, str], ...]:
        """(word, wild letter or "") of a group, in search's order."""
        found = self._members.get((letters, wild))
        if found is None:
            if wild:
                pairs = self.finder.index.one_short(len(letters) + 1).get(letters, ())
                found = tuple((word, letter) for letter, words in pairs for word in words)
            else:
                found = tuple((word, "") for word in self.finder.index.by_key.get(letters, ()))
            self._members[(letters, wild)] = found
        return found

    def first_member(self, letters: str, wild: bool) -> tuple[tuple[str, str]]:
        """members' first (word, wild letter), without making the rest."""
        if wild:
            letter, words = self.finder.index.one_short(len(letters) + 1)[letters][0]
            return ((words[0], letter),)
        return ((self.finder.index.by_key[letters][0], ""),)

    def syllable_firsts(self, letters: str, wild: bool) -> tuple[tuple[int, str, str], ...]:
        """(syllables, word, wild letter) of a group's first word of each syllable count, in search's order."""
        found = self._firsts.get((letters, wild))
        if found is None:
            firsts: dict[int, tuple[int, str, str]] = {}
            for word, wl in self.members(letters, wild):
                n = self.syllables(word)
                if n not in firsts:
                    firsts[n] = (n, word, wl)
            found = self._firsts[(letters, wild)] = tuple(firsts.values())
        return found


def make_src(word: str, counts: dict[str, Counter]) -> str:
    """Canonical source string: each letter's positions take sources in the order l, s, h, w."""
    left = {s: dict(c) for s, c in counts.items()}  # copies (plain dicts: a Counter's copy is slow)
    out = []
    for letter in word:
        for source in SOURCE_ORDER:
            c = left.get(source)
            if c and c.get(letter, 0) > 0:
                c[letter] -= 1
                out.append(source)
                break
        else:
            raise IllegalAction(f"no source for '{letter}' in {word!r}")
    return "".join(out)


def src_counts(word: str, src: str) -> dict[str, Counter]:
    counts: dict[str, Counter] = {s: Counter() for s in SOURCE_ORDER}
    for letter, source in zip(word, src, strict=False):
        counts[source][letter] += 1
    return counts


def all_builds(c: Content, sources: dict[str, str], n_wild: int, teams: set[int], only: str | None = None,
               ordered: bool = True):
    """Every (word, source string, letters from the hand, from the spell, wilds) landing at one of
    `teams` from these sources (l locked, s spell, h hand letters) and up to two wilds: for
    legal_actions only. With `only`, that word's builds alone (is one move legal?). The words come
    A-Z, or if not `ordered` as the word finder meets them, each made as it is found. The source
    string is make_src's, made from each letter's shares without building per-source counts
    (src_counts gives them back)."""
    seen = set()
    for word, wild_n, per_letter in _build_options(c, sources, n_wild, teams, only, ordered):
        for combo in product(*per_letter):
            src = _source_string(word, {letter: (a, a + b, a + b + h) for letter, a, b, h in combo})
            ident = (word, src)
            if ident in seen:
                continue
            seen.add(ident)
            yield word, src, sum(share[3] for share in combo), sum(share[2] for share in combo), wild_n


def count_builds(c: Content, sources: dict[str, str], n_wild: int, teams: set[int],
                 keep: Callable[[int, int, int], bool]) -> int:
    """How many of all_builds' builds `keep(hand letters, spell letters, wilds)` keeps, without making
    them: `keep` must keep every build that takes a letter from the hand. Each (word, letters used)
    has one build per way to share its letters among the sources, each with its own source string,
    so the builds of a candidate are the product of its letters' share counts; of those, the builds
    without a hand letter are counted by how many spell letters they take (`_shares`)."""
    total = 0
    held = [Counter(sources.get(s, "")) for s in "lsh"]
    pool = key("".join(sources.values())).replace(WILD, "")
    shares: dict[tuple[str, int], tuple[int, tuple[int, ...]]] = {}  # (letter, n) -> _shares of this pool's cards
    team_of = c.team_of
    lengths = {n for n in range(len(pool) + 3) if team_of(n) in teams}
    for sub, wild_n, words in c.words.word_counts(pool, min(n_wild, 2), lengths):  # a word's builds depend on its letters
        ways = 1
        spell_sums: dict[int, int] | None = {0: 1}  # builds without a hand letter, by spell letters
        for letter, n in _letter_counts(sub):
            share = shares.get((letter, n))
            if share is None:
                share = shares[(letter, n)] = _shares(n, held[0][letter], held[1][letter], held[2][letter])
            count, no_hand = share
            ways *= count
            if spell_sums is not None:
                spell_sums = _add_shares(spell_sums, no_hand) if no_hand else None
        dropped = sum(n for spell, n in spell_sums.items() if not keep(0, spell, wild_n)) if spell_sums else 0
        total += words * (ways - dropped)
    return total


_LETTER_COUNTS: dict[str, tuple[tuple[str, int], ...]] = {}  # sorted letters -> (letter, how many) each


def _letter_counts(letters: str) -> tuple[tuple[str, int], ...]:
    """A sorted string's letters with their counts, memoized (the parts of hands that make words)."""
    found = _LETTER_COUNTS.get(letters)
    if found is None:
        found = _LETTER_COUNTS[letters] = tuple((letter, len(tuple(run))) for letter, run in groupby(letters))
    return found


@lru_cache(maxsize=4096)
def _share_ways(n: int, locked: int, spell: int, hand: int) -> tuple[tuple[int, int, int], ...]:
    """Every way to share n of a letter among locked, spell and hand cards holding these many."""
    return tuple((a, b, n - a - b) for a in range(min(n, locked) + 1) for b in range(min(n - a, spell) + 1)
                 if n - a - b <= hand)


@lru_cache(maxsize=4096)
def _shares(n: int, locked: int, spell: int, hand: int) -> tuple[int, tuple[int, ...]]:
    """How many ways _share_ways has, and the spell letters each way without a hand letter takes."""
    ways = _share_ways(n, locked, spell, hand)
    return len(ways), tuple(b for _, b, rest in ways if not rest)


def _add_shares(sums: dict[int, int], options: tuple[int, ...]) -> dict[int, int]:
    out: dict[int, int] = {}
    for total, n in sums.items():
        for b in options:
            out[total + b] = out.get(total + b, 0) + n
    return out


def _candidates(c: Content, sources: dict[str, str], n_wild: int, teams: set[int], only: str | None = None,
                lazily: bool = False):
    """(word, letters of the pool used, wilds) of every word landing at one of `teams` from these
    sources and up to n_wild (at most two) wilds, each once, unordered; with `only`, that word's alone.
    `lazily`, each as the word finder finds it (a search that stops at the first that will do)."""
    pool = key("".join(sources.values())).replace(WILD, "")
    wilds = min(n_wild, 2)
    if only is None:
        found = c.words.finder.extensions("", pool, wilds, need_pool=False)
        if lazily:
            yield from _first_finds(c, found, teams)
            return
        unique = {(w, sub) for w, sub, _ in found}
    elif only in c.words.words:  # the parts of the pool the word could use, short by at most n_wild
        common = key("".join((Counter(pool) & Counter(only)).elements()))
        unique = {(only, sub) for sub in subs_of(common) if 0 <= len(only) - len(sub) <= wilds}
    else:
        return
    team_of = c.team_of
    for word, sub in unique:
        if team_of(len(word)) in teams:
            yield word, sub, len(word) - len(sub)


def _first_finds(c: Content, found: Iterable[tuple[str, str, str]], teams: set[int]):
    """_candidates' answers from the word finder's, each the first time it is found."""
    team_of, seen = c.team_of, set()
    for word, sub, _ in found:
        if team_of(len(word)) in teams and (word, sub) not in seen:
            seen.add((word, sub))
            yield word, sub, len(word) - len(sub)


def _build_options(c: Content, sources: dict[str, str], n_wild: int, teams: set[int], only: str | None,
                   ordered: bool = True):
    """all_builds' candidates: (word, wilds, per letter of the pool used its shares (letter, locked,
    spell, hand)), the words A-Z (or as found, not `ordered`)."""
    held = [Counter(sources.get(s, "")) for s in "lsh"]
    candidates = _candidates(c, sources, n_wild, teams, only, lazily=not ordered)
    for word, sub, wild_n in sorted(candidates) if ordered else candidates:
        used = Counter(sub)
        # split each letter of sub among the sources, every way
        per_letter = [[(letter, *share) for share in _share_ways(n, held[0][letter], held[1][letter], held[2][letter])]
                      for letter, n in sorted(used.items())]
        yield word, wild_n, per_letter


_NO_SHARES = (0, 0, 0)


def _source_string(word: str, ends: dict[str, tuple[int, int, int]]) -> str:
    """make_src for one letter's places taking l, s, h, then w in turn: `ends` gives, per letter, where
    its locked, spell and hand shares end among its places."""
    seen: dict[str, int] = {}
    out = []
    for letter in word:
        k = seen[letter] = seen.get(letter, 0) + 1
        locked, spell, hand = ends.get(letter, _NO_SHARES)
        out.append("l" if k <= locked else "s" if k <= spell else "h" if k <= hand else "w")
    return "".join(out)
