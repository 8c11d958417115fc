"""The Lost Words' `rules:` keys: cards dealt, spares, hand, draws, actions, and which components make the decks."""

from __future__ import annotations

from typing import Literal

from pydantic import NonNegativeInt, PositiveInt

from spellpress.errors import Location
from spellpress.model.game import Game
from spellpress.rules.settings import EngineSettings, Needs

ENGINE = "lost-words"
RULE_DEFAULTS = {"spares": 2, "hand": 3, "draws": 1, "actions": 1}


class LostWordsSettings(EngineSettings):
    """game.yaml `rules:` for the lost-words engine (defaults: the rulebook's numbers)."""

    nature_cards: dict[int, PositiveInt] | PositiveInt = {2: 6, 3: 5, 4: 4}  # per player count, or one number
    # the aim: "all" the Nature cards dealt, or a number of them ("all four", the rulebook's aim says)
    cover_to_win: PositiveInt | Literal["all"] = "all"
    spares: NonNegativeInt = RULE_DEFAULTS["spares"]
    hand: PositiveInt = RULE_DEFAULTS["hand"]
    draws: NonNegativeInt = RULE_DEFAULTS["draws"]
    actions: PositiveInt = RULE_DEFAULTS["actions"]
    nature_deck: list[str] = ["nature"]
    spell_deck: list[str] = ["spells", "specials"]

    def needs(self) -> list[Needs]:
        nature = [Needs(c, {"word": str}, ("nature_deck", i)) for i, c in enumerate(self.nature_deck)]
        spells = [Needs(c, {"word": str | None, "effect": dict | None, "name": str | None}, ("spell_deck", i))
                  for i, c in enumerate(self.spell_deck)]
        return nature + spells

    def each(self, players: int) -> int | None:
        return self.nature_cards if isinstance(self.nature_cards, int) else self.nature_cards.get(players)

    def problems(self, game: Game) -> list[tuple[tuple[str | int, ...] | Location, str]]:
        found: list[tuple[tuple[str | int, ...] | Location, str]] = []
        nature = sum(card.count for c in self.nature_deck for card in game.component(c).cards)
        for players in range(game.spec.players.min, game.spec.players.max + 1):
            each = self.each(players)
            if each is None:
                found.append((("nature_cards",), f"nature_cards gives no count for {players} players "
                                                 f"(game.yaml players: {game.spec.players.min}-{game.spec.players.max})"))
            elif self.cover_to_win != "all" and self.cover_to_win > each:
                found.append((("cover_to_win",), f"cover_to_win {self.cover_to_win} is more than the {each} Nature "
                                                 f"cards dealt to each of {players} players"))
            elif players * each + self.spares > nature:
                found.append((("nature_cards",), f"{players} players x {each} Nature cards + {self.spares} spares "
                                                 f"need more than the {nature} Nature cards"))
        for c in self.spell_deck:
            for card in game.component(c).cards:
                if "effect" not in card.fields and "word" not in card.fields:
                    found.append((("spell_deck",), f"card '{card.id}' of '{c}' has neither a word nor an effect"))
        return found
