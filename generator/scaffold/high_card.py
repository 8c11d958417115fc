"""High Card: a rules engine in a game folder (docs/rules.md).

Each player is dealt `hand` cards (fewer if the deck is short) and plays one a round; the
highest card scores its points. Change it into your game's rules, keeping card data in the YAML.
"""

from pydantic import Field

from spellpress.rules import (
    CHANCE,
    TERMINAL,
    CardRef,
    IllegalAction,
    InvariantError,
    Observation,
    Player,
    Rules,
    State,
    Zone,
    redeal,
)
from spellpress.rules.settings import EngineSettings, Needs, settings_for


class HighCardSettings(EngineSettings):
    hand: int = Field(default=3, ge=1)  # cards dealt to each player
    deck: str = "cards"                 # the component the cards come from
    points: str = "points"              # the card field that holds a card's points

    def needs(self):
        return [Needs(self.deck, {self.points: int}, ("deck",))]


class HighCardState(State):
    def __init__(self, values, printed, players, hand):
        self.players, self.turns = players, 0
        self.values = values                      # card number -> its value
        self.printed = printed                    # card number -> the CardRef it was printed as
        self.deck = list(range(len(values)))      # card numbers still in the deck
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.scores = [0] * players
        self.table = []                           # (seat, card) played this round
        self.to_deal = min(hand, len(values) // players) * players  # a short deck deals fewer
        self.seat = 0

    def current_player(self):
        if self.to_deal:
            return CHANCE
        if not any(self.hands) and not self.table:
            return TERMINAL
        return self.seat

    def chance_outcomes(self):
        return [(("deal", card), 1 / len(self.deck)) for card in self.deck]

    def legal_actions(self):
        return [("play", card) for card in sorted(self.hands[self.seat])]

    def apply(self, action):
        kind, card = action
        if kind == "deal":
            self.deck.remove(card)
            self.hands[self.to_deal % self.players].append(card)
            self.to_deal -= 1
            return
        if action not in self.legal_actions():
            raise IllegalAction(f"seat {self.seat} cannot play {action!r}")
        self.hands[self.seat].remove(card)
        self.table.append((self.seat, card))
        self.seat = (self.seat + 1) % self.players
        if len(self.table) == self.players:       # the round is over: the highest card scores
            seat, best = max(self.table, key=lambda played: (self.values[played[1]], -played[0]))
            self.scores[seat] += self.values[best]
            self.table = []
            self.turns += 1

    def returns(self):
        return list(self.scores)

    def determinize(self, seat, rng):
        """A copy in which the cards `seat` cannot see (other hands, the deck) are re-dealt at random."""
        copy = self.clone()
        others = [o for o in range(self.players) if o != seat]
        hidden = list(copy.deck) + [card for o in others for card in copy.hands[o]]
        hands, copy.deck = redeal(rng, hidden, [len(copy.hands[o]) for o in others])
        for o, hand in zip(others, hands, strict=True):
            copy.hands[o] = hand
        return copy
    # what one seat sees, for `spellpress play`: never another seat's hand, nor the deck
    def observation(self, seat):
        cards = lambda numbers: tuple(self.printed[c] for c in numbers)  # noqa: E731
        back = self.printed[0].component
        zones = [Zone("deck", "deck", "pile", None, (), len(self.deck), back),
                 Zone("table", "played this round", "row", None, cards(card for _, card in self.table))]
        for other in range(self.players):
            if other == seat:
                zones.append(Zone(f"hand:{other}", "your hand", "hand", other, cards(sorted(self.hands[other]))))
            else:
                zones.append(Zone(f"hand:{other}", f"seat {other + 1}'s hand", "hand", other, (), len(self.hands[other]), back))
        player = self.current_player()
        return Observation(seat, player if player >= 0 else None, "play", tuple(self.scores), tuple(zones))

    def action_to_string(self, action):
        return f"play {self.printed[action[1]].card}"

    def action_cards(self, action):
        return (self.printed[action[1]],)

    def check_invariants(self):
        held = sum(len(h) for h in self.hands) + len(self.deck) + len(self.table)
        if held + self.turns * self.players != len(self.values):
            raise InvariantError("a card was lost or duplicated")


class HighestFirst(Player):
    name = "highest-first"

    def __init__(self, skill):
        self.skill = skill

    def act(self, state, seat, rng):
        actions = state.legal_actions()
        if rng.random() > self.skill:
            return rng.choice(actions)
        return max(actions, key=lambda action: state.values[action[1]])


class HighCard(Rules):
    id = "high-card"
    length_unit = "rounds"
    seconds_per_turn = 10.0
    settings = HighCardSettings

    def new_state(self, game, players, options=None):
        settings = settings_for(game, HighCardSettings, self.id, options)
        cards = [card for card in game.component(settings.deck).cards for _ in range(card.count)]
        values = [int(card[settings.points]) for card in cards]
        printed = [CardRef(settings.deck, card.id) for card in cards]
        return HighCardState(values, printed, players, settings.hand)

    def heuristic_player(self, skill=1.0):
        return HighestFirst(skill)


RULES = HighCard()
