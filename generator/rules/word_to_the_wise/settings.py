"""A Word to the Wise's `rules:` keys (the scoring numbers and the race model) and the run's parameters."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import Field

from spellpress.model.game import Game
from spellpress.rules.settings import EngineSettings, Needs, settings_for

ENGINE = "word-to-the-wise"

# The race model's defaults; game.yaml `rules: race:` or run options override them.
RACE_DEFAULTS: dict[str, float] = {
    "base_seconds": 3.0,  # median time to find a two-letter word
    "growth": 1.5,        # each extra letter multiplies the search time by this
    "spread": 0.6,        # sigma of the log-normal luck of the search
    "steps": 64,          # equally likely quantiles the chance event picks from
}


@dataclass(frozen=True)
class Params:
    hand_size: int
    vowel_points: int
    wild_points: int
    first_word_bonus: int
    first_word_min_length: int
    all_cards_bonus: int
    last_player_points: int
    min_length: int
    challenges: bool
    base_seconds: float
    growth: float
    spread: float
    steps: int
    speeds: tuple[float, ...] | None = None
    dry_rounds: int = 3
    deck: str = "consonants"
    dice: str = "dice"

    def seconds(self, letters: int) -> float:
        return self.base_seconds * self.growth ** (letters - 2)


class RaceSettings(EngineSettings):
    """The simulator's speed model (not a printed rule): how long finding a word takes."""

    base_seconds: float = Field(RACE_DEFAULTS["base_seconds"], gt=0)
    growth: float = Field(RACE_DEFAULTS["growth"], gt=0)
    spread: float = Field(RACE_DEFAULTS["spread"], ge=0)
    steps: int = Field(int(RACE_DEFAULTS["steps"]), ge=1)


class WiseSettings(EngineSettings):
    """game.yaml `rules:` for the word-to-the-wise engine (defaults: the rulebook's numbers)."""

    hand_size: int = Field(5, ge=1)
    vowel_points: int = 1
    wild_points: int = 0
    first_word_bonus: int = 3
    first_word_min_length: int = Field(3, ge=1)
    all_cards_bonus: int = 10
    last_player_points: int = 1
    challenges: bool = True
    # with the deck empty, the game ends after this many rounds in a row in which no word stands (the
    # rulebook has no ending for hands that can make no word: new rolls alone would go on for ever)
    dry_rounds: int = Field(3, ge=1)
    race: RaceSettings = RaceSettings()
    deck: str = "consonants"  # the component of consonant cards (fields letter, points)
    dice: str = "dice"  # the component of vowel dice (field faces)

    def needs(self) -> list[Needs]:
        return [Needs(self.deck, {"letter": str, "points": int}, ("deck",)),
                Needs(self.dice, {"faces": list[str]}, ("dice",))]


def params_for(game: Game, options: dict[str, Any]) -> Params:
    settings = settings_for(game, WiseSettings, ENGINE, options)
    race = settings.race.model_dump()
    for name in RACE_DEFAULTS:
        if name in options:
            race[name] = options[name]
    speeds = options.get("speeds")  # one search-speed factor per seat (1 = the model's pace)
    if isinstance(speeds, str):  # from the command line: --option speeds=1,1,0.8
        speeds = [float(x) for x in speeds.split(",")]
    elif isinstance(speeds, (int, float)):
        speeds = [float(speeds)]
    return Params(
        hand_size=settings.hand_size,
        vowel_points=settings.vowel_points,
        wild_points=settings.wild_points,
        first_word_bonus=settings.first_word_bonus,
        first_word_min_length=settings.first_word_min_length,
        all_cards_bonus=settings.all_cards_bonus,
        last_player_points=settings.last_player_points,
        min_length=game.spec.words.min_length,
        challenges=settings.challenges,
        base_seconds=float(race["base_seconds"]),
        growth=float(race["growth"]),
        spread=float(race["spread"]),
        steps=int(race["steps"]),
        speeds=tuple(float(s) for s in speeds) if speeds else None,
        dry_rounds=settings.dry_rounds,
        deck=settings.deck,
        dice=settings.dice,
    )
