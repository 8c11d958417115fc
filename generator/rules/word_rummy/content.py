"""The letter deck as Word Rummy reads it, and the best split of a hand into words.

The split is the one scoring rule that needs a search: a hand scores the points of the cards in
its words, less `unplayed_penalty` times the points of the rest. Both the scoring and the
heuristic player use `Content.best`, memoized by hand: it finds every word the whole hand
makes once (generator/words' finder, digraph cards and wilds included), then chooses
disjoint words by a search over the hand's first card (in a word, or left out).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter
from typing import Any

from spellpress.model.game import Game
from spellpress.model.memo import memo_on
from spellpress.rules.word_rummy.settings import WordRummySettings
from spellpress.words.builds import Sources
from spellpress.words.card_trie import CardTrie
from spellpress.words.card_words import CardWords, sub_key_halves, sub_keys
from spellpress.words.finder import _Cards, for_words

Hand = tuple[str, ...]  # card kinds, sorted: "a", "qu", "*"


@dataclass(frozen=True)
class Split:
    """A hand cut into words; the cards of no word are unplayed."""

    words: tuple[tuple[str, Hand], ...]  # (word, the cards it uses, sorted)
    unplayed: Hand
    score: int

    @property
    def longest(self) -> int:
        return max((len(word) for word, _ in self.words), default=0)

    @property
    def uses_every_card(self) -> bool:
        return not self.unplayed and bool(self.words)

    def rank(self) -> tuple:
        """Best first: score, then cards in words, then the longest word, then A-Z (for determinism)."""
        used = sum(len(cards) for _, cards in self.words)
        return (self.score, used, self.longest, tuple(word for word, _ in self.words))


class Content:
    """Cards, points and words of one game with one settings."""

    def __init__(self, game: Game, settings: WordRummySettings):
        self.settings = settings
        self.wild = settings.wild.lower()
        counts: Counter = Counter()
        self.points: dict[str, int] = {}
        deck = game.component(settings.deck)
        self.card_ids: dict[str, str] = {}  # kind -> the id of the printed card it is (the first of its letter)
        for card in deck.cards:
            kind = str(card["letter"]).lower()
            self.card_ids.setdefault(kind, card.id)
            counts[kind] += card.count
            self.points[kind] = int(card["points"])
        self.kinds: Hand = tuple(sorted(counts))
        # every card but the wild scores: a hand's split then uses every card exactly when it scores them all
        self.letters_score = all(points > 0 for kind, points in self.points.items() if kind != self.wild)
        self.draws = tuple(("card", kind) for kind in self.kinds)  # the deck's chance outcomes, A-Z
        self.counts = dict(counts)
        self.total = sum(counts.values())
        self.component = deck.id
        minimum = settings.min_word_length or game.spec.words.min_length
        _, self.finder = for_words(game.spec.words, min_length=minimum)
        self.min_length = max(minimum, game.spec.words.min_length)
        self._splits: dict[Hand, Split] = {}
        self._values: dict[Hand, tuple[int, bool]] = {}  # see value_without
        self._families: dict[Hand, _Family] = {}
        self._covered: dict[int, bool] = {}  # a packed hand without a wild -> whether its cards are all words
        # every hand packed in one integer, FIELD bits a kind (see _Family); the searches of hands without a
        # wild are the same in every hand that holds them (a wild's words depend on the cards left out)
        self.slot = {kind: i for i, kind in enumerate(self.kinds)}
        self.bits = {kind: 1 << (FIELD * i) for kind, i in self.slot.items()}
        self.kind_of_bits = {bits: kind for kind, bits in self.bits.items()}
        self.point_list = [self.points[kind] for kind in self.kinds]
        self.guards = sum(GUARD << (FIELD * i) for i in range(len(self.kinds)))
        self.wild_field = COUNT * self.bits[self.wild] if self.wild in self.bits else 0
        self.shared_splits: dict[int, tuple] = {}
        self._plain_options: dict[str, tuple | None] = {}  # a key of cards -> its word's option, if any
        self._picks: dict[str, list] = {}  # a key of cards -> its words with wilds (see _wild_picks)
        self.card_words = CardWords(self.finder.index, tuple(k for k in self.kinds if k != self.wild), self.finder.alphabet)
        self._words = lru_cache(maxsize=50_000)(self._words_of)

    def best(self, hand: Hand) -> Split:
        """The best split of `hand` (sorted), memoized: see _best. A hand without a wild that a search has
        already been through (a hand one card short, valued by value_without) is read off the shared memo."""
        split = self._splits.get(hand)
        if split is None:
            split = self._shared_split(hand) if self.wild not in hand else None
            split = self._remember(hand, split or self._best(hand))
        return split

    def _shared_split(self, hand: Hand) -> Split | None:
        """The best split of a hand without a wild from the searches kept in shared_splits, if they hold it."""
        shared = self.shared_splits
        packed = sum(map(self.bits.__getitem__, hand))
        top = shared.get(packed)
        return None if top is None else _read_split(shared.get, packed, top, self.kinds)

    def hand_points(self, cards: Hand) -> int:
        return sum(map(self.points.__getitem__, cards))

    def _words_of(self, hand: Hand) -> tuple[tuple, ...]:
        """Every word the hand makes as an option of the split search (see _option), one per distinct
        set of cards used, most cards first, then A-Z by word: for each set of cards, the A-Z first word
        it spells (with one wild and single-letter cards only, the first by the wild's letter, then
        A-Z, as the finder gives them). Hands of three wilds go to the finder (see _finder_words)."""
        wild = self.wild
        wilds = hand.count(wild)
        if wilds > MOST_WILDS:
            return self._finder_words(hand)
        letters = [c for c in hand if c != wild] if wilds else hand
        by_letter = wilds == 1 and all(len(c) == 1 for c in letters)
        trie = self.card_words.trie
        found = self._looked_up_words(letters) if trie is None else self._walked_words(letters, trie)
        if wilds:
            found += self._wild_words(letters, wilds, by_letter)
        _sort_options(found)
        return tuple(self._in_build_order(found, letters, wilds))

    def _looked_up_words(self, letters) -> list[tuple]:
        """_words_of's options without a wild, every sub-multiset of the cards looked up (a first game)."""
        words, plain, option_of = self.card_words, self._plain_options, self._option
        entry = words.entry
        found: list[tuple] = []
        for sub, _ in sub_keys(words.chars(letters)):
            option: Any = plain.get(sub, False)  # False: not asked yet
            if option is False:
                hit = entry(sub)
                if len(plain) >= SPLITS_KEPT:
                    plain.clear()
                option = plain[sub] = None if hit is None else option_of(hit[1], hit[0])
            if option is not None:
                found.append(option)
        return found

    def _wild_words(self, letters, wilds: int, by_letter: bool) -> list[tuple]:
        """_words_of's options that take a wild or two: each sub-multiset of the cards with the letters a
        wild may stand for (not one whose card the sub-multiset leaves out), looked up. What a key of cards
        offers wilds is worked out once (see _wild_picks): hands share most of their sub-multisets."""
        found: list[tuple] = []
        picks, pick_of, order = self._picks, self._wild_picks, 0 if by_letter else 1
        heads, tails = sub_key_halves(self.card_words.chars(letters))
        for head, head_left in heads:
            for tail, tail_left in tails:
                sub, left = head + tail, head_left | tail_left
                pick = picks.get(sub)
                if pick is None:
                    pick = pick_of(sub)
                for entry in pick[order]:  # the first whose letter is not left out
                    if not left & entry[0]:
                        found.append(entry[2] or self._wild_option(sub, entry, 1))
                        break
                if wilds == 2:
                    for entry in pick[2] if pick[2] is not None else self._two_wilds(sub, pick):
                        if not left & entry[0]:
                            found.append(entry[2] or self._wild_option(sub, entry, 2))
                            break
        return found

    def _wild_picks(self, sub: str) -> list:
        """What the key of cards `sub` offers wilds, kept: [its words with a wild by the wild's letter, the
        same A-Z by word, its words with two wilds A-Z (None until a hand of two wilds asks)], each word as an
        entry [the wild letters as bits, the word, its option once made]: the first entry whose letters are
        not left out is the word the finder takes."""
        letters = self.card_words.with_letter(sub)
        picks = self._picks
        if len(picks) >= SPLITS_KEPT:
            picks.clear()
        if not letters:  # most keys: nothing to sort
            pick = picks[sub] = [(), (), None]
            return pick
        by_letter = tuple([1 << (ord(letter) - 97), word, None] for letter, word in sorted(letters))
        pick = picks[sub] = [by_letter, tuple(sorted(by_letter, key=itemgetter(1))), None]
        return pick

    def _two_wilds(self, sub: str, pick: list) -> tuple:
        """The entries of `sub` with two wilds (see _wild_picks), kept in its pick."""
        found = self.card_words.with_two_letters(sub)
        if not found:  # most keys of a long hand
            pick[2] = ()
            return ()
        pairs = sorted((word, 1 << (ord(first) - 97) | 1 << (ord(second) - 97)) for first, second, word in found)
        pick[2] = tuple([bits, word, None] for word, bits in pairs)
        return pick[2]

    def _wild_option(self, sub: str, entry: list, wilds: int) -> tuple:
        """The option of an entry's word spelled by the key of cards `sub` and `wilds` wilds, kept in the entry."""
        used = tuple(sorted((*map(self.card_words.kind.__getitem__, sub), *(self.wild,) * wilds)))
        entry[2] = option = self._option(entry[1], used)
        return option

    def _walked_words(self, letters, trie: CardTrie) -> list[tuple]:
        """_words_of's options without a wild, from one walk of the trie of card keys (card_trie.py): the
        same options as _looked_up_words."""
        plain, option_of, kind = self._plain_options, self._option, self.card_words.kind
        found: list[tuple] = []
        for cards, word in trie.words(self.card_words.chars(letters)):
            option = plain.get(cards)
            if option is None:
                if len(plain) >= SPLITS_KEPT:
                    plain.clear()
                option = plain[cards] = option_of(word, tuple(sorted(map(kind.__getitem__, cards))))
            found.append(option)
        return found

    def _option(self, word: str, used: Hand) -> tuple:
        """(the cards packed, their points, how many, letters in the word, the word, the cards, the slot of
        the first card): what the split search reads of a word (see _Family)."""
        bits = self.bits
        return (sum(map(bits.__getitem__, used)), self.hand_points(used), len(used), len(word), word, used,
                min(map(self.slot.__getitem__, used)))

    def _in_build_order(self, found: list[tuple], letters, wilds: int) -> list[tuple]:
        """`found`, sorted, with each run of one word spelled by as many cards two ways (th-e-r-e and
        t-h-er-e) put in the order the finder builds that word (its search tries the cards in order)."""
        runs = [i for i in range(1, len(found)) if found[i][4] == found[i - 1][4] and found[i][2] == found[i - 1][2]]
        if not runs:
            return found
        builds = _Cards(self.finder, Sources.make(letters, wilds)).builds
        order: dict[str, list[Hand]] = {}
        for i in runs:
            word = found[i][4]
            if word not in order:
                order[word] = [tuple(sorted(m.cards + (self.wild,) * len(m.wilds))) for m in builds(word)]
        first = {}
        for word, spellings in order.items():
            for used in reversed(spellings):
                first[word, used] = spellings.index(used)
        return sorted(found, key=lambda option: (-option[2], option[4], first.get((option[4], option[5]), 0)))

    def _finder_words(self, hand: Hand) -> tuple[tuple, ...]:
        """_words_of by the word finder (every build of every word): the reference _words_of agrees with."""
        wilds = hand.count(self.wild)
        letters = [c for c in hand if c != self.wild]
        seen: dict[Hand, tuple] = {}
        for match in self.finder.find(letters, wilds=wilds, min_length=self.min_length):
            used = tuple(sorted(match.cards + (self.wild,) * len(match.wilds)))
            if used not in seen:
                seen[used] = self._option(match.word, used)
        found = list(seen.values())
        _sort_options(found)
        return tuple(found)

    def _best(self, hand: Hand) -> Split:
        """The best split of `hand` (sorted): highest score, then most cards in words, then the
        longest word; among equals the first found (options in a fixed order: deterministic). A hand
        without a wild one card short of a hand searched lately is read off that search (as value_without
        reads it): a hand scored at the end of a round is the hand its last discard came from, less it."""
        if self.wild not in hand:
            packed = sum(map(self.bits.__getitem__, hand))
            for family in self._families.values():
                kind = self.kind_of_bits.get(family.packed - packed)
                if kind is not None:
                    return family.split(kind)
        return self._family(hand).split(None)

    def value(self, hand: Hand) -> tuple[int, bool]:
        """(the best split's score, whether it uses every card) of `hand` (sorted)."""
        split = self._splits.get(hand)
        if split is not None:
            return split.score, split.uses_every_card
        value = self._values.get(hand)
        if value is None:
            split = self.best(hand)
            return split.score, split.uses_every_card
        return value

    def value_without(self, hand: Hand, kind: str) -> tuple[int, bool]:
        """value(hand without one `kind` card), from the search of the whole hand.

        Without a wild in the hand, the words of the hand one card short are the whole hand's words
        that fit in it, in the same order: the same search, which best() reads later if asked. With a wild, its words
        depend on the cards left out (a wild never stands for a letter whose card is left unused):
        without an X card, a word may also take a wild for an X whose other cards it all uses, which
        the whole hand's search lacks; _Family.value_without adds those (the same score and
        whether it uses every card; the words chosen among equals may differ, so no split is kept)."""
        rest = hand_without(hand, kind)
        split = self._splits.get(rest)
        if split is not None:
            return split.score, split.uses_every_card
        value = self._values.get(rest)
        if value is None:
            family = self._family(hand)
            value = family.value_without(kind) if self.wild in hand else family.plain_value_without(kind)
            if len(self._values) >= SPLITS_KEPT:
                self._values.clear()
            self._values[rest] = value
        return value

    def goes_out_without(self, hand: Hand, kind: str) -> bool:
        """value_without(hand, kind)[1]: whether the hand less one `kind` card is all words. Without a wild,
        when every card scores (letters_score), a split that leaves a card out scores less than one of every
        card, so the best split uses every card exactly when some split does: a search that stops at the
        first (_Family.covers), not the best split's."""
        if self.wild in hand or not self.letters_score or len(hand) < 2:  # covers() needs a card left
            return self.value_without(hand, kind)[1]
        rest = hand_without(hand, kind)
        split = self._splits.get(rest)
        if split is not None:
            return split.uses_every_card
        value = self._values.get(rest)
        if value is not None:
            return value[1]
        family = self._family(hand)
        return family.covers(family.packed - self.bits[kind])

    def _family(self, hand: Hand) -> _Family:
        family = self._families.get(hand)
        if family is None:
            if len(self._families) >= FAMILIES_KEPT:
                del self._families[next(iter(self._families))]
            family = self._families[hand] = _Family(self, hand)
        return family

    def _remember(self, hand: Hand, split: Split) -> Split:
        if len(self._splits) >= SPLITS_KEPT:
            self._splits.clear()
        self._splits[hand] = split
        return split


class _Family:
    """The split search over one hand, shared by the hand and the hands one card short of it.

    The search runs over multisets packed in one integer, FIELD bits per kind of card with a
    guard bit, so "does the rest hold these cards" and "the rest without them" are one
    subtraction each."""

    def __init__(self, content: Content, hand: Hand):
        self.kinds, self.slot, self.bits, self.held = content.kinds, content.slot, content.bits, frozenset(hand)
        self.packed, self.size = sum(map(self.bits.__getitem__, hand)), len(hand)
        by_first: list[list[tuple]] = [[] for _ in self.kinds]
        for option in content._words(hand):
            by_first[option[6]].append(option)
        self.content, self.by_first, self.points, self.guards = content, by_first, content.point_list, content.guards
        self.searcher = _SplitSearch(by_first, self.points, content.settings.unplayed_penalty, self.guards,
                                     content.shared_splits, content.wild_field)
        self.search = self.searcher.search
        self._no_wild: list[tuple] | None = None

    def value_without(self, without: str) -> tuple[int, bool]:
        """(score, uses every card) of the hand's best split less one `without` card. Without a
        one-letter card X, the words one card short may take a wild for X where the whole hand's may
        not (see Content.value_without): each option that holds every X card of the hand and leaves
        a wild out gives one with a wild in place of an X card."""
        content, bits = self.content, self.bits
        packed = self.packed - bits[without]
        search = self.search
        if len(without) == 1 and without != content.wild and content.wild in self.held:
            x, w = self.slot[without], self.slot[content.wild]
            x_shift, w_shift = FIELD * x, FIELD * w
            held_x = (self.packed >> x_shift) & COUNT
            held_w = (self.packed >> w_shift) & COUNT
            swap = bits[content.wild] - bits[without]
            gain = content.points[content.wild] - content.points[without]
            if held_w == 1 and w == 0:
                return self._one_wild_without(packed, x_shift, held_x, swap, gain)
            extra: list[list[tuple]] = [list(options) for options in self.by_first]
            found = False
            for options in self.by_first:
                for option in options:
                    used = option[0]
                    if (used >> x_shift) & COUNT == held_x and (used >> w_shift) & COUNT < held_w:
                        cards = used + swap
                        first = ((cards & -cards).bit_length() - 1) // FIELD
                        extra[first].append((cards, option[1] + gain, *option[2:]))
                        found = True
            if found:
                search = _SplitSearch(extra, self.points, content.settings.unplayed_penalty, self.guards,
                                      content.shared_splits, content.wild_field).search
        top = search(packed)
        return top[0], top[1] > 0 and top[1] == self.size - 1

    def _one_wild_without(self, packed: int, x_shift: int, held_x: int, swap: int, gain: int) -> tuple[int, bool]:
        """value_without's search when the hand holds one wild, the first kind: the rest's search reads the
        words under the wild, each leaving a rest without a wild (the same in every search), so the words
        with a wild in place of an X card, read after them, only go on from where the rest's own search
        ended, in the same order."""
        swapped = [(option[0] + swap, option[1] + gain, *option[2:]) for option in self.no_wild
                   if (option[0] >> x_shift) & COUNT == held_x]
        top = self.searcher.scan(packed, swapped, self.search(packed))
        return top[0], top[1] > 0 and top[1] == self.size - 1

    @property
    def no_wild(self) -> list[tuple]:
        """The hand's words that take no wild, in the order of by_first (a hand of one wild, the first kind)."""
        found = self._no_wild
        if found is None:
            found = self._no_wild = [option for options in self.by_first[1:] for option in options]
        return found

    def plain_value_without(self, without: str) -> tuple[int, bool]:
        """(score, uses every card) of the best split of the hand (no wild) less one `without` card."""
        packed = self.packed - self.bits[without]
        top = self.search(packed)
        return top[0], top[1] > 0 and top[1] == self.size - 1

    def covers(self, rest: int) -> bool:
        """Whether the cards of `rest` (packed, no wild, within the hand) are all words: the first card in a
        word that fits, and the rest after it covered. Kept by hand in the content: without a wild the words
        of the cards are the same in every hand that holds them."""
        covered = self.content._covered
        found = covered.get(rest)
        if found is None:
            first = ((rest & -rest).bit_length() - 1) // FIELD
            guards = self.guards
            held, found = rest | guards, False
            for option in self.by_first[first]:
                if (held - option[0]) & guards == guards and (rest == option[0] or self.covers(rest - option[0])):
                    found = True
                    break
            if len(covered) >= SHARED_KEPT:
                covered.clear()
            covered[rest] = found
        return found

    def split(self, without: str | None) -> Split:
        """The best split of the hand, or of the hand less one `without` card."""
        packed = self.packed - (self.bits[without] if without is not None else 0)
        split = _read_split(self.search, packed, self.search(packed), self.kinds)
        assert split is not None  # the search answers every rest
        return split


class _SplitSearch:
    """Content._best's search over one hand: an object, not a nested function, since a nested function
    that calls itself is a reference cycle (holding its memo) that only the garbage collector frees."""

    def __init__(self, by_first: list[list[tuple]], points: list[int], penalty: int, guards: int,
                 shared: dict[int, tuple], wild_field: int):
        self.by_first, self.points, self.penalty, self.guards = by_first, points, penalty, guards
        self.memo: dict[int, tuple] = {}
        self.shared, self.wild_field = shared, wild_field

    def search(self, rest: int) -> tuple:
        """(score, cards in words, longest word, the option chosen or None, the rest after it). Each rest
        is looked up in its memo before it is searched: most are there, and a call costs more than a look."""
        if not rest:
            return NOTHING_LEFT
        wild_field, shared, own = self.wild_field, self.shared, self.memo
        memo = own if rest & wild_field else shared
        found = memo.get(rest)
        if found is not None:
            return found
        first = (rest & -rest).bit_length() - 1
        first //= FIELD
        skip = rest - (1 << (FIELD * first))
        after = (own if skip & wild_field else shared).get(skip) or self.search(skip)
        skipped = (after[0] - self.penalty * self.points[first], after[1], after[2], None, skip)
        best = self.scan(rest, self.by_first[first], skipped)
        if memo is self.shared and len(memo) >= SHARED_KEPT:
            memo.clear()
        memo[rest] = best
        return best

    def scan(self, rest: int, options: list[tuple], best: tuple) -> tuple:
        """The search's node for `rest` after `options`, read in order from `best` on: an option takes the
        place only when its split beats the best so far (a higher score, then more cards in words, then a
        longer longest word): among equals the first stays."""
        wild_field, shared, own = self.wild_field, self.shared, self.memo
        score, used, longest = best[0], best[1], best[2]
        guards, search = self.guards, self.search
        held = rest | guards
        for option in options:
            cards = option[0]
            if (held - cards) & guards != guards:
                continue
            left = rest - cards
            after = (own if left & wild_field else shared).get(left) or search(left)
            total = after[0] + option[1]
            if total < score:
                continue
            count, length = after[1] + option[2], after[2]
            if option[3] > length:
                length = option[3]
            if total > score or count > used or (count == used and length > longest):
                score, used, longest = total, count, length
                best = (total, count, length, option, left)
        return best


NOTHING_LEFT = (0, 0, 0, None, 0)  # the search of an empty rest
MOST_WILDS = 2  # hands with more wilds go to the finder (rare: three wild cards in 110)
SHARED_KEPT = 500_000  # searches of wild-free hands kept (shared by every hand holding them) before starting over
SPLITS_KEPT = 200_000  # memoized splits, by hand, before that memo starts over
FAMILIES_KEPT = 8  # searches kept: a turn asks about one hand and the hands one card short of it
FIELD = 6  # bits per kind of card in a packed hand: 5 for the count (settings cap a hand at 30 cards), 1 guard
GUARD = 1 << (FIELD - 1)
COUNT = GUARD - 1  # the count bits of one kind's field


def _read_split(search, packed: int, top: tuple, kinds: Hand) -> Split | None:
    """The split a search chose for `packed` (its node `top`), following the rest each choice leaves:
    `search` answers a rest, or None where it has no answer (a memo started over)."""
    words, unplayed = [], []
    rest, node = packed, top
    while rest:
        option, left = node[3], node[4]
        if option is None:
            first = ((rest & -rest).bit_length() - 1) // FIELD
            unplayed.append(kinds[first])
        else:
            words.append((option[4], option[5]))
        rest = left
        if rest:
            node = search(rest)
            if node is None:
                return None
    return Split(tuple(sorted(words)), tuple(sorted(unplayed)), top[0])


def _sort_options(options: list[tuple]) -> None:
    """Most cards first, then A-Z by word; equals keep their order (two stable sorts)."""
    options.sort(key=itemgetter(4))
    options.sort(key=itemgetter(2), reverse=True)


def hand_without(hand: Hand, kind: str) -> Hand:
    index = hand.index(kind)
    return hand[:index] + hand[index + 1:]


def content_for(game: Game, settings: WordRummySettings) -> Content:
    return memo_on(game, "word-rummy", settings, lambda: Content(game, settings))
