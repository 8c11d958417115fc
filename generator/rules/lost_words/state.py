"""The state of The Lost Words: one position, its legal moves, the effects, and the invariants.

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
the deck is turned up. The first player to cover all their Nature cards wins
(`rules: cover_to_win`: "all", or a number of them).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from enum import IntEnum
from itertools import chain
from typing import Any

from spellpress.rules.chance import Counted, draw_counted
from spellpress.rules.lost_words.actions import (
    DECLINE,
    DRAW_DECK,
    DRAW_DISCARD,
    PASS,
    PLAYS,
    REPLACE,
    Action,
    Deal,
    Decline,
    Discard,
    Exchange,
    Pass,
    Place,
    Play,
    PlayOn,
    PlaySwap,
    PlayWord,
    Replace,
    Special,
    typed,
)
from spellpress.rules.lost_words.content import NATURE, SPECIAL, SPELL, Defs, Effect, LostWordsError
from spellpress.rules.observation import CardRef, Observation, Zone, hand_zone, to_move
from spellpress.rules.protocol import CHANCE, TERMINAL, IllegalAction, InvariantError, Outcome, State, redeal


class Phase(IntEnum):
    SETUP = 0
    DRAW = 1
    ACTION = 2
    REPLY = 3
    DISCARD = 4
    OVER = 5


SETUP, DRAW, ACTION, REPLY, DISCARD, OVER = Phase
PHASE_NAMES = tuple(phase.name.lower() for phase in Phase)
NATURE_PILE, SPELL_PILE = "nature", "spell"  # chance sources
TO_ROW, TO_SPARE, TO_HAND, TO_DISCARD = "row", "spare", "hand", "discard"  # chance destinations
NONE = -1  # an empty cover or wall slot
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


class PileCounts:
    """A pile's cards counted by kind (type key): the deal actions by kind A-Z and how many cards of each the
    pile holds, with the pile's kinds in reverse order, so the last card of a kind is found by a C search."""

    __slots__ = ("pile", "place", "actions", "counts", "kinds_reversed")

    def __init__(self, pile: list[int], type_key: list[str]):
        self.pile = pile
        self.kinds_reversed = [type_key[card] for card in reversed(pile)]
        keys = sorted(set(self.kinds_reversed))
        self.place = {key: i for i, key in enumerate(keys)}
        self.actions = [Deal("deal", key) for key in keys]
        self.counts = [0] * len(keys)
        for kind in self.kinds_reversed:
            self.counts[self.place[kind]] += 1

    def take(self, type_key: str) -> int:
        """Take the last card of this kind out of the pile (the pile's last card takes its place)."""
        kinds, pile = self.kinds_reversed, self.pile
        try:
            at = kinds.index(type_key)
        except ValueError:
            raise IllegalAction(f"no {type_key} left to deal") from None
        index = len(pile) - 1 - at
        card = pile[index]
        pile[index] = pile[-1]
        pile.pop()
        kinds[at] = kinds[0]
        del kinds[0]
        self.counts[self.place[type_key]] -= 1
        return card


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
        if defs.cover_to_win != "all" and int(defs.cover_to_win) > each:
            raise LostWordsError(f"game.yaml rules: cover_to_win {defs.cover_to_win} is more than the {each} "
                                 f"Nature cards dealt to each of {players} players")
        self.to_win = defs.to_win(players)
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
        self._sound_slots: set[tuple[int, ...]] = set()  # row slots (nature, cover, wall) check_invariants found sound
        self._checked_rows: list[list[list[int]]] = []  # the rows as check_invariants last saw them
        self._counted: dict[str, PileCounts] = {}  # _pile_counts' memo, by chance source
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
        kept = self._pile_counts(self.owed[0][0])
        return Counted(kept.actions, list(kept.counts), len(kept.pile))

    def sample_chance(self, rng) -> Any:
        """chance_outcomes()'s draw (State.sample_chance), from the kept counts, without copying them."""
        kept = self._pile_counts(self.owed[0][0])
        return draw_counted(kept.actions, kept.counts, len(kept.pile), rng)

    def _pile_counts(self, source: str) -> PileCounts:
        """The source's pile, its kinds counted when the pile is new (dealt from at first, or replaced whole)
        and then kept up to date by _deal, the only other change to a pile."""
        pile = self.nature_deck if source == NATURE_PILE else self.deck  # _pile, written out: twice a deal
        kept = self._counted.get(source)
        if kept is None or kept.pile is not pile:
            kept = self._counted[source] = PileCounts(pile, self.defs.type_key)
        return kept

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
            return [Discard("discard", key) for key in sorted({self.defs.type_key[c] for c in self.hands[self.seat]})]
        return self._action_moves()

    def count_legal_actions(self) -> int:
        """len(legal_actions()), without making the actions (the runner counts them at every decision of
        its sampled games; an ask-everyone Special alone has one for every Spell word)."""
        if self.phase == OVER:
            return 0
        if self.owed:
            counts = self._pile_counts(self.owed[0][0]).counts
            return len(counts) - counts.count(0)
        if self.phase == DRAW:
            draws = int(bool(self.deck or len(self.discard) > 1))
            draws += int(bool(self.discard and self.defs.kind[self.discard[-1]] == SPELL))
            return draws or 1
        if self.phase == REPLY:
            return 2
        if self.phase == DISCARD:
            return len(set(map(self.defs.type_key.__getitem__, self.hands[self.seat])))
        return self._count_action_moves()

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

    def returns(self) -> list[float]:  # covered() of each seat, written out (the runner asks every turn)
        return [float(len(row) - [slot[1] for slot in row].count(NONE)) for row in self.rows]

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
        row = self.rows[seat]
        return len(row) - [slot[1] for slot in row].count(NONE)

    def still_to_cover(self, seat: int) -> int:
        """Nature cards this seat must still cover to win."""
        return self.to_win - self.covered(seat)

    def uncovered_words(self, seat: int) -> list[str]:
        word = self.defs.card_word
        return [word[nature] for nature, cover, _ in self.rows[seat] if cover == NONE]

    def slot_of(self, seat: int, word: str) -> int:
        for index, slot in enumerate(self.rows[seat]):
            if self.defs.word[slot[0]] == word:
                return index
        return -1

    def protected(self, slot: list[int]) -> bool:
        cover = slot[1]
        return slot[2] != NONE or (cover != NONE and self.defs.guards[cover])

    def hand_spells(self, seat: int) -> dict[str, int]:
        """The Spells in a hand: word -> copies (a plain dict: a Counter costs more to make than its few cards)."""
        spells: dict[str, int] = {}
        for word in map(self.defs.spell_word.__getitem__, self.hands[seat]):
            if word is not None:
                spells[word] = spells.get(word, 0) + 1
        return spells

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
        word, guards = self.defs.card_word, self.defs.guards
        found = []
        for offset in range(1, self.players):
            victim = (seat + offset) % self.players
            for nature, cover, wall in self.rows[victim]:  # protected() written out: this runs at every action
                if cover != NONE and wall == NONE and not guards[cover]:
                    found.append((victim, word[nature]))
        return found

    # ----------------------------------------------------------------- action moves

    def _action_moves(self) -> list[Action]:
        defs, seat = self.defs, self.seat
        moves: list[Action] = [PASS]
        uncovered = self.uncovered_words(seat)
        spells = self.hand_spells(seat)
        for word in uncovered:
            if spells.get(word):
                moves.append(Place("place", word))
        for word in uncovered:
            for spare in self.spares:
                moves.append(Exchange("exchange", word, defs.word_of(spare)))
        for key in self.hand_specials(seat):
            moves.extend(self._special_moves(key, uncovered))
        return moves

    def _count_action_moves(self) -> int:
        """len(_action_moves()), counted as it lists them."""
        seat = self.seat
        uncovered = self.uncovered_words(seat)
        spells = self.hand_spells(seat)
        count = 1 + sum(1 for word in uncovered if spells.get(word)) + len(uncovered) * len(self.spares)
        effects, attackable = self.defs.effects, None
        for key in self.hand_specials(seat):
            kind = effects[key].kind
            if kind in ("draw", "extra-actions"):
                count += 1
            elif kind == "ask-everyone":
                count += len(self.defs.spell_words)
            elif kind in ("knock-off", "swap-pair"):
                if attackable is None:
                    attackable = len(self.attackable(seat))
                count += attackable * (len(uncovered) if kind == "swap-pair" else 1)
            elif kind == "protect":
                count += sum(1 for slot in self.rows[seat] if slot[1] != NONE and not self.protected(slot))
            elif kind == "wild-spell":
                count += len(uncovered)
            else:
                raise AssertionError(kind)
        return count

    def _special_moves(self, key: str, uncovered: list[str]) -> list[Special]:
        effect, seat = self.defs.effects[key], self.seat
        kind = effect.kind
        if kind in ("draw", "extra-actions"):
            return [Play("play", key)]
        if kind == "ask-everyone":
            return [PlayWord("play", key, word) for word in self.defs.spell_words]
        if kind == "knock-off":
            return [PlayOn("play", key, victim, word) for victim, word in self.attackable(seat)]
        if kind == "swap-pair":
            return [PlaySwap("play", key, victim, word, mine) for victim, word in self.attackable(seat) for mine in uncovered]
        if kind == "protect":
            return [PlayWord("play", key, self.defs.word_of(slot[0])) for slot in self.rows[seat]
                    if slot[1] != NONE and not self.protected(slot)]
        if kind == "wild-spell":
            return [PlayWord("play", key, word) for word in uncovered]
        raise AssertionError(kind)

    def _can_play(self, action: Special, kind: str) -> bool:
        """Whether `action` is among _special_moves for its Special, whose effect is of `kind`: checked by its
        target, without listing every move (an ask-everyone Special has one for every Spell word)."""
        seat = self.seat
        if kind in ("draw", "extra-actions"):
            return type(action) is Play
        if kind == "ask-everyone":
            return type(action) is PlayWord and action.word in self.defs.spell_words
        if kind == "knock-off":
            return type(action) is PlayOn and (action.victim, action.word) in self.attackable(seat)
        if kind == "swap-pair":
            return (type(action) is PlaySwap and (action.victim, action.word) in self.attackable(seat)
                    and action.mine in self.uncovered_words(seat))
        if kind == "protect":
            return type(action) is PlayWord and action.word in [self.defs.word_of(slot[0]) for slot in self.rows[seat]
                                                                if slot[1] != NONE and not self.protected(slot)]
        if kind == "wild-spell":
            return type(action) is PlayWord and action.word in self.uncovered_words(seat)
        raise AssertionError(kind)

    # ----------------------------------------------------------------- transitions

    def _pile(self, source: str) -> list[int]:
        return self.nature_deck if source == NATURE_PILE else self.deck

    def _deal(self, action: Any) -> None:
        source, dest, seat = self.owed[0]
        named = typed(action)
        if type(named) is not Deal:
            raise IllegalAction(f"chance must deal a card, not {action!r}")
        card = self._pile_counts(source).take(named.key)
        self.owed.pop(0)
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
        named = typed(action)
        if named == DRAW_DECK and (self.deck or len(self.discard) > 1):
            self._owe_draws(self.seat, self.defs.params["draws"])
        elif named == DRAW_DISCARD and self.discard and self.defs.kind[self.discard[-1]] == SPELL:
            self.hands[self.seat].append(self.discard.pop())
            self.figures["discard_draws"] += 1
            if not self.discard:
                self.owed.append((SPELL_PILE, TO_DISCARD, -1))
        elif type(named) is Pass and named in self.legal_actions():
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
        named = typed(action)
        act = _ACTION_PHASE.get(type(named))
        if act is None:
            raise IllegalAction(f"unknown action {action!r}")
        act(self, named)

    # -- one method per kind of action (see actions.py) ----------------------------------
    def _pass(self, action: Pass) -> None:
        self.actions_left = 0
        self.figures["passes"] += 1

    def _place(self, action: Place) -> None:
        defs, seat, word = self.defs, self.seat, action.word
        index = self.slot_of(seat, word)
        if index < 0 or self.rows[seat][index][1] != NONE:
            raise IllegalAction(f"no uncovered {word} Nature card to place on")
        card = self._take_from_hand(seat, lambda c: defs.kind[c] == SPELL and defs.word[c] == word)
        self.rows[seat][index][1] = card
        self.actions_left -= 1
        self.figures["spells_placed"] += 1
        self._check_win(seat)

    def _exchange(self, action: Exchange) -> None:
        defs, seat = self.defs, self.seat
        index = self.slot_of(seat, action.mine)
        spare = next((i for i, c in enumerate(self.spares) if defs.word[c] == action.spare), -1)
        if index < 0 or spare < 0 or self.rows[seat][index][1] != NONE:
            raise IllegalAction(f"cannot exchange {action.mine} for {action.spare}")
        slot = self.rows[seat][index]
        slot[0], self.spares[spare] = self.spares[spare], slot[0]
        self.actions_left -= 1
        self.figures["exchanges"] += 1
        self.used.setdefault("action:exchange", set()).add(seat)

    def _play(self, action: Special) -> None:
        defs, seat, key = self.defs, self.seat, action.special
        effect = defs.effects.get(key)
        if effect is None or key not in self.hand_specials(seat):
            raise IllegalAction(f"no special {key!r} in hand")
        if not self._can_play(action, effect.kind):
            raise IllegalAction(f"cannot play {action!r} now")
        card = self._take_from_hand(seat, lambda c: defs.special[c] == key)
        if not effect.stays:
            self.played.append(card)
        if effect.costs_action:
            self.actions_left -= 1
        self.used.setdefault(f"special:{key}", set()).add(seat)
        self.figures["specials_played"] += 1
        self.figures[f"plays:{key}"] += 1
        # _special_moves gave the shape each effect kind takes: the kind's method gets its own
        _EFFECTS[effect.kind](self, action, effect, card)

    # -- one method per effect kind of the Specials (cards/lost-words/: `effect: {kind: ...}`) ---------
    def _draw_cards(self, action: Play, effect: Effect, card: int) -> None:
        self._owe_draws(self.seat, int(effect["cards"]))

    def _extra_actions(self, action: Play, effect: Effect, card: int) -> None:
        self.actions_left += int(effect["actions"])

    def _ask_everyone(self, action: PlayWord, effect: Effect, card: int) -> None:
        self._ask(self.seat, action.word, int(effect["miss_turns"]))

    def _knock_off(self, action: PlayOn, effect: Effect, card: int) -> None:
        victim, word = action.victim, action.word
        index = self.slot_of(victim, word)
        slot = self.rows[victim][index]
        self.discard.append(slot[1])
        slot[1] = NONE
        self.figures["knock_offs"] += 1
        if effect["victim_may_replace"] and self.hand_spells(victim).get(word):
            self.reply = (victim, index)
            self._reply_draw = int(effect["replace_draw"])
            self.phase = REPLY

    def _swap_pair(self, action: PlaySwap, effect: Effect, card: int) -> None:
        seat, victim = self.seat, action.victim
        theirs = self.rows[victim][self.slot_of(victim, action.word)]
        ours = self.rows[seat][self.slot_of(seat, action.mine)]
        theirs[:], ours[:] = list(ours), list(theirs)
        self.figures["swaps"] += 1
        self._check_win(seat)

    def _protect(self, action: PlayWord, effect: Effect, card: int) -> None:
        self.rows[self.seat][self.slot_of(self.seat, action.word)][2] = card

    def _wild_spell(self, action: PlayWord, effect: Effect, card: int) -> None:
        self.rows[self.seat][self.slot_of(self.seat, action.word)][1] = card
        self._check_win(self.seat)

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
        named = typed(action)
        if named == REPLACE:
            defs = self.defs
            slot[1] = self._take_from_hand(victim, lambda c: defs.kind[c] == SPELL and defs.word[c] == word)
            self._owe_draws(victim, self._reply_draw)
            self.figures["conker_replies"] += 1
        elif named != DECLINE:
            raise IllegalAction(f"a knocked-off player replaces or declines, not {action!r}")
        self.reply = None
        self.phase = ACTION

    def _discard(self, action: Any) -> None:
        named = typed(action)
        if type(named) is not Discard:
            raise IllegalAction(f"discard a card, not {action!r}")
        type_key = named.key
        card = self._take_from_hand(self.seat, lambda c: self.defs.type_key[c] == type_key)
        self.discard.append(card)
        self.figures["discards"] += 1

    def _check_win(self, seat: int) -> None:
        if self.covered(seat) >= self.to_win:
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

    # ----------------------------------------------------------------- for the search player

    def determinize(self, seat: int, rng) -> LostWordsState:
        """A clone with the other hands and the spell deck re-dealt: `seat` sees only its own hand."""
        s = self.clone()
        others = [o for o in range(s.players) if o != seat]
        hands, rest = redeal(rng, list(s.deck) + [c for o in others for c in s.hands[o]], [len(s.hands[o]) for o in others])
        for o, hand in zip(others, hands, strict=False):
            s.hands[o] = hand
        s.deck = rest
        return s
    # ----------------------------------------------------------------- what a seat sees (spellpress play)

    def card(self, card: int) -> CardRef:
        return CardRef(*self.defs.printed[card])

    def observation(self, seat: int) -> Observation:
        defs = self.defs
        spell_back = defs.printed[defs.spell_ids[0]][0] if defs.spell_ids else None
        nature_back = defs.printed[defs.nature_ids[0]][0] if defs.nature_ids else None
        cards = lambda numbers: tuple(self.card(c) for c in numbers)  # noqa: E731
        zones = [Zone("deck", "deck", "pile", None, (), len(self.deck), spell_back),
                 Zone("discard", "discard pile", "pile", None, cards(self.discard)),
                 Zone("spares", "spare Nature cards", "row", None, cards(self.spares))]
        if self.played:
            zones.append(Zone("played", "played this turn", "row", None, cards(self.played)))
        if self.nature_deck:
            zones.append(Zone("nature-deck", "Nature deck", "pile", None, (), len(self.nature_deck), nature_back))
        for other in range(self.players):
            zones.append(hand_zone(other, seat, [self.card(c) for c in self.hands[other]], spell_back))
            for index, slot in enumerate(self.rows[other]):
                zones.append(Zone(f"row:{other}:{index}", defs.word[slot[0]] or "", "stack", other,
                                  cards(c for c in slot if c != NONE)))
        facts = [f"seat {s + 1}: {self.covered(s)} of {len(self.rows[s])} Nature cards covered"
                 for s in range(self.players)]
        facts += [f"seat {s + 1} misses {n} turn(s)" for s, n in enumerate(self.miss) if n]
        if self.phase == ACTION:
            facts.append(f"{self.actions_left} action(s) left")
        if self.winner >= 0:
            facts.append(f"seat {self.winner + 1} covered every Nature card")
        return Observation(seat, to_move(self.current_player()), PHASE_NAMES[self.phase],
                           tuple(self.returns()), tuple(zones), tuple(facts))

    def action_to_string(self, action: Any) -> str:
        defs, named = self.defs, _named(action)
        if type(named) is Pass:
            return "pass" if self.phase != DRAW else "draw nothing"
        if named == DRAW_DECK:
            return "draw from the deck"
        if named == DRAW_DISCARD:
            return f"take {(defs.word[self.discard[-1]] or '').capitalize()} from the discard pile"
        if type(named) is Replace:
            return "put the other copy back on the knocked-off Nature card"
        if type(named) is Decline:
            return "keep the other copy in hand"
        if type(named) is Place:
            return f"place {named.word.capitalize()} on your {named.word.capitalize()}"
        if type(named) is Exchange:
            return f"exchange your {named.mine.capitalize()} for the spare {named.spare.capitalize()}"
        if type(named) is Discard:
            name = named.key.split(":", 1)[1]
            return f"discard {defs.names.get(name, name.capitalize())}"
        if isinstance(named, PLAYS):
            return self._play_to_string(named)
        return super().action_to_string(action)

    def _play_to_string(self, action: Special) -> str:
        name = self.defs.names.get(action.special, action.special)
        if type(action) is PlayWord:
            return f"play {name}: {action.word.capitalize()}"
        if type(action) is PlayOn:
            return f"play {name} on seat {action.victim + 1}'s {action.word.capitalize()}"
        if type(action) is PlaySwap:
            return f"play {name}: take seat {action.victim + 1}'s {action.word.capitalize()} for your {action.mine.capitalize()}"
        return f"play {name}"

    def action_news(self, action: Any, seat: int) -> str | None:
        named = _named(action)
        if type(named) is PlayWord and self.defs.effects[named.special].kind == "ask-everyone":
            asked = named.word.upper()  # a failed ask is the only way a seat to play comes to miss turns
            return f"nobody had {asked}: seat {seat + 1} misses its next turn" if self.miss[seat] else f"got a {asked}"
        return None

    def action_cards(self, action: Any) -> tuple[CardRef, ...]:
        keys, named = self.defs.printed_of_key, _named(action)
        if named == DRAW_DISCARD and self.discard:
            return (self.card(self.discard[-1]),)
        if type(named) is Place:
            return (CardRef(*keys[f"spell:{named.word}"]),)
        if type(named) is Discard:
            return (CardRef(*keys[named.key]),)
        if isinstance(named, PLAYS):
            return (CardRef(*keys[f"special:{named.special}"]),)
        if type(named) is Exchange:
            return (CardRef(*keys[f"nature:{named.spare}"]),)
        return ()

    # ----------------------------------------------------------------- invariants

    def check_invariants(self) -> None:
        self._check_every_card_once()
        self._check_pile_kinds()
        self._check_rows()
        if self.phase != SETUP:
            self._check_table()
        self._check_scores()

    def _check_every_card_once(self) -> None:
        defs = self.defs
        # counted in Counter's C loop: this runs after every action
        counts = Counter(chain(self.nature_deck, self.box, self.spares, self.deck, self.discard, self.played,
                               chain.from_iterable(self.hands), chain.from_iterable(chain.from_iterable(self.rows))))
        counts.pop(NONE, None)
        if sum(counts.values()) != defs.cards or len(counts) != defs.cards:
            lost = sorted(set(range(defs.cards)) - set(counts))
            doubled = sorted(card for card, n in counts.items() if n > 1)
            raise InvariantError(f"cards lost {lost} or duplicated {doubled}")

    def _check_pile_kinds(self) -> None:
        defs = self.defs
        natures = defs.nature_set
        for pile_name, pile in (("nature deck", self.nature_deck), ("box", self.box), ("spares", self.spares)):
            if not natures.issuperset(pile):
                raise InvariantError(f"a Spell or Special card in the {pile_name}")
        piles = (("deck", self.deck), ("discard pile", self.discard), ("played", self.played), *(("hand", h) for h in self.hands))
        for pile_name, pile in piles:
            if not natures.isdisjoint(pile):
                raise InvariantError(f"a Nature card in the {pile_name}")
        if not defs.special_set.issuperset(self.played):
            raise InvariantError("a non-Special among the played Specials")

    def _check_rows(self) -> None:
        # a slot's soundness depends on its three cards alone: rows unchanged since the last check
        # (compared whole) are not looked at again, and each distinct slot is checked once
        if self.rows == self._checked_rows:
            return
        slots = set(map(tuple, chain.from_iterable(self.rows)))
        for nature, cover, wall in slots - self._sound_slots:
            seat = next(seat for seat, row in enumerate(self.rows) if [nature, cover, wall] in row)
            self._check_slot(seat, nature, cover, wall)
        self._sound_slots |= slots
        self._checked_rows = [[list(slot) for slot in row] for row in self.rows]

    def _check_slot(self, seat: int, nature: int, cover: int, wall: int) -> None:
        defs = self.defs
        if defs.kind[nature] != NATURE:
            raise InvariantError(f"seat {seat}: a row slot without a Nature card")
        if cover != NONE:
            wild = defs.kind[cover] == SPECIAL and defs.effect_of(cover).kind == "wild-spell"
            if not wild and not (defs.kind[cover] == SPELL and defs.word[cover] == defs.word[nature]):
                raise InvariantError(f"seat {seat}: {defs.type_key[cover]} covers {defs.word[nature]}")
        if wall != NONE:
            if cover == NONE or defs.kind[wall] != SPECIAL or defs.effect_of(wall).kind != "protect":
                raise InvariantError(f"seat {seat}: a wall on an uncovered card, or a non-wall as a wall")

    def _check_table(self) -> None:
        """The table after the deal: full rows, the spares, a discard pile, hands within size at a turn's start."""
        defs = self.defs
        if any(len(row) != self.each for row in self.rows):
            raise InvariantError("a row has the wrong number of Nature cards")
        if len(self.spares) != defs.params["spares"]:
            raise InvariantError("wrong number of spares")
        if not self.owed and not self.discard:
            raise InvariantError("the discard pile is empty")
        if self.phase == DRAW and not self.owed and any(len(h) > defs.params["hand"] for h in self.hands):
            raise InvariantError("a hand holds more than the hand size at the start of a turn")

    def _check_scores(self) -> None:
        scores = self.returns()
        if any(score > self.each for score in scores):  # a score is the covered cards (returns())
            raise InvariantError("a score above the Nature cards a player has")
        if self.phase == OVER:
            if self.winner < 0 or scores[self.winner] < self.to_win:
                raise InvariantError(f"the game ended without a player covering {self.to_win} Nature cards")
            if sum(1 for s in scores if s >= self.to_win) != 1:
                raise InvariantError(f"more than one player covered {self.to_win} Nature cards")

def _named(action: Any) -> Action | None:
    """The named form of an action, or None when it is none (what a seat is shown never raises)."""
    try:
        return typed(action)
    except IllegalAction:
        return None


_ACTION_PHASE: dict[type, Callable[[LostWordsState, Any], None]] = {
    Pass: LostWordsState._pass, Place: LostWordsState._place, Exchange: LostWordsState._exchange,
    Play: LostWordsState._play, PlayWord: LostWordsState._play, PlayOn: LostWordsState._play,
    PlaySwap: LostWordsState._play,
}
_EFFECTS: dict[str, Callable[[LostWordsState, Any, Effect, int], None]] = {
    "draw": LostWordsState._draw_cards, "extra-actions": LostWordsState._extra_actions,
    "ask-everyone": LostWordsState._ask_everyone, "knock-off": LostWordsState._knock_off,
    "swap-pair": LostWordsState._swap_pair, "protect": LostWordsState._protect,
    "wild-spell": LostWordsState._wild_spell,
}
