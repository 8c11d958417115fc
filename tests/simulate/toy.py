"""A toy rules engine for testing the framework: draw a card (chance), keep or discard it."""

from __future__ import annotations

from spellpress.rules.protocol import CHANCE, TERMINAL, IllegalAction, InvariantError, Player, Rules, State


class ToyState(State):
    def __init__(self, game, players: int):
        cards = game.component("numbers").cards
        self.value = {card.id: card["value"] for card in cards}
        self.deck = [card.id for card in cards for _ in range(card.count)]
        self.total_cards = len(self.deck)
        self.kept = [[] for _ in range(players)]
        self.discard: list[str] = []
        self.players = players
        self.turns = 0
        self.turns_each = game.spec.rules["turns_each"]
        self.drawn: str | None = None
        self.seat = 0

    def current_player(self) -> int:
        if self.turns >= self.turns_each * self.players or (self.drawn is None and not self.deck):
            return TERMINAL
        return CHANCE if self.drawn is None else self.seat

    def chance_outcomes(self):
        counts = {}
        for card in self.deck:
            counts[card] = counts.get(card, 0) + 1
        return [(card, n / len(self.deck)) for card, n in sorted(counts.items())]

    def legal_actions(self):
        return ["keep", "discard"] if self.drawn is not None else []

    def apply(self, action) -> None:
        if self.current_player() == CHANCE:
            if not hasattr(self, "first_card"):
                self.first_card = action
            self.deck.remove(action)
            self.drawn = action
            return
        if action not in ("keep", "discard"):
            raise IllegalAction(action)
        (self.kept[self.seat] if action == "keep" else self.discard).append(self.drawn)
        self.drawn = None
        self.seat = (self.seat + 1) % self.players
        self.turns += 1

    def returns(self):
        return [float(sum(self.value[c] for c in kept)) for kept in self.kept]

    def determinize(self, seat, rng):
        """Nothing is hidden: the drawn card is shown to all and the deck is drawn by chance."""
        return self.clone()

    def check_invariants(self) -> None:
        held = len(self.deck) + len(self.discard) + sum(map(len, self.kept)) + (self.drawn is not None)
        if held != self.total_cards:
            raise InvariantError(f"{held} cards in play, expected {self.total_cards}")

    def outcome(self, stalled: bool = False):
        result = super().outcome(stalled)
        for seat, kept in enumerate(self.kept):
            for card in kept:
                result.played.setdefault(f"card:{card}", set()).add(seat)
        result.figures["kept"] = sum(map(len, self.kept))
        result.figures["first_card"] = int(self.first_card.rsplit("-", 1)[1])
        return result


class KeepHigh(Player):
    """Keeps cards worth at least its threshold; skill raises the threshold from 0."""

    name = "keep-high"

    def __init__(self, skill: float):
        self.threshold = 2 * skill

    def act(self, state, seat, rng):
        return "keep" if state.value[state.drawn] >= self.threshold else "discard"


class ToyRules(Rules):
    id = "toy"
    turn_cap = 100

    def new_state(self, game, players, options=None):
        return ToyState(game, players)

    def heuristic_player(self, skill: float = 1.0) -> Player:
        return KeepHigh(skill)


RULES = ToyRules()
