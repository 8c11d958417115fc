"""Read the letters a game prints: letter cards, tiles, market cards and die faces."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from spellpress.errors import Problems
from spellpress.model.game import Component, Game

LETTERS = re.compile(r"^[A-Za-zÄÖÜÑäöüñ]{1,3}$")  # a-z and the own letters of German and Spanish (model/languages.py)
WILD_MARKS = {"?", "*", "wild"}
DIE_WILD = "wild"
WILD_FACE = "?"  # a wild card's face, in hands and counts


@dataclass(frozen=True)
class LetterCard:
    letters: str  # lower case; more than one letter for digraph cards such as "qu"
    points: float | None
    count: int
    component: str


@dataclass(frozen=True)
class LetterMix:
    """Everything letter-bearing in a game, pooled: the deck a hand is drawn from, wilds, dice."""

    cards: tuple[LetterCard, ...]
    wild_cards: int  # wild letter cards shuffled into the deck
    dice: tuple[tuple[str, ...], ...]  # each die's faces, lower case; "wild" is any vowel

    @property
    def deck_size(self) -> int:
        return sum(card.count for card in self.cards) + self.wild_cards

    def letter_counts(self) -> Counter:
        """Single letters printed on the deck's cards, multi-letter cards split into their
        letters (a QU card counts a Q and a U); wild cards are no letter and are left out."""
        return split_letters(self.face_counts())

    def face_counts(self) -> Counter:
        """Cards of each face: "a", "qu", and WILD_FACE for the wild cards."""
        counts: Counter = Counter()
        for card in self.cards:
            counts[card.letters] += card.count
        if self.wild_cards:
            counts[WILD_FACE] += self.wild_cards
        return counts

    def points(self) -> dict[str, float]:
        """Printed points per card letter(s), where the cards print points."""
        return {card.letters: card.points for card in self.cards if card.points is not None}


def split_letters(faces: dict[str, int]) -> Counter:
    """Letters of cards counted by face, each multi-letter face split into its letters."""
    counts: Counter = Counter()
    for face, count in faces.items():
        if face != WILD_FACE:
            for letter in face:
                counts[letter] += count
    return counts


def face_kind(face: str) -> str:
    if face == WILD_FACE:
        return "wild"
    return {1: "letter", 2: "digraph"}.get(len(face), "trigraph")


def _role(component: Component) -> str:
    if component.letters != "auto":
        return component.letters
    fields = component.cards[0].fields
    if "letter" in fields:
        return "deck"
    if "faces" in fields:
        return "dice"
    return "none"


def read_mix(game: Game) -> LetterMix:
    """The game's letters; a UserError (with file:line:col) for letters that are not letters."""
    problems = Problems()
    cards: list[LetterCard] = []
    wilds = 0
    dice: list[tuple[str, ...]] = []
    for component in game.components:
        role = _role(component)
        if role == "none":
            continue
        for card in component.cards:
            if role == "dice":
                faces = card.get("faces")
                if not isinstance(faces, (list, tuple)) or not faces:
                    problems.add(card.location, f"a die of '{component.id}' needs a list of faces")
                    continue
                normal = []
                for face in faces:
                    text = str(face).strip().lower()
                    if text == DIE_WILD or (len(text) == 1 and text.isalpha()):
                        normal.append(text)
                    else:
                        problems.add(card.location, f"die face {face!r} of '{card.id}' is not a letter or WILD")
                for _ in range(card.count):
                    dice.append(tuple(normal))
                continue
            letter = card.get("letter")
            if isinstance(letter, str) and letter.strip().lower() in WILD_MARKS:
                wilds += card.count
                continue
            if not isinstance(letter, str) or not LETTERS.match(letter.strip()):
                problems.add(card.location,
                             f"card '{card.id}' of '{component.id}': letter must be 1-3 letters A-Z or '?' for a wild, "
                             f"got {letter!r}")
                continue
            points = card.get("points")
            if points is not None and (isinstance(points, bool) or not isinstance(points, (int, float))):
                problems.add(card.location, f"card '{card.id}': points must be a number, got {points!r}")
                points = None
            cards.append(LetterCard(letter.strip().lower(), points, card.count, component.id))
    problems.raise_if_any()
    return LetterMix(tuple(cards), wilds, tuple(dice))
