"""--vocabulary: the words the simulated players and the letter figures know (docs/simulate.md)."""

from __future__ import annotations

import dataclasses

from spellpress.errors import Option, UserError
from spellpress.model.game import Game
from spellpress.model.schema import SHIPPED_LEXICON
from spellpress.model.vocabulary import HELP, known_words_note, vocabulary_level  # noqa: F401 - re-exported


def with_vocabulary(game: Game, value: str | int | None) -> Game:
    """The game with `words.vocabulary` set from a --vocabulary value (`all` clears a level game.yaml
    sets); a UserError (exit 2) for a bad value or a game whose word list has no commonness levels."""
    if value is None:
        return game
    try:
        level = vocabulary_level(str(value))
    except ValueError as exc:
        raise UserError.at(Option("--vocabulary"), str(exc)) from None
    words = game.spec.words
    if words.lexicon != SHIPPED_LEXICON:
        raise UserError.at(Option("--vocabulary"), f"{game.name} judges words by {words.lexicon!r} "
                           f"(language {words.language!r}), which has no commonness levels; only the English "
                           f"list has them (SCOWL sizes), so a vocabulary cannot be chosen")
    spec = game.spec.model_copy(update={"words": words.model_copy(update={"vocabulary": level})})
    return dataclasses.replace(game, spec=spec)
