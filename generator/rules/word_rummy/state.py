"""Word Rummy's state: rounds of draw and discard until a player goes out with a hand of words.

A round, as the state runs it (each step one chance event or one decision):

1. DEAL: `hand_size(round)` cards to each seat, one at a time from the starter on (a chance
   event over the cards left, weighted by their counts), then one card face up: the discard pile.
2. DRAW: the seat to play takes the deck's top card (then a chance event names it) or, when
   `draw_from_discard`, the discard pile's top card. When the deck is empty the discards
   but the top one are shuffled into a new deck once a round (`empty_deck: reshuffle`);
   after that, or with `empty_deck: end-round`, the round ends.
3. DISCARD: the seat discards a card: not the card (nor another of its letter) just taken from
   the discard pile, unless `discard_taken_card` or the hand holds nothing else; a turn that
   puts back what it took changes nothing, and two players doing it forever stall the round. If
   the cards left in its hand all form words, it may go out: every other seat then takes one last turn and the round ends.
4. Scoring: every hand is split into its best words (`Content.best`); it scores the points of
   the cards in words less `unplayed_penalty` times the points of the others, plus the
   bonuses. The next round deals one seat on, with `hand_growth` more cards. The game ends
   after `rounds` rounds, or after a round in which somebody reached `target_score`.
"""

from __future__ import annotations

import copy
from collections import Counter
from enum import IntEnum
from typing import NamedTuple

from spellpress.rules.chance import draw_counted
from spellpress.rules.observation import CardRef, Observation, Zone, hand_zone, to_move
from spellpress.rules.protocol import CHANCE, TERMINAL, IllegalAction, InvariantError, Outcome, State, redeal
from spellpress.rules.word_rummy.content import Content, Hand, Split, hand_without


class Phase(IntEnum):
    DEAL = 0  # chance: the deal, one card at a time
    FLIP = 1  # chance: the first card of the discard pile
    DRAW = 2  # a seat draws from the deck or the discard pile
    DRAWN = 3  # chance: the card drawn from the deck
    DISCARD = 4  # the seat discards (and may go out)
    OVER = 5


DEAL, FLIP, DRAW, DRAWN, DISCARD, OVER = Phase


class Draw(NamedTuple):
    """("draw", "deck" | "discard"): equal to the plain tuple, as every action may be given as one."""

    verb: str
    pile: str


class Discard(NamedTuple):
    """("discard", card kind, go out?)"""

    verb: str
    card: str
    go_out: bool


FROM_DECK = Draw("draw", "deck")
FROM_DISCARD = Draw("draw", "discard")


class RummyState(State):
    def __init__(self, content: Content, players: int):
        self.content = content
        self.settings = content.settings
        self.players = players
        self.turns = 0
        self.round = 0
        self.scores = [0] * players
        self.round_scores: list[list[int]] = []
        self.played: dict[str, set[int]] = {}
        self.figures: Counter[str] = Counter()
        self._new_round()

    # -- the round's set-up ---------------------------------------------------
    def _new_round(self) -> None:
        self.deck = Counter(self.content.counts)
        self.deck_size = self.content.total
        self.discard: list[str] = []
        self.hands: list[list[str]] = [[] for _ in range(self.players)]
        self.hand_size = self.settings.hand_size(self.round)
        self.starter = self._next_starter()
        self.seat = self.starter
        self.to_deal = self.hand_size * self.players
        self.dealt = 0
        self.phase = DEAL
        self.went_out: int | None = None
        self.last_turns = 0
        self.reshuffled = False
        self.taken: str | None = None  # the card taken from the discard pile this turn

    def _next_starter(self) -> int:
        """Seat 1 starts; then the next seat, or with `next_starter: trailing` the seat with fewest
        points (a tie: the first of them clockwise after the last starter)."""
        if self.round == 0:
            return 0
        after = (self.starter + 1) % self.players
        if self.settings.next_starter == "clockwise":
            return after
        order = [(after + i) % self.players for i in range(self.players)]
        return min(order, key=lambda seat: self.scores[seat])

    def hand(self, seat: int) -> Hand:
        return tuple(sorted(self.hands[seat]))

    # -- the protocol -----------------------------------------------------------
    def current_player(self) -> int:
        if self.phase in (DEAL, FLIP, DRAWN):
            return CHANCE
        if self.phase == OVER:
            return TERMINAL
        return self.seat

    def chance_outcomes(self):
        total = self.deck_size
        return [(("card", kind), n / total) for kind, n in sorted(self.deck.items()) if n]

    def sample_chance(self, rng):
        """chance_outcomes()'s draw (State.sample_chance), from the deck's whole counts: no list of fractions."""
        deck, content = self.deck, self.content
        return draw_counted(content.draws, [deck[kind] for kind in content.kinds], self.deck_size, rng)

    def legal_actions(self):
        if self.phase == DRAW:
            draws: list[Draw] = []
            if self.deck_size or self._can_reshuffle():
                draws.append(FROM_DECK)
            if self.settings.draw_from_discard and self.discard:
                draws.append(FROM_DISCARD)
            return draws
        if self.phase == DISCARD:
            hand = self.hand(self.seat)
            actions: list[Discard] = []
            for kind in self.discardable(hand):
                actions.append(Discard("discard", kind, False))
                if self.went_out is None and self.content.goes_out_without(hand, kind):
                    actions.append(Discard("discard", kind, True))
            return actions
        return []

    def discardable(self, hand: Hand) -> list[str]:
        kinds = sorted(set(hand))
        if self.taken is None or self.settings.discard_taken_card or kinds == [self.taken]:
            return kinds
        return [kind for kind in kinds if kind != self.taken]

    def can_go_out(self, rest: Hand) -> bool:
        return self.content.best(rest).uses_every_card

    def apply(self, action) -> None:
        if self.phase in (DEAL, FLIP, DRAWN):
            self._chance(action)
        elif self.phase == DRAW:
            if action not in self.legal_actions():
                raise IllegalAction(f"seat {self.seat} cannot {action!r} now")
            if action == FROM_DISCARD:
                self.taken = self.discard.pop()
                self.hands[self.seat].append(self.taken)
                self.figures["discard_draws"] += 1
                self.phase = DISCARD
            else:
                if not self.deck_size:
                    self._reshuffle()
                self.phase = DRAWN
        elif self.phase == DISCARD:
            self._discard(action)
        else:
            raise IllegalAction(f"the game is over: {action!r}")

    def _chance(self, action) -> None:
        kind = action[1] if isinstance(action, tuple) and len(action) == 2 and action[0] == "card" else None
        if kind is None or not self.deck.get(kind):
            raise IllegalAction(f"no {action!r} in the deck")
        self.deck[kind] -= 1
        self.deck_size -= 1
        if self.phase == DEAL:
            self.hands[(self.starter + self.dealt) % self.players].append(kind)
            self.dealt += 1
            self.to_deal -= 1
            if not self.to_deal:
                self.phase = FLIP
        elif self.phase == FLIP:
            self.discard.append(kind)
            self._start_turn()
        else:
            self.hands[self.seat].append(kind)
            self.phase = DISCARD

    def _discard(self, action) -> None:
        if not (isinstance(action, tuple) and len(action) == 3 and action[0] == "discard"):
            raise IllegalAction(f"seat {self.seat} must discard, not {action!r}")
        _, kind, out = action
        hand = self.hand(self.seat)
        if kind not in hand:
            raise IllegalAction(f"seat {self.seat} holds no {kind!r}")
        if kind not in self.discardable(hand):
            raise IllegalAction(f"seat {self.seat} took {kind!r} from the discard pile and cannot put it back")
        if out and (self.went_out is not None or not self.content.goes_out_without(hand, kind)):
            raise IllegalAction(f"seat {self.seat} cannot go out without {kind!r}")
        self.hands[self.seat].remove(kind)
        self.discard.append(kind)
        self.taken = None
        self.turns += 1
        if out:
            self.went_out = self.seat
            self.last_turns = self.players - 1
            self.figures["go_outs"] += 1
        elif self.went_out is not None:
            self.last_turns -= 1
        if self.went_out is not None and self.last_turns == 0:
            self._score_round()
            return
        self.seat = (self.seat + 1) % self.players
        self._start_turn()

    def _start_turn(self) -> None:
        if not self.deck_size and not self._can_reshuffle():
            self.figures["rounds_ended_by_the_deck"] += 1
            self._score_round()
            return
        self.phase = DRAW

    def _can_reshuffle(self) -> bool:
        return self.settings.empty_deck == "reshuffle" and not self.reshuffled and len(self.discard) > 1

    def _reshuffle(self) -> None:
        top = self.discard.pop()
        self.deck.update(self.discard)
        self.deck_size += len(self.discard)
        self.discard = [top]
        self.reshuffled = True
        self.figures["reshuffles"] += 1

    # -- scoring ----------------------------------------------------------------
    def splits(self) -> list[Split]:
        return [self.content.best(self.hand(seat)) for seat in range(self.players)]

    def round_points(self, splits: list[Split]) -> list[int]:
        settings = self.settings
        points = [split.score for split in splits]
        for seat, split in enumerate(splits):
            if split.uses_every_card:
                points[seat] += settings.all_cards_bonus
        if self.went_out is not None:
            points[self.went_out] += settings.go_out_bonus
        for measure, bonus in ((lambda sp: sp.longest, settings.longest_word_bonus),
                               (lambda sp: len(sp.words), settings.most_words_bonus)):
            values = [measure(split) for split in splits]
            best = max(values)
            if best > 0 and values.count(best) == 1:
                points[values.index(best)] += bonus
        return points

    def _score_round(self) -> None:
        splits = self.splits()
        points = self.round_points(splits)
        self.round_scores.append(points)
        for seat in range(self.players):
            self.scores[seat] += points[seat]
            for _, cards in splits[seat].words:
                for kind in cards:
                    self.played.setdefault(f"{self.content.component}:{kind.upper()}", set()).add(seat)
        self.figures["words"] += sum(len(split.words) for split in splits)
        self.figures["word_letters"] += sum(len(w) for split in splits for w, _ in split.words)
        self.figures["unplayed_cards"] += sum(len(split.unplayed) for split in splits)
        self.figures["rounds"] += 1
        self.round += 1
        done_rounds = self.settings.rounds is not None and self.round >= self.settings.rounds
        reached = self.settings.target_score is not None and max(self.scores) >= self.settings.target_score
        if done_rounds or reached:
            self.phase = OVER
        else:
            self._new_round()

    # -- for the search player (generator/simulate/ismcts.py) ----------------------
    def clone(self) -> RummyState:
        """A copy to play on; the content (deck, points, words) is shared."""
        new = copy.copy(self)
        new.scores = list(self.scores)
        new.round_scores = [list(points) for points in self.round_scores]
        new.played = {key: set(seats) for key, seats in self.played.items()}
        new.figures = Counter(self.figures)
        new.deck = Counter(self.deck)
        new.discard = list(self.discard)
        new.hands = [list(hand) for hand in self.hands]
        return new

    def determinize(self, seat: int, rng) -> RummyState:
        """A copy in which the other hands are re-dealt from them and the deck: `seat` sees only its own
        hand, and the hand of a player who went out (laid down as words)."""
        new = self.clone()
        others = [o for o in range(self.players) if o not in (seat, self.went_out)]
        hands, rest = redeal(rng, list(new.deck.elements()) + [card for o in others for card in new.hands[o]],
                             [len(new.hands[o]) for o in others])
        for o, hand in zip(others, hands, strict=False):
            new.hands[o] = hand
        new.deck = Counter(rest)
        return new

    def returns(self) -> list[float]:
        return [float(score) for score in self.scores]

    def outcome(self, stalled: bool = False) -> Outcome:
        result = super().outcome(stalled)
        result.played = {key: set(seats) for key, seats in self.played.items()}
        result.figures = {name: float(value) for name, value in self.figures.items()}
        return result

    # -- invariants: a few sums, so --check stays cheap --------------------------
    def check_invariants(self) -> None:
        held = sum(len(hand) for hand in self.hands) + len(self.discard)
        if self.deck_size != sum(self.deck.values()) or self.deck_size + held != self.content.total:
            raise InvariantError(f"{self.deck_size} in the deck and {held} out, of {self.content.total} cards")
        if any(n < 0 for n in self.deck.values()):
            raise InvariantError("a negative count in the deck")
        out = Counter(self.discard)
        for hand in self.hands:
            out.update(hand)
        for kind, n in out.items():
            if n + self.deck[kind] != self.content.counts.get(kind, 0):
                raise InvariantError(f"{n + self.deck[kind]} {kind!r} cards, but the deck has {self.content.counts.get(kind, 0)}")
        if self.phase in (DRAW, DRAWN, DISCARD):
            for seat, hand in enumerate(self.hands):
                want = self.hand_size + (1 if seat == self.seat and self.phase == DISCARD else 0)
                if len(hand) != want:
                    raise InvariantError(f"seat {seat} holds {len(hand)} cards, not {want}")
        if self.went_out is not None and not self.content.best(self.hand(self.went_out)).uses_every_card:
            raise InvariantError(f"seat {self.went_out} went out with a hand that is not all words")
        if [sum(column) for column in zip(*self.round_scores, strict=False)] != (self.scores if self.round_scores else []):
            raise InvariantError(f"scores {self.scores} are not the sum of the rounds {self.round_scores}")

    # -- what a seat sees (spellpress play) -------------------------------------------
    def card(self, kind: str) -> CardRef:
        return CardRef(self.content.component, self.content.card_ids[kind])

    def observation(self, seat: int) -> Observation:
        back = self.content.component
        zones = [Zone("deck", "deck", "pile", None, (), self.deck_size, back),
                 Zone("discard", "discard pile", "pile", None, tuple(self.card(k) for k in self.discard))]
        zones += [hand_zone(other, seat, [self.card(k) for k in self.hand(other)], back) for other in range(self.players)]
        rounds = f"round {self.round + 1}" + (f" of {self.settings.rounds}" if self.settings.rounds else "")
        facts = [rounds, f"hands of {self.hand_size} cards"] if self.phase != OVER else [f"game over after {self.round} rounds"]
        if self.went_out is not None:
            facts.append(f"seat {self.went_out + 1} went out: last turns")
        if self.taken is not None and self.phase == DISCARD:
            facts.append(f"seat {self.seat + 1} took {self.taken.upper()} from the discard pile")
        phase = self.phase.name.lower()
        return Observation(seat, to_move(self.current_player()), phase, tuple(self.returns()), tuple(zones), tuple(facts))

    def action_to_string(self, action) -> str:
        if action == FROM_DECK:
            return "draw from the deck"
        if action == FROM_DISCARD:
            return f"take {self.discard[-1].upper()} from the discard pile" if self.discard else "take the discard"
        if isinstance(action, tuple) and action[0] == "discard":
            return f"discard {action[1].upper()}" + (" and go out" if action[2] else "")
        return super().action_to_string(action)

    def round_number(self) -> int | None:
        return self.round + 1

    def takes_word(self) -> bool:
        return self.phase == DISCARD and self.went_out is None

    def action_word(self, action, typed: str | None = None) -> str | None:
        """Going out plays the words of the hand left: the words typed (space between them) when they
        use exactly those cards, else the best split's."""
        if not (isinstance(action, tuple) and action[0] == "discard" and action[2]):
            return None
        rest = hand_without(self.hand(self.seat), action[1])
        if typed is not None and self._spelled_by(rest, typed.split()):
            return typed
        return " ".join(word for word, _ in self.content.best(rest).words)

    def _spelled_by(self, rest: Hand, words: list[str]) -> bool:
        """Do these words use exactly the cards `rest` (a wild for any one letter)?"""
        if not words:
            return not rest
        content = self.content
        if sum(map(len, words)) != sum(1 if k == content.wild else len(k) for k in rest):
            return False
        letters = [k for k in rest if k != content.wild]
        for match in content.finder.find(letters, wilds=rest.count(content.wild), min_length=content.min_length):
            if match.word == words[0]:
                left = list(rest)
                for k in match.cards + (content.wild,) * len(match.wilds):
                    left.remove(k)
                if self._spelled_by(tuple(left), words[1:]):
                    return True
        return False

    def score_items(self, before: State, action) -> list[tuple[int, float, str]] | None:
        """A round's points by word, cards left and bonus, from the hands it was scored with."""
        assert isinstance(before, RummyState)
        if len(self.round_scores) == len(before.round_scores):
            return []
        hands = [list(hand) for hand in before.hands]
        went_out = before.went_out
        if isinstance(action, tuple) and action[0] == "discard":  # the discard that ended the round
            hands[before.seat].remove(action[1])
            went_out = before.seat if action[2] else went_out
        splits = [self.content.best(tuple(sorted(hand))) for hand in hands]
        settings, content, items = self.settings, self.content, []
        for seat, split in enumerate(splits):
            items += [(seat, float(sum(content.points[k] for k in cards)), word.upper()) for word, cards in split.words]
            if split.unplayed and settings.unplayed_penalty:
                left = settings.unplayed_penalty * sum(content.points[k] for k in split.unplayed)
                items.append((seat, float(-left), "cards left: " + " ".join(k.upper() for k in split.unplayed)))
            if split.uses_every_card and settings.all_cards_bonus:
                items.append((seat, float(settings.all_cards_bonus), "every card in words"))
        if went_out is not None:
            items.append((went_out, float(settings.go_out_bonus), "went out"))
        for measure, bonus, why in ((lambda sp: sp.longest, settings.longest_word_bonus, "longest word"),
                                    (lambda sp: len(sp.words), settings.most_words_bonus, "most words")):
            values = [measure(split) for split in splits]
            if max(values) > 0 and values.count(max(values)) == 1 and bonus:
                items.append((values.index(max(values)), float(bonus), why))
        for seat, points in enumerate(self.round_scores[-1]):  # what the itemizing missed, said plainly
            missed = points - sum(p for who, p, _ in items if who == seat)
            if missed:
                items.append((seat, float(missed), "other points"))
        return items

    def action_cards(self, action) -> tuple[CardRef, ...]:
        if isinstance(action, tuple) and action[0] == "discard":
            return (self.card(action[1]),)
        if action == FROM_DISCARD and self.discard:
            return (self.card(self.discard[-1]),)
        return ()

