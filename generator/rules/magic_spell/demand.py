"""The tile mix designed from the spells' demand for letters (see cards/magic-spell/README.md)."""

from __future__ import annotations

from spellpress.model.game import Game
from spellpress.rules.magic_spell.content import catalog


def letter_demand(game: Game) -> dict[str, dict[str, float]]:
    """Per letter: its count over all spell words, the words using it, and its most in one word."""
    cat = catalog(game)
    rows: dict[str, dict[str, float]] = {}
    for spell in cat.spells:
        for letter, n in spell.need:
            row = rows.setdefault(letter, {"letters": 0, "words": 0, "most_in_one_word": 0})
            row["letters"] += n
            row["words"] += 1
            row["most_in_one_word"] = max(row["most_in_one_word"], n)
    return dict(sorted(rows.items()))


def suggest_tile_mix(game: Game, total: int, extra: dict[str, int] | None = None) -> dict[str, int]:
    """Tiles per letter in proportion to demand (largest remainder), with a floor:
    the most a single word needs, plus one when three or more words use the letter
    (so two of its spells can be in progress at once); `extra` adds tuned tiles."""
    demand = letter_demand(game)
    letters_total = sum(row["letters"] for row in demand.values())
    quota = {char: total * row["letters"] / letters_total for char, row in demand.items()}
    floor = {char: int(row["most_in_one_word"]) + (1 if row["words"] >= 3 else 0) for char, row in demand.items()}
    mix = {char: max(floor[char], int(quota[char])) for char in demand}
    for letter, n in (extra or {}).items():
        mix[letter] = mix.get(letter, 0) + n
    while sum(mix.values()) < total:
        letter = max(quota, key=lambda char: (quota[char] - mix[char], char))
        mix[letter] += 1
    return mix
