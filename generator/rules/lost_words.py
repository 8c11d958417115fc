"""The Lost Words card game: cover every Nature card in front of you with its Spell.

Everything about the cards comes from cards/lost-words/: the Nature words, the
Spell cards and their counts, and the Special cards, whose powers are data
(`effect: {kind: ..., ...}`) read by the small effect vocabulary below. The
rule numbers (Nature cards per player, spares, hand size, draws and actions a
turn, which components make which deck) come from game.yaml `rules:`; run
options override them for what-if runs. See cards/lost-words/README.md for the
choices made where the rulebook is silent or garbled.

A game, as the state runs it (each step is one chance event or one decision):

1. SETUP: the Nature cards are dealt one at a time, round the table, then the
   spares; the rest go back to the box. Three Spell/Special cards each, one at
   a time, then one face up to start the discard pile. Every card dealt is a
   chance event over the cards left in its deck (weighted by their copies).
2. DRAW: the seat to play takes the top of the deck (a chance event) or the top
   of the discard pile, which must be a Spell.
3. ACTION: one action (more with extra-actions): place a Spell on its Nature
   card, play a Special, exchange an uncovered Nature card with a spare, or
   pass (which ends the action phase). A knock-off whose victim holds the other
   copy gives the victim a decision (REPLY) before play goes on.
4. DISCARD / refill: down to the hand size by the player's choice, or up to it
   from the deck; then the Specials played this turn go on the discard pile,
   the last played on top. The next seat plays (seats that must miss a turn
   are skipped).

The deck: when it runs out, the discard pile becomes the deck (draws from it
are random, so it is shuffled) and its first card is turned up at once as the
new discard pile. When the discard pile is emptied by a draw, the top card of
the deck is turned up. The first player to cover all their Nature cards wins.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from pydantic import NonNegativeInt, PositiveInt

from generator.errors import UserError
from generator.model.deck import Game
from generator.rules.settings import OPTION, EngineSettings, Needs, settings_for
from generator.rules.protocol import CHANCE, TERMINAL, IllegalAction, InvariantError, Outcome, Player, Rules, State

SETUP, DRAW, ACTION, REPLY, DISCARD, OVER = range(6)
PHASE_NAMES = ("setup", "draw", "action", "reply", "discard", "over")

NATURE, SPELL, SPECIAL = "nature", "spell", "special"
NATURE_PILE, SPELL_PILE = "nature", "spell"  # chance sources
TO_ROW, TO_SPARE, TO_HAND, TO_DISCARD = "row", "spare", "hand", "discard"  # chance destinations
NONE = -1  # an empty cover or wall slot

PASS = ("pass",)
DRAW_DECK = ("draw", "deck")
DRAW_DISCARD = ("draw", "discard")
REPLACE = ("replace",)
DECLINE = ("decline",)

# The effect vocabulary: kind -> its parameters and their defaults. Every effect
# may also say `costs_action` (default true) and `stays` (default false).
EFFECTS: dict[str, dict[str, Any]] = {
    "draw": {"cards": 1},                                   # draw extra cards from the deck
    "extra-actions": {"actions": 1},                        # more actions this turn
    "ask-everyone": {"miss_turns": 1},                      # name a Spell; nobody has it: miss turns
    "knock-off": {"victim_may_replace": True, "replace_draw": 1},  # another player's Spell to the discard
    "swap-pair": {},                                        # take a completed pair, give an uncovered card
    "protect": {},                                          # guard one of your completed pairs
    "wild-spell": {"protects": True},                       # cover any of your Nature cards
}
COMMON_KEYS = {"kind": None, "costs_action": True, "stays": False}
RULE_DEFAULTS = {"spares": 2, "hand": 3, "draws": 1, "actions": 1}

# The time model (seconds), for the minutes figure: see README.md.
TIME_MODEL = {
    "setup": 120.0,        # sort the two decks, shuffle, deal the rows, the spares and the hands
    "turn": 15.0,          # draw, look, act, tidy the hand
    "special": 8.0,        # read out a Special, choose its target
    "ask_per_player": 4.0,  # the Heron asks round the table
    "reply": 6.0,          # a knocked-off player decides and re-covers
    "exchange": 4.0,       # swap a Nature card with a spare
    "extra_discard": 3.0,  # each card discarded beyond the first
    "reshuffle": 30.0,     # gather and shuffle the discard pile
}


class LostWordsError(ValueError):
    pass


# --------------------------------------------------------------------------- definitions


@dataclass(frozen=True)
class Effect:
    kind: str
    params: Mapping[str, Any]
    costs_action: bool
    stays: bool

    def __getitem__(self, key: str) -> Any:
        return self.params[key]


@dataclass
class Defs:
    """The cards of one game, as plain lists indexed by a physical card number."""

    kind: list[str] = field(default_factory=list)          # card -> nature / spell / special
    word: list[str | None] = field(default_factory=list)   # nature and spell cards: their word
    special: list[str | None] = field(default_factory=list)  # special cards: their key (YAML id)
    type_key: list[str] = field(default_factory=list)      # "nature:fern", "spell:fern", "special:the-acorn"
    nature_ids: list[int] = field(default_factory=list)
    spell_ids: list[int] = field(default_factory=list)     # the Spell/Special deck
    effects: dict[str, Effect] = field(default_factory=dict)  # special key -> effect
    names: dict[str, str] = field(default_factory=dict)    # special key -> printed name
    copies: dict[str, int] = field(default_factory=dict)   # spell word -> copies in the deck
    spell_words: list[str] = field(default_factory=list)   # words with Spell cards, in YAML order
    params: dict[str, Any] = field(default_factory=dict)
    nature_each: dict[int, int] = field(default_factory=dict)

    @property
    def cards(self) -> int:
        return len(self.kind)


_DEFS_CACHE: dict[tuple, Defs] = {}


def _effect(card) -> Effect:
    raw = card.fields.get("effect")
    where = f"{card.location}: card '{card.id}'"
    if not isinstance(raw, Mapping) or "kind" not in raw:
        raise UserError.at(card.location, f"card '{card.id}' needs an effect mapping with a kind")
    kind = raw["kind"]
    if kind not in EFFECTS:
        raise UserError.at(card.location, f"{where}: unknown effect kind {kind!r} (known: {', '.join(EFFECTS)})")
    allowed = {**COMMON_KEYS, **EFFECTS[kind]}
    unknown = [key for key in raw if key not in allowed]
    if unknown:
        raise UserError.at(card.location, f"{where}: effect {kind!r} has no parameter {', '.join(map(repr, unknown))} "
                                          f"(parameters: {', '.join(k for k in allowed if k != 'kind')})")
    params = {key: raw.get(key, default) for key, default in EFFECTS[kind].items()}
    return Effect(kind, params, bool(raw.get("costs_action", True)), bool(raw.get("stays", False)))


class LostWordsSettings(EngineSettings):
    """game.yaml `rules:` for the lost-words engine (defaults: the rulebook's numbers)."""

    nature_cards: dict[int, PositiveInt] | PositiveInt = {2: 6, 3: 5, 4: 4}  # per player count, or one number
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

    def problems(self, game: Game) -> list[tuple[tuple[str | int, ...], str]]:
        found = []
        nature = sum(card.count for c in self.nature_deck for card in game.component(c).cards)
        for players in range(game.spec.players.min, game.spec.players.max + 1):
            each = self.each(players)
            if each is None:
                found.append((("nature_cards",), f"nature_cards gives no count for {players} players "
                                                 f"(game.yaml players: {game.spec.players.min}-{game.spec.players.max})"))
            elif players * each + self.spares > nature:
                found.append((("nature_cards",), f"{players} players x {each} Nature cards + {self.spares} spares "
                                                 f"need more than the {nature} Nature cards"))
        for c in self.spell_deck:
            for card in game.component(c).cards:
                if "effect" not in card.fields and "word" not in card.fields:
                    found.append((("spell_deck",), f"card '{card.id}' of '{c}' has neither a word nor an effect"))
        return found


def definitions(game: Game, options: Mapping[str, Any] | None = None) -> Defs:
    """The game's cards and rule numbers (options override game.yaml `rules:`)."""
    options = dict(options or {})
    key = (id(game), tuple(sorted((k, str(v)) for k, v in options.items())))
    if key in _DEFS_CACHE:
        return _DEFS_CACHE[key]
    unknown = [name for name in options if name not in LostWordsSettings.model_fields]
    if unknown:
        raise UserError.at(OPTION, f"unknown option {unknown[0]!r} "
                                   f"(options: {', '.join([*RULE_DEFAULTS, 'nature_cards'])})")
    settings = settings_for(game, LostWordsSettings, LostWordsRules.id, options)
    params = {name: getattr(settings, name) for name in RULE_DEFAULTS}
    nature_each = (dict(settings.nature_cards) if isinstance(settings.nature_cards, dict)
                   else {players: settings.nature_cards for players in range(1, 11)})
    defs = Defs(params=params, nature_each=nature_each)
    for component_id in settings.nature_deck:
        for card in game.component(component_id).cards:
            for _ in range(card.count):
                number = len(defs.kind)
                defs.kind.append(NATURE)
                defs.word.append(str(card["word"]))
                defs.special.append(None)
                defs.type_key.append(f"nature:{card['word']}")
                defs.nature_ids.append(number)
    for component_id in settings.spell_deck:
        for card in game.component(component_id).cards:
            if "effect" in card.fields:
                effect = _effect(card)
                defs.effects[card.id] = effect
                defs.names[card.id] = str(card.get("name", card.id))
            for _ in range(card.count):
                number = len(defs.kind)
                if "effect" in card.fields:
                    defs.kind.append(SPECIAL)
                    defs.word.append(None)
                    defs.special.append(card.id)
                    defs.type_key.append(f"special:{card.id}")
                else:
                    word = str(card["word"])
                    defs.kind.append(SPELL)
                    defs.word.append(word)
                    defs.special.append(None)
                    defs.type_key.append(f"spell:{word}")
                    if word not in defs.copies:
                        defs.spell_words.append(word)
                    defs.copies[word] = defs.copies.get(word, 0) + 1
                defs.spell_ids.append(number)
    _DEFS_CACHE[key] = defs
    return defs


# --------------------------------------------------------------------------- state


class LostWordsState(State):
    """One position. Rows hold slots [nature card, cover card or NONE, wall card or NONE]."""

    def __init__(self, defs: Defs, players: int):
        each = defs.nature_each.get(players)
        if each is None:
            raise LostWordsError(f"game.yaml rules: nature_cards gives no count for {players} players")
        if players * each + defs.params["spares"] > len(defs.nature_ids):
            raise LostWordsError(f"{players} players x {each} Nature cards + spares need more than {len(defs.nature_ids)} cards")
        self.defs = defs
        self.players = players
        self.each = each
        self.turns = 0
        self.nature_deck: list[int] = list(defs.nature_ids)
        self.box: list[int] = []
        self.spares: list[int] = []
        self.rows: list[list[list[int]]] = [[] for _ in range(players)]
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.deck: list[int] = list(defs.spell_ids)
        self.discard: list[int] = []
        self.played: list[int] = []  # Specials played this turn, discarded at its end
        self.owed: list[tuple[str, str, int]] = []  # pending chance draws: (pile, destination, seat)
        self.phase = SETUP
        self.seat = 0
        self.actions_left = 0
        self.miss = [0] * players
        self.winner = -1
        self.reply: tuple[int, int] | None = None  # (victim seat, slot index) of a pending knock-off reply
        self._reply_draw = 0
        self._extra = 0  # cards over the hand size when the action phase ended
        # statistics for the balance report
        self.used: dict[str, set[int]] = {}
        self.figures: Counter = Counter()
        for _ in range(each):
            for seat in range(players):
                self.owed.append((NATURE_PILE, TO_ROW, seat))
        for _ in range(defs.params["spares"]):
            self.owed.append((NATURE_PILE, TO_SPARE, -1))
        for _ in range(defs.params["hand"]):
            for seat in range(players):
                self.owed.append((SPELL_PILE, TO_HAND, seat))
        self.owed.append((SPELL_PILE, TO_DISCARD, -1))

    # ----------------------------------------------------------------- protocol

    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.owed:
            return CHANCE
        if self.phase == REPLY:
            assert self.reply is not None
            return self.reply[0]
        return self.seat

    def chance_outcomes(self) -> Sequence[tuple[Any, float]]:
        pile = self._pile(self.owed[0][0])
        counts = Counter(self.defs.type_key[card] for card in pile)
        total = len(pile)
        return [(("deal", key), count / total) for key, count in sorted(counts.items())]

    def legal_actions(self) -> Sequence[Any]:
        if self.phase == OVER:
            return []
        if self.owed:
            return [action for action, _ in self.chance_outcomes()]
        if self.phase == DRAW:
            actions = [DRAW_DECK] if self.deck or len(self.discard) > 1 else []
            if self.discard and self.defs.kind[self.discard[-1]] == SPELL:
                actions.append(DRAW_DISCARD)
            return actions or [PASS]
        if self.phase == REPLY:
            return [REPLACE, DECLINE]
        if self.phase == DISCARD:
            return [("discard", key) for key in sorted({self.defs.type_key[c] for c in self.hands[self.seat]})]
        return self._action_moves()

    def apply(self, action: Any) -> None:
        if self.phase == OVER:
            raise IllegalAction("the game is over")
        if self.owed:
            self._deal(action)
        elif self.phase == DRAW:
            self._draw(action)
        elif self.phase == ACTION:
            self._act(action)
        elif self.phase == REPLY:
            self._reply(action)
        elif self.phase == DISCARD:
            self._discard(action)
        self._advance()

    def returns(self) -> list[float]:
        return [float(self.covered(seat)) for seat in range(self.players)]

    def outcome(self, stalled: bool = False) -> Outcome:
        base = super().outcome(stalled)
        base.played = {key: set(seats) for key, seats in self.used.items()}
        figures = {name: float(value) for name, value in self.figures.items()}
        figures["minutes_model"] = self.minutes()
        base.figures = figures
        return base

    def minutes(self) -> float:
        f = self.figures
        seconds = (TIME_MODEL["setup"] + TIME_MODEL["turn"] * self.turns
                   + TIME_MODEL["special"] * f["specials_played"]
                   + TIME_MODEL["ask_per_player"] * (self.players - 1) * f["heron_asks"]
                   + TIME_MODEL["reply"] * f["conker_replies"]
                   + TIME_MODEL["exchange"] * f["exchanges"]
                   + TIME_MODEL["extra_discard"] * f["extra_discards"]
                   + TIME_MODEL["reshuffle"] * f["reshuffles"])
        return seconds / 60.0

    # ----------------------------------------------------------------- queries

    def covered(self, seat: int) -> int:
        return sum(1 for slot in self.rows[seat] if slot[1] != NONE)

    def uncovered_words(self, seat: int) -> list[str]:
        return [self.defs.word[slot[0]] for slot in self.rows[seat] if slot[1] == NONE]

    def slot_of(self, seat: int, word: str) -> int:
        for index, slot in enumerate(self.rows[seat]):
            if self.defs.word[slot[0]] == word:
                return index
        return -1

    def protected(self, slot: list[int]) -> bool:
        if slot[2] != NONE:
            return True
        cover = slot[1]
        if cover != NONE and self.defs.kind[cover] == SPECIAL:
            return bool(self.defs.effects[self.defs.special[cover]].params.get("protects", False))
        return False

    def hand_spells(self, seat: int) -> Counter:
        defs = self.defs
        return Counter(defs.word[c] for c in self.hands[seat] if defs.kind[c] == SPELL)

    def hand_specials(self, seat: int) -> list[str]:
        """Distinct special keys in a hand, in hand order."""
        seen: list[str] = []
        for card in self.hands[seat]:
            key = self.defs.special[card]
            if key is not None and key not in seen:
                seen.append(key)
        return seen

    def attackable(self, seat: int) -> list[tuple[int, str]]:
        """(victim, word) of every completed, unprotected pair of the other players."""
        found = []
        for offset in range(1, self.players):
            victim = (seat + offset) % self.players
            for slot in self.rows[victim]:
                if slot[1] != NONE and not self.protected(slot):
                    found.append((victim, self.defs.word[slot[0]]))
        return found

    # ----------------------------------------------------------------- action moves

    def _action_moves(self) -> list[Any]:
        defs, seat = self.defs, self.seat
        moves: list[Any] = [PASS]
        uncovered = self.uncovered_words(seat)
        spells = self.hand_spells(seat)
        for word in uncovered:
            if spells.get(word):
                moves.append(("place", word))
        for word in uncovered:
            for spare in self.spares:
                moves.append(("exchange", word, defs.word[spare]))
        for key in self.hand_specials(seat):
            moves.extend(self._special_moves(key, uncovered))
        return moves

    def _special_moves(self, key: str, uncovered: list[str]) -> list[Any]:
        effect, seat = self.defs.effects[key], self.seat
        kind = effect.kind
        if kind in ("draw", "extra-actions"):
            return [("play", key)]
        if kind == "ask-everyone":
            return [("play", key, word) for word in self.defs.spell_words]
        if kind == "knock-off":
            return [("play", key, victim, word) for victim, word in self.attackable(seat)]
        if kind == "swap-pair":
            return [("play", key, victim, word, mine) for victim, word in self.attackable(seat) for mine in uncovered]
        if kind == "protect":
            return [("play", key, self.defs.word[slot[0]]) for slot in self.rows[seat]
                    if slot[1] != NONE and not self.protected(slot)]
        if kind == "wild-spell":
            return [("play", key, word) for word in uncovered]
        raise AssertionError(kind)

    # ----------------------------------------------------------------- transitions

    def _pile(self, source: str) -> list[int]:
        return self.nature_deck if source == NATURE_PILE else self.deck

    def _deal(self, action: Any) -> None:
        source, dest, seat = self.owed[0]
        pile = self._pile(source)
        if not (isinstance(action, tuple) and len(action) == 2 and action[0] == "deal"):
            raise IllegalAction(f"chance must deal a card, not {action!r}")
        type_key = action[1]
        for index in range(len(pile) - 1, -1, -1):
            if self.defs.type_key[pile[index]] == type_key:
                break
        else:
            raise IllegalAction(f"no {type_key} left to deal")
        self.owed.pop(0)
        card = pile[index]
        pile[index] = pile[-1]
        pile.pop()
        if dest == TO_ROW:
            self.rows[seat].append([card, NONE, NONE])
        elif dest == TO_SPARE:
            self.spares.append(card)
        elif dest == TO_HAND:
            self.hands[seat].append(card)
        else:
            self.discard.append(card)
        if source == SPELL_PILE:
            self._check_deck()

    def _check_deck(self) -> None:
        """The deck ran out: the discard pile becomes the deck and its first card is turned up."""
        if self.deck or len(self.discard) < 2:
            return
        self.deck, self.discard = self.discard, []
        self.figures["reshuffles"] += 1
        self.owed.insert(0, (SPELL_PILE, TO_DISCARD, -1))

    def _owe_draws(self, seat: int, count: int) -> None:
        for _ in range(count):
            self.owed.append((SPELL_PILE, TO_HAND, seat))

    def _draw(self, action: Any) -> None:
        if action == DRAW_DECK and (self.deck or len(self.discard) > 1):
            self._owe_draws(self.seat, self.defs.params["draws"])
        elif action == DRAW_DISCARD and self.discard and self.defs.kind[self.discard[-1]] == SPELL:
            self.hands[self.seat].append(self.discard.pop())
            self.figures["discard_draws"] += 1
            if not self.discard:
                self.owed.append((SPELL_PILE, TO_DISCARD, -1))
        elif action == PASS and action in self.legal_actions():
            pass
        else:
            raise IllegalAction(f"cannot draw {action!r}")
        self.phase = ACTION
        self.actions_left = self.defs.params["actions"]

    def _take_from_hand(self, seat: int, predicate) -> int:
        hand = self.hands[seat]
        for index in range(len(hand) - 1, -1, -1):
            if predicate(hand[index]):
                return hand.pop(index)
        raise IllegalAction("no such card in hand")

    def _act(self, action: Any) -> None:
        defs, seat = self.defs, self.seat
        if not isinstance(action, tuple) or not action:
            raise IllegalAction(f"not an action: {action!r}")
        verb = action[0]
        if verb == "pass":
            self.actions_left = 0
            self.figures["passes"] += 1
            return
        if verb == "place":
            word = action[1]
            index = self.slot_of(seat, word)
            if index < 0 or self.rows[seat][index][1] != NONE:
                raise IllegalAction(f"no uncovered {word} Nature card to place on")
            card = self._take_from_hand(seat, lambda c: defs.kind[c] == SPELL and defs.word[c] == word)
            self.rows[seat][index][1] = card
            self.actions_left -= 1
            self.figures["spells_placed"] += 1
            self._check_win(seat)
            return
        if verb == "exchange":
            _, mine, spare_word = action
            index = self.slot_of(seat, mine)
            spare = next((i for i, c in enumerate(self.spares) if defs.word[c] == spare_word), -1)
            if index < 0 or spare < 0 or self.rows[seat][index][1] != NONE:
                raise IllegalAction(f"cannot exchange {mine} for {spare_word}")
            slot = self.rows[seat][index]
            slot[0], self.spares[spare] = self.spares[spare], slot[0]
            self.actions_left -= 1
            self.figures["exchanges"] += 1
            self.used.setdefault("action:exchange", set()).add(seat)
            return
        if verb == "play":
            self._play(action)
            return
        raise IllegalAction(f"unknown action {action!r}")

    def _play(self, action: tuple) -> None:
        defs, seat = self.defs, self.seat
        key = action[1]
        effect = defs.effects.get(key)
        if effect is None or key not in self.hand_specials(seat):
            raise IllegalAction(f"no special {key!r} in hand")
        uncovered = self.uncovered_words(seat)
        if action not in self._special_moves(key, uncovered):
            raise IllegalAction(f"cannot play {action!r} now")
        card = self._take_from_hand(seat, lambda c: defs.special[c] == key)
        if not effect.stays:
            self.played.append(card)
        if effect.costs_action:
            self.actions_left -= 1
        self.used.setdefault(f"special:{key}", set()).add(seat)
        self.figures["specials_played"] += 1
        self.figures[f"plays:{key}"] += 1
        kind = effect.kind
        if kind == "draw":
            self._owe_draws(seat, int(effect["cards"]))
        elif kind == "extra-actions":
            self.actions_left += int(effect["actions"])
        elif kind == "ask-everyone":
            self._ask(seat, action[2], int(effect["miss_turns"]))
        elif kind == "knock-off":
            _, _, victim, word = action
            index = self.slot_of(victim, word)
            slot = self.rows[victim][index]
            self.discard.append(slot[1])
            slot[1] = NONE
            self.figures["knock_offs"] += 1
            if effect["victim_may_replace"] and self.hand_spells(victim).get(word):
                self.reply = (victim, index)
                self._reply_draw = int(effect["replace_draw"])
                self.phase = REPLY
        elif kind == "swap-pair":
            _, _, victim, word, mine = action
            theirs = self.rows[victim][self.slot_of(victim, word)]
            ours = self.rows[seat][self.slot_of(seat, mine)]
            theirs[:], ours[:] = list(ours), list(theirs)
            self.figures["swaps"] += 1
            self._check_win(seat)
        elif kind == "protect":
            self.rows[seat][self.slot_of(seat, action[2])][2] = card
        elif kind == "wild-spell":
            self.rows[seat][self.slot_of(seat, action[2])][1] = card
            self._check_win(seat)

    def _ask(self, seat: int, word: str, miss_turns: int) -> None:
        defs = self.defs
        self.figures["heron_asks"] += 1
        for offset in range(1, self.players):
            other = (seat + offset) % self.players
            for card in self.hands[other]:
                if defs.kind[card] == SPELL and defs.word[card] == word:
                    self.hands[other].remove(card)
                    self.hands[seat].append(card)
                    return
        self.figures["heron_fails"] += 1
        self.miss[seat] += miss_turns

    def _reply(self, action: Any) -> None:
        assert self.reply is not None
        victim, index = self.reply
        slot = self.rows[victim][index]
        word = self.defs.word[slot[0]]
        if action == REPLACE:
            defs = self.defs
            slot[1] = self._take_from_hand(victim, lambda c: defs.kind[c] == SPELL and defs.word[c] == word)
            self._owe_draws(victim, self._reply_draw)
            self.figures["conker_replies"] += 1
        elif action != DECLINE:
            raise IllegalAction(f"a knocked-off player replaces or declines, not {action!r}")
        self.reply = None
        self.phase = ACTION

    def _discard(self, action: Any) -> None:
        if not (isinstance(action, tuple) and len(action) == 2 and action[0] == "discard"):
            raise IllegalAction(f"discard a card, not {action!r}")
        type_key = action[1]
        card = self._take_from_hand(self.seat, lambda c: self.defs.type_key[c] == type_key)
        self.discard.append(card)
        self.figures["discards"] += 1

    def _check_win(self, seat: int) -> None:
        if all(slot[1] != NONE for slot in self.rows[seat]):
            self.winner = seat
            self.phase = OVER

    def _settle_owed(self) -> None:
        """A draw owed from an empty deck: reshuffle, or (with nothing left anywhere) drop it."""
        while self.owed and not self._pile(self.owed[0][0]):
            if self.owed[0][0] == SPELL_PILE and len(self.discard) >= 2:
                self._check_deck()
            else:
                self.owed.pop(0)
                self.figures["dry_draws"] += 1

    def _advance(self) -> None:
        """Run the automatic steps until a decision or a chance event is due."""
        self._settle_owed()
        while not self.owed and self.phase not in (OVER, REPLY, DRAW):
            if self.phase == SETUP:
                self.box.extend(self.nature_deck)
                self.nature_deck = []
                self.seat = 0
                self.phase = DRAW
                return
            if self.phase == ACTION:
                if self.actions_left > 0:
                    return
                self._extra = len(self.hands[self.seat]) - self.defs.params["hand"]
                self.phase = DISCARD
                continue
            if self.phase == DISCARD:
                hand, size = self.hands[self.seat], self.defs.params["hand"]
                if len(hand) > size:
                    return
                if len(hand) < size and (self.deck or len(self.discard) >= 2):
                    self._owe_draws(self.seat, size - len(hand))
                    self._settle_owed()
                    continue
                self._end_turn()

    def _end_turn(self) -> None:
        if self._extra > 1:
            self.figures["extra_discards"] += self._extra - 1
        self._extra = 0
        self.discard.extend(self.played)  # the Special played last lies on top
        self.played = []
        self.turns += 1
        seat = self.seat
        for _ in range(self.players * 4):
            seat = (seat + 1) % self.players
            if self.miss[seat] > 0:
                self.miss[seat] -= 1
                self.figures["skipped_turns"] += 1
                continue
            break
        self.seat = seat
        self.phase = DRAW

    # ----------------------------------------------------------------- invariants

    def check_invariants(self) -> None:
        defs = self.defs
        places: list[int] = [*self.nature_deck, *self.box, *self.spares, *self.deck, *self.discard, *self.played]
        for hand in self.hands:
            places.extend(hand)
        for row in self.rows:
            for slot in row:
                places.extend(card for card in slot if card != NONE)
        counts = Counter(places)
        if len(places) != defs.cards or len(counts) != defs.cards:
            lost = sorted(set(range(defs.cards)) - set(counts))
            doubled = sorted(card for card, n in counts.items() if n > 1)
            raise InvariantError(f"cards lost {lost} or duplicated {doubled}")
        for pile_name, pile in (("nature deck", self.nature_deck), ("box", self.box), ("spares", self.spares)):
            if any(defs.kind[c] != NATURE for c in pile):
                raise InvariantError(f"a Spell or Special card in the {pile_name}")
        for pile_name, pile in (("deck", self.deck), ("discard pile", self.discard), ("played", self.played), *(("hand", h) for h in self.hands)):
            if any(defs.kind[c] == NATURE for c in pile):
                raise InvariantError(f"a Nature card in the {pile_name}")
        if any(defs.kind[c] != SPECIAL for c in self.played):
            raise InvariantError("a non-Special among the played Specials")
        for seat, row in enumerate(self.rows):
            for nature, cover, wall in row:
                if defs.kind[nature] != NATURE:
                    raise InvariantError(f"seat {seat}: a row slot without a Nature card")
                if cover != NONE:
                    wild = defs.kind[cover] == SPECIAL and defs.effects[defs.special[cover]].kind == "wild-spell"
                    if not wild and not (defs.kind[cover] == SPELL and defs.word[cover] == defs.word[nature]):
                        raise InvariantError(f"seat {seat}: {defs.type_key[cover]} covers {defs.word[nature]}")
                if wall != NONE:
                    if cover == NONE or defs.kind[wall] != SPECIAL or defs.effects[defs.special[wall]].kind != "protect":
                        raise InvariantError(f"seat {seat}: a wall on an uncovered card, or a non-wall as a wall")
        if self.phase != SETUP:
            if any(len(row) != self.each for row in self.rows):
                raise InvariantError("a row has the wrong number of Nature cards")
            if len(self.spares) != defs.params["spares"]:
                raise InvariantError("wrong number of spares")
            if not self.owed and not self.discard:
                raise InvariantError("the discard pile is empty")
            if self.phase == DRAW and not self.owed and any(len(h) > defs.params["hand"] for h in self.hands):
                raise InvariantError("a hand holds more than the hand size at the start of a turn")
        scores = self.returns()
        if any(score != self.covered(seat) or score > self.each for seat, score in enumerate(scores)):
            raise InvariantError("scores do not match the covered Nature cards")
        if self.phase == OVER:
            if self.winner < 0 or scores[self.winner] != self.each:
                raise InvariantError("the game ended without a player covering every Nature card")
            if sum(1 for s in scores if s == self.each) != 1:
                raise InvariantError("more than one player covered every Nature card")


# --------------------------------------------------------------------------- players


SPECIAL_VALUE = {  # how much a heuristic player values holding a Special, by effect kind
    "wild-spell": 90, "swap-pair": 60, "knock-off": 40, "extra-actions": 30,
    "ask-everyone": 25, "draw": 20, "protect": 12,
}


class LostWordsPlayer(Player):
    """A heuristic player. Reads only public information and its own hand.

    Public: every row, the spares, the whole discard pile (every card was seen as
    it was discarded), the deck size and hand sizes. With probability
    1 - skill a decision is a uniformly random legal action.
    """

    name = "lost-words heuristic"

    def __init__(self, skill: float = 1.0, heron_threshold: float = 0.0):
        self.skill = skill
        self.heron_threshold = heron_threshold
        self.name = f"lost-words heuristic (skill {skill:g})"

    def act(self, state: State, seat: int, rng) -> Any:
        assert isinstance(state, LostWordsState)
        if self.skill < 1.0 and rng.random() >= self.skill:
            return rng.choice(list(state.legal_actions()))
        if state.phase == DRAW:
            return self._draw(state, seat)
        if state.phase == REPLY:
            return REPLACE
        if state.phase == DISCARD:
            return self._discard(state, seat)
        return self._action(state, seat)

    # public knowledge
    @staticmethod
    def _unseen(state: LostWordsState, seat: int) -> Counter:
        """Copies of each Spell not visible to `seat`: in the deck or in other hands."""
        defs = state.defs
        seen: Counter = Counter()
        for row in state.rows:
            for slot in row:
                if slot[1] != NONE and defs.kind[slot[1]] == SPELL:
                    seen[defs.word[slot[1]]] += 1
        for card in state.discard:
            if defs.kind[card] == SPELL:
                seen[defs.word[card]] += 1
        for card in state.hands[seat]:
            if defs.kind[card] == SPELL:
                seen[defs.word[card]] += 1
        return Counter({word: copies - seen[word] for word, copies in defs.copies.items()})

    def _draw(self, state: LostWordsState, seat: int) -> Any:
        defs = state.defs
        if state.discard and defs.kind[state.discard[-1]] == SPELL:
            word = defs.word[state.discard[-1]]
            if word in state.uncovered_words(seat) and not state.hand_spells(seat).get(word):
                return DRAW_DISCARD
        return DRAW_DECK if (state.deck or len(state.discard) > 1) else state.legal_actions()[0]

    def _card_value(self, state: LostWordsState, seat: int, card: int, hand_spells: Counter, uncovered: set,
                    spares: set, wanted_by_others: set) -> float:
        defs = state.defs
        kind = defs.kind[card]
        if kind == SPECIAL:
            effect = defs.effects[defs.special[card]]
            value = SPECIAL_VALUE.get(effect.kind, 10)
            if effect.kind == "protect":
                value = 15 if any(s[1] != NONE and not state.protected(s) for s in state.rows[seat]) else 5
            return value
        word = defs.word[card]
        if word in uncovered:
            return 100 if hand_spells[word] == 1 else 6
        index = state.slot_of(seat, word)
        value = 2.0
        if index >= 0 and not state.protected(state.rows[seat][index]):
            value = 8  # a spare copy re-covers the pair after a Conker
        elif word in spares:
            value = 5
        if word in wanted_by_others:
            value += 3  # keep it off the discard pile
        return value

    def _discard(self, state: LostWordsState, seat: int) -> Any:
        defs = state.defs
        hand_spells = state.hand_spells(seat)
        uncovered = set(state.uncovered_words(seat))
        spares = {defs.word[c] for c in state.spares}
        wanted = {w for s in range(state.players) if s != seat for w in state.uncovered_words(s)}
        worst = min(state.hands[seat], key=lambda c: (self._card_value(state, seat, c, hand_spells, uncovered, spares, wanted), defs.type_key[c]))
        return ("discard", defs.type_key[worst])

    def _action(self, state: LostWordsState, seat: int) -> Any:
        defs = state.defs
        uncovered = state.uncovered_words(seat)
        spells = state.hand_spells(seat)
        specials = {defs.effects[key].kind: key for key in state.hand_specials(seat)}
        placeable = [w for w in uncovered if spells.get(w)]
        targets = state.attackable(seat)
        unseen = self._unseen(state, seat)
        left = {s: len(state.uncovered_words(s)) for s in range(state.players)}
        # the opponent nearest to winning among those with pairs to attack
        victims = sorted({v for v, _ in targets}, key=lambda v: (left[v], (v - seat) % state.players))
        leader = victims[0] if victims else -1
        threat = leader >= 0 and left[leader] <= 1
        mine_left = len(uncovered)

        def worst_uncovered(exclude_held: bool = True) -> str | None:
            pool = [w for w in uncovered if not (exclude_held and spells.get(w))]
            if not pool:
                return None
            return min(pool, key=lambda w: (unseen[w], w))

        def magpie():
            give = worst_uncovered() or worst_uncovered(False)
            pairs = [w for v, w in targets if v == leader]
            return ("play", specials["swap-pair"], leader, sorted(pairs)[0], give)

        def conker():
            pairs = [w for v, w in targets if v == leader]
            # prefer a pair whose other copy is out of reach (so it cannot be put back)
            word = min(pairs, key=lambda w: (unseen[w], w))
            return ("play", specials["knock-off"], leader, word)

        def wild():
            return ("play", specials["wild-spell"], worst_uncovered())

        # the Lark first when it turns into two useful actions this turn
        useful = len(placeable) + (1 if "swap-pair" in specials and targets else 0) \
            + (1 if "wild-spell" in specials and worst_uncovered() else 0)
        if "extra-actions" in specials and useful >= 2 and mine_left >= 2:
            return ("play", specials["extra-actions"])
        if threat and "swap-pair" in specials:
            return magpie()
        if threat and "knock-off" in specials:
            return conker()
        if placeable:
            return ("place", min(placeable, key=lambda w: (unseen[w], w)))
        if "wild-spell" in specials and worst_uncovered():
            return wild()
        if "swap-pair" in specials and targets:
            return magpie()
        # exchange a hopeless card for a spare we hold the Spell for, or a better one
        spare_words = [defs.word[c] for c in state.spares]
        hopeless = [w for w in uncovered if unseen[w] == 0 and not spells.get(w)]
        held_spares = [s for s in spare_words if spells.get(s)]
        if held_spares and worst_uncovered():
            return ("exchange", worst_uncovered(), held_spares[0])
        if hopeless:
            best = max(spare_words, key=lambda s: (unseen[s], s))
            if unseen[best] > 0:
                return ("exchange", hopeless[0], best)
        if "knock-off" in specials and targets and left[leader] <= mine_left:
            return conker()
        if "draw" in specials:
            return ("play", specials["draw"])
        if "ask-everyone" in specials:
            asked = self._heron_target(state, seat, uncovered, spells, unseen)
            if asked is not None:
                return ("play", specials["ask-everyone"], asked)
        if "protect" in specials:
            open_pairs = [defs.word[s[0]] for s in state.rows[seat] if s[1] != NONE and not state.protected(s)]
            if open_pairs:
                return ("play", specials["protect"], open_pairs[0])
        if "knock-off" in specials and targets:
            return conker()
        return PASS

    def _heron_target(self, state: LostWordsState, seat: int, uncovered: list[str], spells: Counter, unseen: Counter) -> str | None:
        """The needed Spell most likely to be in another hand, if likely enough."""
        others = sum(len(h) for s, h in enumerate(state.hands) if s != seat)
        pool = others + len(state.deck)
        if pool == 0:
            return None
        share = others / pool
        best, chance = None, 0.0
        for word in uncovered:
            if spells.get(word) or unseen[word] <= 0:
                continue
            p = 1.0 - (1.0 - share) ** unseen[word]
            if p > chance:
                best, chance = word, p
        return best if chance >= self.heron_threshold else None


# --------------------------------------------------------------------------- rules


class LostWordsRules(Rules):
    id = "lost-words"
    length_unit = "turns"
    turn_cap = 600
    # 15 s a plain turn plus about 4 s a turn of Specials, asks, exchanges and extra discards on average
    # (see TIME_MODEL and the minutes_model figure, which also counts setup and reshuffles)
    seconds_per_turn = 19.0
    settings = LostWordsSettings

    def new_state(self, game: Game, players: int, options: dict[str, Any] | None = None) -> LostWordsState:
        state = LostWordsState(definitions(game, options), players)
        return state

    def heuristic_player(self, skill: float = 1.0) -> Player:
        return LostWordsPlayer(skill)


RULES = LostWordsRules()
