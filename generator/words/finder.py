"""Which words can be made from letter cards, wilds, table and reusable letters.

    finder = WordFinder(Lexicon())
    finder.find("retains", wilds=1)               # every build of every word
    finder.best(hand, score=points)               # the highest-scoring Match
    finder.longest(hand, reusable="ae")           # A Word to the Wise dice
    finder.can_make_word("stone", hand)           # fast yes/no for simulations

Sources of letters (all optional except the hand):
- hand: letter cards; a card may hold several letters ("QU"), used as a unit.
- wilds: wild cards, each any one letter.
- must_use / may_use: table cards the word must all use / may use.
- reusable: letters usable any number of times (vowel dice); reusable_wilds:
  dice showing WILD, each naming one vowel (aeiouy) then reusable likewise.
A word is returned once per distinct set of sources used (see Match), except
that a wild never stands for a letter while a hand card of that letter is
left unused (that build is never better than using the card).

How: words are looked up by their sorted letters (index.py), one lookup per
sub-multiset of what the query holds, the words one letter longer through a
table of keys minus one letter. Single-letter hands with up to two wilds and
no table (the common case) get Match objects made once and reused. Other
queries without reusable letters take their candidates from the same tables
(a multi-letter card counted as its letters) and build each with _Cards,
which gives exactly what builds()' depth-first search gives (the same
Matches, order and layouts) without searching. Reusable letters with cards
or wilds go through builds().
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from itertools import chain, combinations_with_replacement, product
from operator import attrgetter
from typing import Any

from spellpress.model.languages import ALL_LETTERS
from spellpress.words.builds import HAND, REUSABLE, TABLE, WILD, Match, Sources, builds, new_match, normalize_cards
from spellpress.words.index import LetterIndex, ShortKeys, key, sub_multisets, sub_multisets_between, subs_and_lefts
from spellpress.words.lexicon import ALPHABET, Lexicon

Score = Callable[[Match], float]

_BY_WORD = attrgetter("word")
_HAND_MATCHES_LIMIT = 50_000       # memoized builds kept before that memo starts over
_TWO_WILD_MATCHES_LIMIT = 60_000    # about 40 MB of Matches
_KEPT_PER_ENTRY = 32       # cuts of one entry's wild Matches kept (see _keep)
_KEPT_UP_TO_LETTERS = 6    # ... for entries with at most this many wild letters
SHORT_KEYS_BEFORE_TABLE = 2_000  # keys extensions() asks one at a time (a few games) before one_short's table


_FOR_WORDS: dict[tuple, tuple[Lexicon, WordFinder]] = {}


def for_words(words, min_length: int | None = None) -> tuple[Lexicon, WordFinder]:
    """The lexicon and finder for a game's `words:` settings (min_length, allow, deny),
    built once per process and shared by everything that judges that game's words.
    `min_length` raises the game's own minimum (a rule that wants longer words)."""
    shortest = max(words.min_length, min_length or 0)
    key = (shortest, tuple(sorted(words.allow)), tuple(sorted(words.deny)), words.lexicon, words.language,
           words.vocabulary)
    if key not in _FOR_WORDS:
        lexicon = Lexicon(min_length=shortest, allow=words.allow, deny=words.deny, source=words.lexicon,
                          language=words.language, vocabulary=words.vocabulary)
        _FOR_WORDS[key] = (lexicon, WordFinder(lexicon))
    return _FOR_WORDS[key]


class WordFinder:
    def __init__(self, lexicon: Lexicon | Iterable[str]):
        words = lexicon.words if isinstance(lexicon, Lexicon) else tuple(lexicon)
        # the letters a wild may stand for: the language's (a-z, or a-z and its own letters)
        self.alphabet = lexicon.alphabet if isinstance(lexicon, Lexicon) else ALPHABET
        self.index = LetterIndex(words)
        self._short_keys = ShortKeys(self.index, self.alphabet)
        self._words = frozenset(words)
        self._counts: dict[str, tuple[tuple[str, int], ...]] = {}
        self._plain: dict[str, tuple[Match, ...]] = {}   # key -> its words' Matches
        self._with_wild: dict[str, dict[str, tuple | bool]] = {}   # see _wild_table
        self._with_wild_upto = 0
        self._hand_matches: dict[tuple[str, tuple[str, ...]], Match] = {}
        self._two_wilds: dict[str, dict[str, tuple]] = {}   # first wild -> key -> entry
        self._two_wild_matches = 0
        self._card_builds: dict[tuple, tuple[Match, ...]] = {}   # see _Cards.hand_builds
        self._signatures: dict[tuple, int] = {}
        self._vowel_dice: dict[tuple, Match] = {}

    # -- public API -----------------------------------------------------
    def find(self, hand: Iterable[str], wilds: int = 0, must_use: Iterable[str] = (),
             may_use: Iterable[str] = (), reusable: Iterable[str] = (),
             reusable_wilds: int = 0, min_length: int = 2) -> list[Match]:
        if wilds < 0 or reusable_wilds < 0:
            raise ValueError("wild counts cannot be negative")
        letters = _single_letters(hand)
        plain = letters is not None and not must_use and not may_use
        if plain and letters is not None and not reusable and not reusable_wilds and wilds <= 2:
            return self._find_letters(letters, wilds, min_length, by_word=wilds == 2)
        src = Sources.make(hand, wilds, must_use, may_use, reusable, reusable_wilds)
        if plain and letters is not None and wilds == 0 and not src.skeleton_letters & src.hand.keys():
            return self._find_vowel_dice(letters, src, min_length)
        if not src.reusable and not src.reusable_wilds:
            return self._find_cards(src, min_length)
        return self._find_by_search(src, min_length)

    def best(self, hand: Iterable[str], score: Score, **options) -> Match | None:
        """Highest score; ties go to the longer word, fewer wilds, then A-Z."""
        return _pick(self.find(hand, **options), lambda m: (score(m), len(m.word)))

    def longest(self, hand: Iterable[str], **options) -> Match | None:
        return _pick(self.find(hand, **options), lambda m: (len(m.word),))

    def extensions(self, base: str, pool: str, wilds: int = 0,
                   need_pool: bool = True) -> Iterator[tuple[str, str, str]]:
        """(word, part of pool, letters the wilds stand for) for every word made of all
        of the sorted `base`, a sub-multiset of the sorted `pool` (not empty if
        `need_pool`) and up to `wilds` (0-2) wilds: one lookup per part of the
        pool, in sub_multisets' order, no Match objects (Evocabulary's spells:
        a spell's letters plus some of a hand). A two-wild word comes once per
        part, its wild letters sorted."""
        if not 0 <= wilds <= 2:
            raise ValueError("extensions take 0, 1 or 2 wilds")
        by_key = self.index.by_key
        one_short: dict = {}
        if wilds:  # key by key while few keys are asked (a first game), then the table, built once
            few = len(self._short_keys) < SHORT_KEYS_BEFORE_TABLE
            one_short = self._short_keys if few else self.index.one_short(len(base) + len(pool) + wilds)
        for sub in sub_multisets(pool):
            if need_pool and not sub:
                continue
            k = key(base + sub) if base else sub
            for word in by_key.get(k, ()):
                yield word, sub, ""
            if wilds:
                for letter, words in one_short.get(k, ()):
                    for word in words:
                        yield word, sub, letter
            if wilds >= 2:
                for first in self.alphabet:
                    for letter, words in one_short.get(key(k + first), ()):
                        if letter >= first:
                            for word in words:
                                yield word, sub, first + letter

    def can_make_word(self, word: str, hand: Iterable[str], wilds: int = 0,
                      must_use: Iterable[str] = (), may_use: Iterable[str] = (),
                      reusable: Iterable[str] = (), reusable_wilds: int = 0) -> bool:
        """Is `word` in the lexicon and buildable? Plain letter hands (no table,
        no reusable letters, no multi-letter cards) take a counting shortcut."""
        word = word.lower()
        if word not in self._words:
            return False
        if not (must_use or may_use or reusable or reusable_wilds):
            cards = hand if isinstance(hand, str) else list(hand)
            if all(len(c) == 1 for c in cards):
                cards = "".join(cards).lower()
                short = 0
                for letter, need in self._letter_counts(word):
                    have = cards.count(letter)
                    if need > have:
                        short += need - have
                return short <= wilds
        src = Sources.make(hand, wilds, must_use, may_use, reusable, reusable_wilds)
        return bool(builds(word, src, first_only=True))

    # -- hands of single letters, no table, up to two wilds ------------
    def _find_letters(self, hand: str, wilds: int, min_length: int, by_word: bool) -> list[Match]:
        """The single-letter cards' finds, in the order find() gives them when
        `by_word` (A-Z, as the card path), else in the one-lookup-per-sub order."""
        if wilds == 2:
            return self._find_two_wilds(hand, min_length)
        found = self._find_plain(hand, wilds, min_length)
        if by_word:
            found.sort(key=_BY_WORD)
        return found

    def _find_plain(self, hand: str, wilds: int, min_length: int) -> list[Match]:
        """Single-letter cards and at most one wild: one lookup per sub-multiset
        of the hand. Every word under a key has the key's length (plus one
        with the wild), and the Match objects are made on first use, then reused."""
        out: list[Match] = []
        if not wilds:
            by_key, plain = self.index.by_key, self._plain
            for sub in sub_multisets(hand):
                if sub in by_key and len(sub) >= min_length:
                    out.extend(plain.get(sub) or self._plain_matches(sub))
            return out
        table, extend = self._wild_table(len(hand) + 1), out.extend
        head, tail = _split(hand)
        heads, head_lefts = subs_and_lefts(head)
        tails, tail_lefts = subs_and_lefts(tail)
        for head, head_left in zip(heads, head_lefts, strict=False):
            row = table.get(head)
            if row is None:    # no word has these letters from a to l, even plus one
                continue
            get = row.get
            for tail, tail_left in zip(tails, tail_lefts, strict=False):
                entry: Any = get(tail)
                if not entry:
                    if entry is None:
                        continue
                    entry = self._wild_entry(head, tail)
                n, plain, with_wild, letters, kept, bounds = entry
                if plain and n >= min_length:
                    extend(plain)
                if with_wild and n >= min_length - 1:
                    cut = letters & (head_left | tail_left)
                    if not cut:
                        extend(with_wild)
                    elif kept is None:   # many wild letters: cuts seldom repeat
                        _extend_cut(extend, with_wild, bounds, cut)
                    else:  # no wild may stand for a letter whose card is left in hand
                        rest = kept.get(cut)
                        extend(rest if rest is not None else _keep(with_wild, kept, bounds, cut))
        return out

    def _find_two_wilds(self, hand: str, min_length: int) -> list[Match]:
        """Single-letter cards and two wilds, A-Z. Each word has one build,
        the wilds standing for the letters the hand lacks. Words at most one
        letter short come from _find_plain; a word two short (c <= d) is
        one_short[t], letter d, for t = its letters from the hand plus c:
        with the hand's every c, and d not among the hand's letters left."""
        out = self._find_plain(hand, 1, min_length)
        extend = out.extend
        one_short = self.index.one_short(len(hand) + 2)
        if self._two_wild_matches > _TWO_WILD_MATCHES_LIMIT:
            self._two_wilds, self._two_wild_matches = {}, 0
        caches = self._two_wilds
        for c in self.alphabet:
            start, end = bisect_left(hand, c), bisect_right(hand, c)
            heads, head_lefts = subs_and_lefts(hand[:start])
            tails, tail_lefts = subs_and_lefts(hand[end:])
            middle = c * (end - start + 1)
            cache = caches.get(c)
            if cache is None:
                cache = caches[c] = {}
            for head, head_left in zip(heads, head_lefts, strict=False):
                if len(head) + len(middle) + len(hand) - end + 1 < min_length:
                    continue
                head += middle
                for tail, tail_left in zip(tails, tail_lefts, strict=False):
                    sub = head + tail
                    if sub not in one_short or len(sub) + 1 < min_length:
                        continue
                    entry = cache.get(sub)
                    if entry is None:
                        entry = self._two_wild_entry(sub, c, one_short[sub])
                    with_wild, letters, kept, bounds = entry
                    cut = letters & (head_left | tail_left)
                    if not cut:
                        extend(with_wild)
                    else:
                        rest = kept.get(cut)
                        extend(rest if rest is not None else _keep(with_wild, kept, bounds, cut))
        out.sort(key=_BY_WORD)
        return out

    def _two_wild_entry(self, sub: str, first: str, groups: tuple) -> tuple:
        """Like _wild_entry, for words one letter over `sub` (letter d >= first)
        made with wilds `first` and d: (Matches, their d's, {cut: rest}, bounds)."""
        cards = tuple(sub.replace(first, "", 1))
        with_wild: list = []
        bounds: dict[int, tuple[int, int]] = {}
        letters = 0
        for letter, words in groups:
            if letter >= first:
                wilds, start = (first, letter), len(with_wild)
                with_wild.extend(new_match(w, cards, wilds, (), (), (), _wild_parts(w, wilds)) for w in words)
                bit = 1 << (ord(letter) - 97)
                bounds[bit], letters = (start, len(with_wild)), letters | bit
        self._two_wild_matches += len(with_wild)
        entry = self._two_wilds[first][sub] = (tuple(with_wild), letters, {}, bounds)
        return entry

    def _find_vowel_dice(self, hand: str, src: Sources, min_length: int) -> list[Match]:
        """Reusable letters and single-letter cards that are neither vowels nor
        reusable (A Word to the Wise): look up the consonants, check the vowels."""
        free = src.skeleton_letters
        table = self.index.skeleton(free)
        out = []
        for sub in sub_multisets(hand):
            for word, word_free in table.get(sub, ()):
                if len(word) >= min_length and len(word_free - src.reusable) <= src.reusable_wilds:
                    out.append(self._vowel_dice_match(word, src.reusable, free))
        return out

    # -- cards of several letters, table cards, no reusable letters -----
    def _find_cards(self, src: Sources, min_length: int) -> list[Match]:
        """Candidates from the letter-count tables (a card of several letters
        counted as its letters), each then built by _Cards: A-Z, and each
        word's builds in the order of builds()' depth-first search."""
        cards = _Cards(self, src)
        hand_letters = "".join(card * n for card, n in src.hand.items())
        table_letters = "".join(card * n for card, n in (src.must + src.may).items())
        must_letters = key("".join(card * n for card, n in src.must.items()))
        total = key(hand_letters + table_letters)
        if src.wilds > 2:
            words = sorted(w for w in self._candidates(src, min_length) if len(w) >= min_length)
            return [m for w in words for m in cards.builds(w)]
        if src.must or src.may or not cards.multi_texts:
            words = sorted(w for w in self._candidate_words(total, must_letters, src.wilds)
                           if len(w) >= min_length)
            return [m for w in words for m in cards.builds(w)]
        # Hand cards only, some of several letters: words in which no such
        # card fits are exactly the single-letter cards' finds; the others
        # come from the index of the words that contain such a card (its
        # letters required) and are built, memoized.
        texts = cards.multi_texts
        singles = key("".join(card * n for card, n in src.hand.items() if len(card) == 1))
        out = self._find_letters(singles, src.wilds, min_length, by_word=False)
        indexes = [self.index.containing(text) for text in texts]
        containing = indexes[0].word_set if len(texts) == 1 else frozenset().union(
            *(index.word_set for index in indexes))
        out = [m for m in out if m.word not in containing]
        candidates: set[str] = set()
        for text, index in zip(texts, indexes, strict=False):
            candidates |= self._candidate_words(total, key(text), src.wilds, index)
        builds = cards.hand_builds
        for w in candidates:
            if len(w) >= min_length:
                out.extend(builds(w))
        out.sort(key=_BY_WORD)   # stable: each word's builds stay in order
        return out

    def _candidate_words(self, letters: str, at_least: str, wilds: int,
                         index: LetterIndex | None = None) -> set[str]:
        """Words (of `index`, by default all) made of a sub-multiset of the
        sorted `letters` that contains `at_least`, plus up to `wilds` (0-2)
        other letters: a superset of what cards with those letters can build."""
        index = index or self.index
        by_key, found = index.by_key, set[str]()
        subs = sub_multisets_between(letters, at_least) if at_least else sub_multisets(letters)
        if not wilds:
            for sub in subs:
                words = by_key.get(sub)
                if words:
                    found.update(words)
            return found
        one_short = index.one_short(len(letters) + wilds)
        for sub in subs:
            words = by_key.get(sub)
            if words:
                found.update(words)
            for _, words in one_short.get(sub, ()):
                found.update(words)
        if wilds == 2:
            # A word two letters short of `letters` is one letter short of
            # sub + c, for a sub that holds all of `letters`' c (else that
            # bigger sub finds it): take each c with its count one over.
            for c in self.alphabet:
                below = "".join(x for x in letters if x < c)
                above = "".join(x for x in letters if x > c)
                middle = c * (letters.count(c) + 1)
                heads = sub_multisets_between(below, "".join(x for x in at_least if x < c))
                tails = sub_multisets_between(above, "".join(x for x in at_least if x > c))
                for head in heads:
                    head += middle
                    for tail in tails:
                        for _, words in one_short.get(head + tail, ()):
                            found.update(words)
        return found

    # -- anything else (reusable letters with cards or wilds) ----------
    def _find_by_search(self, src: Sources, min_length: int) -> list[Match]:
        return [m for w in sorted(self._candidates(src, min_length)) for m in builds(w, src)]

    def _candidates(self, src: Sources, min_length: int) -> set[str]:
        """Words whose letters fit the sources' letter counts; builds() then
        checks what counts cannot (multi-letter cards must be contiguous)."""
        free = src.skeleton_letters
        fixed = "".join(c for card in src.must.elements() for c in card if c not in free)
        cards = list((src.hand + src.may).items())
        letters = set()
        for choice in product(*(range(n + 1) for _, n in cards)):
            picked = "".join(card * k for (card, _), k in zip(cards, choice, strict=False))
            letters.add(key(fixed + "".join(c for c in picked if c not in free)))
        wild_letters = "".join(c for c in self.alphabet if c not in free)
        found: set[str] = set()
        if not free:
            longest = max(map(len, letters)) + src.wilds
            one_short = self.index.one_short(longest) if src.wilds else {}
        for sub in letters:
            for used in range(src.wilds + 1):
                if not free and used >= 1:   # last wild via the one-short table
                    for extra in combinations_with_replacement(wild_letters, used - 1):
                        for _, words in one_short.get(key(sub + "".join(extra)), ()):
                            found.update(words)
                    continue
                table = self.index.skeleton(free) if free else None
                for extra in combinations_with_replacement(wild_letters, used):
                    k = key(sub + "".join(extra))
                    if table is None:
                        found.update(self.index.by_key.get(k, ()))
                    else:
                        found.update(w for w, _ in table.get(k, ()))
        return {w for w in found if len(w) >= min_length}

    # -- memoized Match objects (one per word and shape, not per query) --
    def _letter_counts(self, word: str) -> tuple[tuple[str, int], ...]:
        counts = self._counts.get(word)
        if counts is None:
            counts = self._counts[word] = tuple(Counter(word).items())
        return counts

    def _plain_matches(self, sub: str) -> tuple[Match, ...]:
        cards = tuple(sub)
        matches = self._plain[sub] = tuple(
            new_match(w, cards, (), (), (), (), tuple(map(_FROM_HAND.__getitem__, w)))
            for w in self.index.by_key[sub])
        return matches

    def _wild_table(self, max_length: int) -> dict[str, dict[str, tuple | bool]]:
        """Every key of a word, or of a word up to max_length minus one letter,
        shorter than max_length, split into its letters a-l and the rest:
        {a-l part: {rest: its _wild_entry, or False until first used}}. A key
        not in the table has nothing for a one-wild query. Two levels, as a
        hand's sub-multisets share a few a-l parts: most lookups are then in a
        small dict (faster than in one big one), of strings made once per half hand."""
        table, done = self._with_wild, self._with_wild_upto
        if max_length > done:
            one_short = self.index.one_short(max_length)
            for keys in (self.index.by_key, one_short):
                for k in keys:
                    if done <= len(k) + 1 <= max_length:
                        head, tail = _split(k)
                        row = table.get(head)
                        if row is None:
                            row = table[head] = {}
                        row.setdefault(tail, False)
            self._with_wild_upto = max_length
        return table

    def _wild_entry(self, head: str, tail: str) -> tuple:
        """(length, Matches of the key's words, Matches of words one letter
        longer made with a wild, grouped by wild letter, their wild letters,
        {letters to leave out: the rest}, {letter: its group's bounds}), letter
        sets being bit masks."""
        sub = head + tail
        by_key = self.index.by_key
        plain = self._plain.get(sub) or (self._plain_matches(sub) if sub in by_key else ())
        cards = tuple(sub)
        with_wild: list = []
        bounds: dict[int, tuple[int, int]] = {}
        letters = 0
        for letter, words in self.index.one_short(self._with_wild_upto).get(sub, ()):
            start = len(with_wild)
            with_wild.extend(_one_wild_match(w, letter, cards) for w in words)
            bit = 1 << (ord(letter) - 97)
            bounds[bit], letters = (start, len(with_wild)), letters | bit
        kept: dict | None = {} if len(bounds) <= _KEPT_UP_TO_LETTERS else None
        entry = self._with_wild[head][tail] = (len(sub), plain, tuple(with_wild), letters, kept, bounds)
        return entry

    def _hand_build(self, word: str, have: dict[str, int], wilds: int) -> tuple[Match, ...]:
        """The one build of `word` from single-letter hand cards `have` and up
        to `wilds` wilds (the letters the cards lack), or none."""
        short = ""
        for letter, need in self._letter_counts(word):
            n = have.get(letter, 0)
            if need > n:
                short += letter * (need - n)
        if len(short) > wilds:
            return ()
        return (self._hand_match(word, tuple(sorted(short)) if len(short) > 1 else tuple(short)),)

    def _hand_match(self, word: str, wilds: tuple[str, ...]) -> Match:
        """Hand cards and the given wilds (see _wild_parts), memoized."""
        match = self._hand_matches.get((word, wilds))
        if match is None:
            cards = sorted(word)
            for letter in wilds:
                cards.remove(letter)
            if len(self._hand_matches) >= _HAND_MATCHES_LIMIT:
                self._hand_matches.clear()
            match = self._hand_matches[word, wilds] = new_match(
                word, tuple(cards), wilds, (), (), (), _wild_parts(word, wilds))
        return match

    def _vowel_dice_match(self, word: str, reusable: frozenset[str], free: frozenset[str]) -> Match:
        match = self._vowel_dice.get((word, reusable, free))
        if match is None:
            used = [c for c in word if c in free]
            parts = tuple((c, REUSABLE if c in free else HAND) for c in word)
            match = self._vowel_dice[word, reusable, free] = Match(
                word, tuple(sorted(c for c in word if c not in free)), (),
                tuple(sorted(used)), (), tuple(sorted(set(used) - reusable)), parts)
        return match


def _keep(matches: tuple[Match, ...], kept: dict, bounds: dict[int, tuple[int, int]],
          cut: int) -> tuple[Match, ...]:
    """The Matches (grouped by wild letter, in letter order) whose wild letter
    is not in `cut`, memoized in `kept`: the groups between those cut out."""
    pieces, at, left_out = [], 0, cut
    while cut:
        bit = cut & -cut
        start, end = bounds[bit]
        if start > at:
            pieces.append(matches[at:start])
        at = end
        cut ^= bit
    pieces.append(matches[at:])
    rest = pieces[0] if len(pieces) == 1 else tuple(chain.from_iterable(pieces))
    if len(kept) >= _KEPT_PER_ENTRY:   # a few hands' worth: memory stays bounded
        kept.clear()
    kept[left_out] = rest
    return rest


def _extend_cut(extend: Callable, matches: tuple[Match, ...], bounds: dict[int, tuple[int, int]],
                cut: int) -> None:
    """extend() by what _keep would give, without keeping it."""
    at = 0
    while cut:
        bit = cut & -cut
        start, end = bounds[bit]
        if start > at:
            extend(matches[at:start])
        at = end
        cut ^= bit
    if at < len(matches):
        extend(matches[at:])


def _split(letters: str) -> tuple[str, str]:
    """A sorted string's letters a-l, and the rest."""
    at = bisect_right(letters, "l")
    return letters[:at], letters[at:]


class _Cards:
    """One query's cards (no reusable letters), ready to build many words with
    the results of builds(): every distinct Match, each with the layout that
    builds()' depth-first search finds first, in the order it finds them.

    That search tries, at each place in the word, the cards in the order of
    src.card_table (hand, then must, then may cards), then a wild; so a
    layout's rank is the sequence of its pieces' card indices (a wild after
    every card), and the search meets layouts in increasing rank. Here a word
    is cut into its multi-letter cards every possible way (few), then each
    letter's single-letter places are shared between its hand card, must
    card, may card and wilds every allowed way (few); the smallest layout of
    a share puts the sources in that order along the letter's places.
    """

    def __init__(self, finder: WordFinder, src: Sources):
        texts, sources, owed, counts, _ = src.card_table
        self.finder, self.texts, self.sources, self.wilds = finder, texts, sources, src.wilds
        self.wild_rank = len(texts)
        self.hand: dict[str, int] = {}             # single-letter hand cards
        self.singles: dict[str, list[int]] = {}    # letter -> [rank, count] of hand, must, may card
        self.multi: list[tuple[int, str, int, bool]] = []   # (rank, text, count, must)
        self.must_letters: dict[str, int] = {}
        for i, text in enumerate(texts):
            pool = 0 if sources[i] == HAND else 1 if owed[i] else 2
            if len(text) > 1:
                self.multi.append((i, text, counts[i], pool == 1))
                continue
            slot = self.singles.setdefault(text, [-1, 0, -1, 0, -1, 0])
            slot[2 * pool], slot[2 * pool + 1] = i, counts[i]
            if pool == 0:
                self.hand[text] = counts[i]
            elif pool == 1:
                self.must_letters[text] = counts[i]
        self.multi_texts = tuple(dict.fromkeys(text for _, text, _, _ in self.multi))
        self.must_multi = any(must for *_, must in self.multi)
        self.table_letters = frozenset(c for c, slot in self.singles.items() if slot[3] or slot[5])
        self.hand_only = not (src.must or src.may)
        self.hand_ranks = {c: slot[0] for c, slot in self.singles.items() if slot[1]}
        if self.hand_only and self.multi:   # a small number standing for the wilds and multi-letter cards
            signature = (self.wilds, tuple((text, count, rank < self.hand_ranks.get(text[0], rank + 1))
                                           for rank, text, count, _ in self.multi))
            self.signature = finder._signatures.setdefault(signature, len(finder._signatures))
        self._options: dict[tuple[str, int], tuple] = {}

    def hand_builds(self, word: str) -> tuple[Match, ...]:
        """builds() for hand cards only and a word in which a multi-letter
        card fits, memoized on what they depend on: the word, the letters of
        it the single-letter cards lack (so the cards' count of each of its
        letters, up to the word's), and the signature (the wilds, and the
        multi-letter cards with whether each comes before the single-letter
        card of its first letter: builds compete only where two pieces start
        at the same place)."""
        finder, hand, short = self.finder, self.hand, ""
        counts = finder._counts.get(word) or finder._letter_counts(word)
        for letter, need in counts:
            if need > hand.get(letter, 0):
                short += letter * (need - hand.get(letter, 0))
        memo, memo_key = finder._card_builds, (word, short, self.signature)
        found = memo.get(memo_key)
        if found is None:
            if len(memo) >= _HAND_MATCHES_LIMIT:
                memo.clear()
            cuttings = self._cuttings(word, [t for t in self.multi_texts if t in word])
            found = memo[memo_key] = tuple(self._hand_builds(word, cuttings))
        return found

    def builds(self, word: str) -> list[Match] | tuple[Match, ...]:
        if self.multi_texts:
            texts = [t for t in self.multi_texts if t in word]
            if texts:
                if self.hand_only:
                    return self.hand_builds(word)
                return self._builds(word, self._cuttings(word, texts))
        if self.must_multi:
            return ()
        if self.table_letters.isdisjoint(word):
            if self.must_letters:
                return ()
            return self.finder._hand_build(word, self.hand, self.wilds)
        return self._builds(word, ({},))

    def _cuttings(self, word: str, texts: list[str]) -> list[dict[int, int]]:
        """Every way to place multi-letter cards in `word`: {place: card index}."""
        if len(self.multi) == 1:   # one such card, usually found once: no search
            rank, text, _, must = self.multi[0]
            at = word.find(text)
            if word.find(text, at + 1) < 0:
                return [{at: rank}] if must else [{}, {at: rank}]
        places = []
        for rank, text, _, _ in self.multi:
            if text in texts:
                at = word.find(text)
                while at >= 0:
                    places.append((at, rank, len(text)))
                    at = word.find(text, at + 1)
        places.sort()
        left = {rank: count for rank, _, count, _ in self.multi}
        must_ranks = [rank for rank, _, _, m in self.multi if m]
        cuttings: list[dict[int, int]] = []
        _place_cards(places, left, must_ranks, {}, cuttings, 0, 0)
        return cuttings

    def _letter_options(self, letter: str, n: int) -> tuple[tuple[int, int, int, int], ...]:
        """Ways to fill n places of `letter`: (hand, must, may, wild) counts.
        All must cards are used; a wild only once the hand's cards are."""
        options = self._options.get((letter, n))
        if options is None:
            slot = self.singles.get(letter)
            if slot is None:
                options = ((0, 0, 0, n),) if n <= self.wilds else ()
            else:
                hand, must, may = slot[1], slot[3], slot[5]
                rest, found = n - must, []
                for h in range(min(hand, rest) + 1) if rest >= 0 else ():
                    for y in range(min(may, rest - h) + 1):
                        w = rest - h - y
                        if w <= self.wilds and not (w and h < hand):
                            found.append((h, must, y, w))
                options = tuple(found)
            self._options[letter, n] = options
        return options

    def _builds(self, word: str, cuttings) -> list[Match]:
        found: dict[Match, list[int]] = {}
        must_letters = self.must_letters
        for cutting in cuttings:
            if cutting:
                covered: set[int] = set()
                for at, rank in cutting.items():
                    covered.update(range(at, at + len(self.texts[rank])))
                counts: dict[str, int] = Counter(c for i, c in enumerate(word) if i not in covered)
            else:
                counts = dict(self.finder._letter_counts(word))
            if any(letter not in counts for letter in must_letters):
                continue
            letters = list(counts)
            options = [self._letter_options(letter, counts[letter]) for letter in letters]
            if not all(options):
                continue
            for shares in product(*options):
                if sum(share[3] for share in shares) > self.wilds:
                    continue
                match, ranks = self._layout(word, cutting, dict(zip(letters, shares, strict=False)))
                before = found.get(match)
                if before is None:
                    found[match] = ranks
                elif ranks < before:
                    del found[match]
                    found[match] = ranks
        if len(found) < 2:
            return list(found)
        return sorted(found, key=found.__getitem__)

    def _hand_builds(self, word: str, cuttings) -> list[Match]:
        """_builds for hand cards only: each letter's single-letter places take
        its hand cards, then wilds, so each cutting makes at most one build."""
        texts, hand, hand_ranks, wild_rank = self.texts, self.hand, self.hand_ranks, self.wild_rank
        found: dict[tuple, tuple[list[int], list]] = {}
        n = len(word)
        for cutting in cuttings:
            used: dict[str, int] = {}
            ranks, parts, cards, wilds = [], [], [], []
            at = 0
            while at < n:
                rank = cutting.get(at)
                if rank is not None:
                    text = texts[rank]
                    cards.append(text)
                    parts.append((text, HAND))
                    ranks.append(rank)
                    at += len(text)
                    continue
                letter = word[at]
                k = used[letter] = used.get(letter, 0) + 1
                if k <= hand.get(letter, 0):
                    cards.append(letter)
                    parts.append(_FROM_HAND[letter])
                    ranks.append(hand_ranks[letter])
                else:
                    wilds.append(letter)
                    parts.append(_AS_WILD[letter][1])
                    ranks.append(wild_rank)
                at += 1
            if len(wilds) > self.wilds:
                continue
            cards.sort()
            wilds.sort()
            shape = (tuple(cards), tuple(wilds))
            before = found.get(shape)
            if before is None or ranks < before[0]:
                found[shape] = (ranks, parts)
        builds = sorted(found.items(), key=lambda item: item[1][0]) if len(found) > 1 else found.items()
        return [new_match(word, cards, wilds, (), (), (), tuple(parts))
                for (cards, wilds), (_, parts) in builds]

    def _layout(self, word: str, cutting: dict[int, int], shares: dict[str, tuple]) -> tuple[Match, list[int]]:
        texts, sources, singles = self.texts, self.sources, self.singles
        parts: list = []
        ranks: list[int] = []
        hand: list[str] = []
        wilds: list[str] = []
        table: list[str] = []
        seen: dict[str, int] = {}
        at, n = 0, len(word)
        while at < n:
            rank = cutting.get(at)
            if rank is not None:
                text, source = texts[rank], sources[rank]
                (hand if source == HAND else table).append(text)
                parts.append((text, source))
                ranks.append(rank)
                at += len(text)
                continue
            letter = word[at]
            k = seen[letter] = seen.get(letter, 0) + 1
            h, m, y, _ = shares[letter]
            if k <= h:
                rank, part = singles[letter][0], _FROM_HAND[letter]
                hand.append(letter)
            elif k <= h + m + y:
                rank, part = singles[letter][2 if k <= h + m else 4], (letter, TABLE)
                table.append(letter)
            else:
                rank, part = self.wild_rank, _AS_WILD[letter][1]
                wilds.append(letter)
            parts.append(part)
            ranks.append(rank)
            at += 1
        hand.sort()
        wilds.sort()
        table.sort()
        return new_match(word, tuple(hand), tuple(wilds), (), tuple(table), (), tuple(parts)), ranks


def _place_cards(places: list[tuple[int, int, int]], left: dict[int, int], must_ranks: list[int],
                 chosen: dict[int, int], cuttings: list[dict[int, int]], i: int, free_from: int) -> None:
    """_Cards._cuttings' search: places[i:] each used or not, from free_from on. A module function, as
    a nested function calling itself is a reference cycle only the garbage collector frees."""
    if i == len(places):
        if not any(left[rank] for rank in must_ranks):
            cuttings.append(dict(chosen))
        return
    _place_cards(places, left, must_ranks, chosen, cuttings, i + 1, free_from)
    at, rank, length = places[i]
    if at >= free_from and left[rank]:
        left[rank] -= 1
        chosen[at] = rank
        _place_cards(places, left, must_ranks, chosen, cuttings, i + 1, at + length)
        del chosen[at]
        left[rank] += 1


_FROM_HAND = {c: (c, HAND) for c in ALL_LETTERS}   # shared part tuples: less memory, faster


_AS_WILD = {c: ((c,), (c, WILD)) for c in ALL_LETTERS}


def _one_wild_match(word: str, letter: str, cards: tuple[str, ...]) -> Match:
    wilds, wild_part = _AS_WILD[letter]
    parts = list(map(_FROM_HAND.__getitem__, word))
    parts[word.rindex(letter)] = wild_part
    return new_match(word, cards, wilds, (), (), (), tuple(parts))


def _wild_parts(word: str, wilds: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """A hand-card build's layout: each wild stands at the last places of its
    letter, as builds() finds it first (it uses the cards first)."""
    parts = list(map(_FROM_HAND.__getitem__, word))
    for letter in wilds:
        at = len(word)
        while True:
            at = word.rindex(letter, 0, at)
            if parts[at][1] == HAND:
                parts[at] = _AS_WILD[letter][1]
                break
    return tuple(parts)


def _single_letters(hand: Iterable[str]) -> str | None:
    """The hand as one sorted lowercase string, or None if a card has several letters."""
    cards = hand.lower() if isinstance(hand, str) else [c.lower() for c in hand]
    if not all(len(c) == 1 for c in cards):
        return None
    letters = "".join(cards)
    if letters and not (letters.isascii() and letters.isalpha()):
        normalize_cards(cards, "hand")  # raises with the offending card
    return key(letters)


def _pick(matches: list[Match], rank: Callable[[Match], tuple]) -> Match | None:
    """Highest rank; ties broken toward fewer wilds, then alphabetical order."""
    if not matches:
        return None
    return min(matches, key=lambda m: (_negate(rank(m)), len(m.wilds) + len(m.reusable_wilds),
                                       m.word, m.cards, m.wilds, m.reusable, m.table))


def _negate(rank) -> tuple:
    return tuple(-x for x in rank) if isinstance(rank, tuple) else (-rank,)
