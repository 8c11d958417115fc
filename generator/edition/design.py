"""The search of `spellpress edition`: a letter deck for another language with the source's profile.

What is kept (print constraints): the number of letter cards and of wild cards, the dice and their
number of faces, the range of printed points, and as many digraph cards as the source has. What is
designed:
- **Letters**: every letter of the language that its words use (at least MIN_SHARE of its letters),
  on cards, except the letters the source's dice carry (the dice keep them: vowel dice stay vowel
  dice). Digraph cards, where the source prints any, are the language's most bound pairs (a letter
  almost always followed by one other, as Q by U).
- **Counts**: the language's letter shares raised to a power `spread` and scaled to the source's
  card total, at least one card a letter. spread 1 follows the language; above 1 gives the common
  letters more cards (hands make words more easily), below 1 spreads cards over the rare letters.
- **Points**: the letter analysis's suggested points for the language (docs/letters.md), on the
  source's lowest points up to a highest value searched, so their order is the suggested order.
- **Dice**: each face mapped by rank: the source's commonest die letter becomes the language's
  commonest, and so on (English die 2 doubles E, the commonest vowel of its list).
The search tries `spread` on a grid, then refines it, judging each deck on the same seeded hands
(common random numbers), then the highest points, and keeps the deck nearest the source's profile
(profile.distance: each figure in units of its tolerance).
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from spellpress.analysis.english import difficulty, suggest_points
from spellpress.analysis.mix import DIE_WILD, LetterCard, LetterMix
from spellpress.analysis.playability import HandRules, Judge
from spellpress.edition.profile import Figure, deck_profile, distance
from spellpress.words.finder import WordFinder

MIN_SHARE = 0.0001  # a letter below this share of the language's letters gets no card
SPREAD_GRID = (0.55, 0.7, 0.85, 1.0, 1.15, 1.3, 1.5)
DIGRAPH_CARDS = (0, 4, 8, 12, 16, 20, 24)  # cards on the language's commonest digraphs the search tries (a source printing none)
POINTS_REACH = 6  # highest points tried: the source's, up to this many below and above
LOW_ENDS = (-0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0)  # the points line's low end, from the source's lowest points: the
#   easiest letters print the lowest points or one more. The game's length turns on it: a common consonant worth no
#   more than a rolled vowel (1) makes racing players go for short, vowel-rich words that spend few cards


@dataclass(frozen=True)
class Deck:
    """A designed deck: cards by face (letter or digraph), points by face, the dice."""

    counts: dict[str, int]
    points: dict[str, int]
    dice: tuple[tuple[str, ...], ...]
    wild_cards: int
    spread: float
    highest: int
    digraphs: tuple[str, ...] = ()  # the digraph faces the search added (not those kept from the source)
    low_end: float = 0.0  # the points line's low end, above the source's lowest points (LOW_ENDS)

    def mix(self, component: str) -> LetterMix:
        cards = tuple(LetterCard(face, self.points[face], count, component) for face, count in sorted(self.counts.items()))
        return LetterMix(cards, self.wild_cards, self.dice)


@dataclass
class Search:
    """What the search tried (spread, highest points, distance), for the report."""

    tried: list[tuple[float, int, float, int, float]] = field(default_factory=list)  # and the cards on added digraphs,
    #                                                                                   the points' low end
    digraphs: list[str] = field(default_factory=list)  # the language's commonest, that the search could add
    digraph_shares: dict[str, float] = field(default_factory=dict)  # their shares of the list's letters
    walk: Callable[..., Candidate] | None = None  # walk(spread, highest, added, low_end): the nearest deck there


def card_letters(language_shares: dict[str, float], dice: tuple[tuple[str, ...], ...]) -> tuple[list[str], list[str]]:
    """(the letters that get cards, the letters left out as too rare) for a language's letter shares."""
    on_dice = {face for die in dice for face in die if face != DIE_WILD}
    used = [letter for letter, share in sorted(language_shares.items()) if share > 0 and letter not in on_dice]
    return [letter for letter in used if language_shares[letter] >= MIN_SHARE], \
        [letter for letter in used if language_shares[letter] < MIN_SHARE]


def bound_pairs(words, letters: list[str], wanted: int) -> list[str]:
    """The `wanted` digraphs a card should carry: pairs whose first letter is most often followed by the
    second (Q by U), weighted by how common the pair is."""
    if wanted <= 0:
        return []
    pairs: Counter = Counter()
    firsts: Counter = Counter()
    for word in words:
        for a, b in zip(word, word[1:], strict=False):
            pairs[a + b] += 1
            firsts[a] += 1
    total = sum(pairs.values()) or 1
    score = {pair: (n / firsts[pair[0]]) * (n / total) ** 0.25 for pair, n in pairs.items()
             if pair[0] in letters and pair[1] in letters}
    return sorted(score, key=lambda pair: (-score[pair], pair))[:wanted]


def is_vowel(letter: str) -> bool:
    """A, E, I, O, U, Y and their accented letters (Ä, Ñ is not one)."""
    return unicodedata.normalize("NFD", letter)[0] in "aeiouy"


def common_digraphs(words, letters: list[str], wanted: int) -> list[tuple[str, float]]:
    """The language's commonest consonant digraphs and trigraphs: (letters, share of the list's letters), the
    `wanted` best by how common the sequence is and how bound its last letter is to the ones before it (C to
    H in German: SCH, CH), every letter on a card."""
    if wanted <= 0:
        return []
    grams: Counter = Counter()
    heads: Counter = Counter()
    total = 0
    for word in words:
        total += len(word)
        for size in (2, 3):
            for at in range(len(word) - size + 1):
                grams[word[at:at + size]] += 1
                heads[word[at:at + size - 1]] += 1
    cards = set(letters)
    score = {gram: (n / heads[gram[:-1]]) * (n / total) ** 0.5 for gram, n in grams.items()
             if set(gram) <= cards and not any(is_vowel(letter) for letter in gram)}
    return [(gram, grams[gram] / total) for gram in sorted(score, key=lambda gram: (-score[gram], gram))[:wanted]]


def apportion(weights: dict[str, float], total: int) -> dict[str, int]:
    """`total` cards shared in proportion to the weights, at least one each: a face whose share is under
    one card gets one, and the rest are shared among the others by largest remainders (Hamilton)."""
    if total < len(weights):
        raise ValueError(f"{total} cards cannot give one to each of {len(weights)} faces")
    counts: dict[str, int] = {}
    left, rest = total, dict(weights)
    while True:
        whole = sum(rest.values())
        small = [face for face, weight in rest.items() if weight * left / whole < 1]
        if not small:
            break
        for face in small:
            counts[face] = 1
            del rest[face]
        left -= len(small)
    whole = sum(rest.values())
    quotas = {face: weight * left / whole for face, weight in rest.items()}
    counts.update({face: int(quota) for face, quota in quotas.items()})
    for face in sorted(quotas, key=lambda f: (-(quotas[f] - int(quotas[f])), f))[:total - sum(counts.values())]:
        counts[face] += 1
    return counts


def counts_for(shares: dict[str, float], faces: list[str], fixed: dict[str, int], total: int, spread: float) -> dict[str, int]:
    """Card counts: shares ** spread shared over the cards left after the fixed ones, at least one each."""
    weights = {face: max(shares.get(face, 0.0), 1e-9) ** spread for face in faces}
    return {**apportion(weights, total - sum(fixed.values())), **fixed}


def face_difficulty(words, faces: list[str], hand: int) -> dict[str, dict[str, float]]:
    """The letter analysis's difficulty of each face's letters and of each multi-letter face."""
    letters = "".join(sorted({letter for face in faces for letter in face}))
    return difficulty(words, letters, hand, tuple(face for face in faces if len(face) > 1))


class FaceDifficulties(dict):
    """face_difficulty by faces (a tuple), each measured once: every candidate deck of a search reads the same
    words, and measuring them takes seconds."""

    def __init__(self, words, hand: int):
        super().__init__()
        self.words, self.hand = words, hand

    def __missing__(self, faces: tuple[str, ...]) -> dict[str, dict[str, float]]:
        self[faces] = face_difficulty(self.words, list(faces), self.hand)
        return self[faces]


def points_for(words, faces: list[str], hand: int, lowest: int, highest: int, low_end: float = 0.0,
               measured: dict[str, dict[str, float]] | None = None) -> dict[str, int]:
    """The letter analysis's suggested points for these faces on a line from lowest + low_end to highest
    (never under lowest): a low end below lowest prints more easy letters at the lowest points, above it fewer.
    `measured`: face_difficulty(words, faces, hand) when the caller has it already (it reads every word)."""
    letters = "".join(sorted({letter for face in faces for letter in face}))
    measured = measured or face_difficulty(words, faces, hand)
    scale = {letter: measured[letter]["difficulty"] for letter in letters}
    suggested = suggest_points({face: measured[face]["difficulty"] for face in faces}, lowest + low_end, highest, scale=scale)
    return {face: max(lowest, suggested[face]) for face in faces}


def mapped_dice(dice: tuple[tuple[str, ...], ...], source_shares: dict[str, float],
                target_shares: dict[str, float]) -> tuple[tuple[str, ...], ...]:
    """Each die face replaced by the target language's letter of the same rank among the dice's letters."""
    letters = sorted({face for die in dice for face in die if face != DIE_WILD})
    by_source = sorted(letters, key=lambda letter: (-source_shares.get(letter, 0.0), letter))
    by_target = sorted(letters, key=lambda letter: (-target_shares.get(letter, 0.0), letter))
    rank = dict(zip(by_source, by_target, strict=False))
    mapped = []
    for die in dice:
        new = tuple(rank.get(face, face) for face in die)
        mapped.append(die if sorted(new) == sorted(die) else tuple(sorted(new, key=die_order)))
    return tuple(mapped)


def die_order(face: str) -> tuple[bool, str]:
    """Faces in the order the source prints them: letters alphabetically, WILD last."""
    return (face == DIE_WILD, face)


@dataclass(frozen=True)
class Candidate:
    distance: float
    deck: Deck
    figures: dict[str, Figure]


def digraphs_printed(mix: LetterMix) -> bool:
    return any(len(card.letters) > 1 for card in mix.cards)


def design(source: dict[str, Figure], source_mix: LetterMix, source_shares: dict[str, float], words,
           shares: dict[str, float], rules: HandRules, finder: WordFinder, *, samples: int, seed: int,
           component: str, digraphs: int = 0,
           progress: Callable[[], None] | None = None) -> tuple[list[Candidate], Search]:
    """Every deck tried, nearest the source's profile first (distinct decks only), and what was tried.
    `digraphs`: for a source that prints none, how many of the language's commonest digraphs the search may
    add as faces; it tries DIGRAPH_CARDS cards on them, shared by their shares (a lever on the cards a word
    spends, so on a game's length)."""
    search = Search()
    printed_digraphs = sorted({card.letters for card in source_mix.cards if len(card.letters) > 1})
    per_digraph = [sum(card.count for card in source_mix.cards if card.letters == face) for face in printed_digraphs]
    letters, _ = card_letters(shares, source_mix.dice)
    chosen_pairs = bound_pairs(words, letters, len(printed_digraphs))
    fixed = dict(zip(chosen_pairs, per_digraph, strict=False))
    lever = common_digraphs(words, letters, 0 if digraphs_printed(source_mix) else digraphs)
    search.digraphs, search.digraph_shares = [gram for gram, _ in lever], dict(lever)
    shares = {**shares, **dict(lever)}
    total = sum(card.count for card in source_mix.cards)
    printed = [card.points for card in source_mix.cards if card.points is not None and len(card.letters) == 1]
    lowest, source_highest = (int(min(printed)), int(max(printed))) if printed else (1, 10)
    dice = mapped_dice(source_mix.dice, source_shares, shares)
    judges: dict[tuple[tuple, bool], Judge] = {}
    measures = FaceDifficulties(words, rules.hand)

    def judged(spread: float, highest: int, added: int, low_end: float) -> Candidate:
        extra = search.digraphs if added else []
        faces = letters + chosen_pairs + extra
        points = points_for(words, faces, rules.hand, lowest, highest, low_end, measures[tuple(faces)])
        lever = apportion({gram: shares[gram] for gram in extra}, added) if added else {}
        deck = Deck(counts_for(shares, letters, {**fixed, **lever}, total, spread), points, dice, source_mix.wild_cards,
                    spread, highest, tuple(extra), low_end)
        judge_key = (tuple(sorted(points.items())), bool(added))  # a judge weighs words by the cards' points
        if judge_key not in judges:
            from spellpress.analysis.playability import judge_for

            judges[judge_key] = judge_for(deck.mix(component), rules, finder)
        figures = deck_profile(deck.mix(component), rules, finder, samples=samples, seed=seed, judge=judges[judge_key])
        far = distance(source, figures)
        search.tried.append((spread, highest, far, added, low_end))
        if progress:
            progress()
        return Candidate(far, deck, figures)

    tried: list[Candidate] = []
    memo: dict[tuple[float, int, int, float], Candidate] = {}

    def at(spread: float, highest: int, added: int = 0, low_end: float = 0.0) -> Candidate:
        key = (round(spread, 6), highest, added, low_end)
        if key not in memo:
            memo[key] = judged(spread, highest, added, low_end)
            tried.append(memo[key])
        return memo[key]

    def best_highest(spread: float, highest: int, added: int = 0, low_end: float = 0.0) -> Candidate:
        """Walk the highest points one at a time from `highest`, while the profile comes nearer."""
        best = at(spread, highest, added, low_end)
        for direction in (1, -1):
            step = highest + direction
            while lowest + max(low_end, 0.0) < step <= source_highest + POINTS_REACH and step >= source_highest - POINTS_REACH:
                candidate = at(spread, step, added, low_end)
                if candidate.distance >= best.distance:
                    break
                best, step = candidate, step + direction
        return best

    # coordinate descent: the points that match the score, then the spread over the grid, then the
    # points again, then the spread refined around the best
    best = best_highest(1.0, source_highest)
    best = min((at(spread, best.deck.highest) for spread in SPREAD_GRID), key=lambda found: found.distance)
    best = best_highest(best.deck.spread, best.deck.highest)
    step = (SPREAD_GRID[1] - SPREAD_GRID[0]) / 2
    for _ in range(3):
        around = [at(best.deck.spread + sign * step, best.deck.highest) for sign in (-1,
                                                                                     1) if best.deck.spread + sign * step > 0.2]
        best = min([best, *around], key=lambda found: found.distance)
        step /= 2
    best_highest(best.deck.spread, best.deck.highest)
    for spread in SPREAD_GRID:  # each spread with its own points, for a choice that counts the game's length too
        best_highest(spread, best.deck.highest)
    for added in DIGRAPH_CARDS[1:] if search.digraphs else ():  # more cards on the commonest digraphs
        best_highest(best.deck.spread, best.deck.highest, added)
    def walk(spread: float, highest: int, added: int, low_end: float) -> Candidate:
        """best_highest for the length stage, after the progress bar has closed."""
        nonlocal progress
        progress = None
        return best_highest(spread, highest, added, low_end)

    search.walk = walk  # the length stage asks for more: each low end of the points, at the length's digraphs
    distinct: dict[tuple, Candidate] = {}
    for candidate in sorted(tried, key=lambda found: found.distance):
        distinct.setdefault((tuple(sorted(candidate.deck.counts.items())), tuple(sorted(candidate.deck.points.items()))),
                            candidate)
    return list(distinct.values()), search
