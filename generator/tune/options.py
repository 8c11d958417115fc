"""What `spellpress tune` was asked: its command line as one typed value, read once from argparse."""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

Variant = tuple[tuple[str, Any], ...]  # (key, value) pairs as --apply reads them: cards.letters.letters-013.points


def variant_of(pairs) -> Variant:
    """A variant from its JSON or study form (a list of [key, value] lists)."""
    return tuple((key, value) for key, value in pairs)


@dataclass(frozen=True)
class TuneOptions:
    game: str
    vary: tuple[str, ...] = ()
    max_changes: int | None = None
    target: tuple[str, ...] = ()
    trials: int = 40
    games: int = 1000
    min_games: int = 200
    eta: int = 3
    sampler: str = "tpe"
    players: int | None = None
    seed: int = 1
    workers: int | None = None
    dask: str | None = None
    option: tuple[str, ...] = ()
    min_count: int = 1
    fixed_deck: tuple[str, ...] = ()
    letter_samples: int = 2000
    verify: int = 3
    verify_games: int | None = None
    fresh: bool = False
    apply: int | None = None
    out: Path = Path("output")
    json: bool = False

    @classmethod
    def from_args(cls, args) -> TuneOptions:
        """The options of a parsed `tune` command line (repeatable options become tuples)."""
        values: dict[str, Any] = {}
        for option in fields(cls):
            if hasattr(args, option.name):
                value = getattr(args, option.name)
                values[option.name] = tuple(value) if isinstance(value, list) else value
        return cls(**values)

    @property
    def fresh_games(self) -> int:
        """Games for each verified candidate and the game as it is."""
        return self.verify_games or self.games
