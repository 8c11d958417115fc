"""Word Rummy's `rules:` keys, every one with its default (docs/rules.md lists them)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, NonNegativeInt, PositiveInt, model_validator

from spellpress.rules.settings import EngineSettings, Needs


class WordRummySettings(EngineSettings):
    deck: str = "letters"                       # the component of letter cards (fields letter, points)
    wild: str = "*"                             # the `letter` of a wild card (any one letter)
    rounds: PositiveInt | None = 6              # rounds in a game; null: play to target_score
    target_score: PositiveInt | None = None     # the game also ends after a round where someone reaches it
    hand_start: PositiveInt = 4                 # cards dealt in the first round
    hand_growth: NonNegativeInt = 1             # more cards each round (0: a fixed hand)
    draw_from_discard: bool = True              # a turn may take the discard pile's top card instead of the deck's
    discard_taken_card: bool = False            # that card may go straight back on the pile (a turn that changes nothing)
    min_word_length: PositiveInt | None = None  # shortest word; null: the game's words.min_length
    unplayed_penalty: NonNegativeInt = 1        # unplayed cards cost this many times their points
    longest_word_bonus: NonNegativeInt = 5      # to the one player with the longest word of the round (ties: nobody)
    most_words_bonus: NonNegativeInt = 5        # to the one player with the most words of the round (ties: nobody)
    all_cards_bonus: NonNegativeInt = 5         # to every player whose words use their whole hand
    go_out_bonus: NonNegativeInt = 0            # to the player who went out
    empty_deck: Literal["reshuffle", "end-round"] = "reshuffle"  # the deck runs out: shuffle the discards once, or end the round
    # who starts a round: the next seat, or the one with fewest points
    next_starter: Literal["clockwise", "trailing"] = "clockwise"
    skill_margin: float = Field(2.0, ge=0)      # simulation only: points a card from the discard pile must add to be taken

    @model_validator(mode="after")
    def _ends(self):
        if self.rounds is None and self.target_score is None:
            raise ValueError("give rounds or target_score (or both): the game must end")
        return self

    def hand_size(self, round_index: int) -> int:
        return self.hand_start + self.hand_growth * round_index

    def last_round_hand(self) -> int:
        return self.hand_size((self.rounds or 12) - 1)

    def needs(self) -> list[Needs]:
        return [Needs(self.deck, {"letter": str, "points": int}, ("deck",))]

    def problems(self, game) -> list:
        found = []
        points: dict[str, int] = {}
        cards = 0
        for card in game.component(self.deck).cards:
            letter = str(card["letter"]).lower()
            if letter != self.wild.lower() and not (letter.isalpha() and 1 <= len(letter) <= 3):
                found.append((card.location, f"card '{card.id}': a letter card carries 1 to 3 letters or the wild "
                                             f"'{self.wild}', not {card['letter']!r}"))
            elif points.setdefault(letter, int(card["points"])) != int(card["points"]):
                found.append((card.location, f"card '{card.id}': another {letter.upper()} card has {points[letter]} points"))
            cards += card.count
        if self.last_round_hand() > 30:
            found.append((("hand_growth",), f"the last round deals {self.last_round_hand()} cards; at most 30"))
        most = game.spec.players.max * self.last_round_hand() + 1
        if cards < most:
            found.append((("hand_start",), f"{game.spec.players.max} players with {self.last_round_hand()} cards in the "
                                           f"last round need {most} cards; the deck has {cards}"))
        return found
