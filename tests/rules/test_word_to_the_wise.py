"""A Word to the Wise: one test per rule of the rulebook (004_e1bbc6cabe8c03a7.txt), plus the engine's invariants."""

from __future__ import annotations

import dataclasses
import math
import random
from collections import Counter
from pathlib import Path

import pytest

from spellpress.load.game import load_game
from spellpress.rules import engine_for
from spellpress.rules import word_to_the_wise as W
from spellpress.rules.protocol import CHANCE, TERMINAL, IllegalAction, InvariantError, RandomPlayer
from spellpress.rules.word_to_the_wise import actions as A
from spellpress.simulate.play import play_game
from spellpress.words.finder import WordFinder
from spellpress.words.index import key, sub_multisets

GAME_DIR = Path(__file__).resolve().parents[2] / "cards" / "word-to-the-wise"
SLOW, FAST = 50, 5  # search-time quantiles: 0 is the quickest of 64, 63 the slowest


@pytest.fixture(scope="module")
def game():
    return load_game(GAME_DIR)


@pytest.fixture(scope="module")
def defs(game):
    return W.definitions(game)


def arrange(game, hands, players=None, deck=None, starter=0, options=None):
    """A state at the start of a round: these hands, this deck (default: every other card), the rest discarded."""
    players = players or len(hands)
    state = W.RULES.new_state(game, players, options)
    totals = Counter(state.defs.totals)
    state.hands = [list(hand) for hand in hands] + [[] for _ in range(players - len(hands))]
    rest = totals - Counter("".join(hands))
    assert sum(rest.values()) == sum(totals.values()) - sum(map(len, hands)), "more cards than the deck holds"
    if deck is None:
        state.deck, state.discard = dict(rest), Counter()
    else:
        state.deck = {letter: 0 for letter in totals}
        state.deck.update(Counter(deck))
        state.discard = rest - Counter(deck)
    state.deck_size = sum(state.deck.values())
    state.starter = starter
    state.phase, state.roll = W.ROLL, []
    state.check_invariants()
    return state


def roll(state, *faces):
    for face in faces:
        assert state.current_player() == CHANCE and state.phase == W.ROLL
        state.apply(("die", face))
        state.check_invariants()


def race(state, targets, quantiles=None, challenges=None):
    """Play the round's decisions: targets[seat] is the action, quantiles[seat] its search-time draw."""
    quantiles = quantiles or {}
    while state.phase in (W.CHOOSE, W.TIME, W.CHALLENGE, W.TIEBREAK):
        if state.phase == W.CHOOSE:
            state.apply(targets.get(state.current_player(), W.PASS))
        elif state.phase == W.TIME:
            state.apply(("time", quantiles.get(state.chance_seat(), 30)))
        elif state.phase == W.CHALLENGE:
            state.apply(("challenge", tuple((challenges or {}).get(state.current_player(), ()))))
        else:
            return
        state.check_invariants()


def draw(state, letter):
    seat = state.chance_seat()
    state.apply(("draw", letter))
    state.check_invariants()
    return seat


def word(text):
    return ("word", text)


# -- setup and the dice ---------------------------------------------------------------

def test_setup_deals_five_cards_to_each_player_and_leaves_the_rest_as_the_deck(game):
    state = W.RULES.new_state(game, 4)
    rng = random.Random(3)
    while state.phase == W.DEAL:
        actions, weights = zip(*state.chance_outcomes(), strict=False)
        state.apply(rng.choices(actions, weights)[0])
    assert [len(hand) for hand in state.hands] == [5, 5, 5, 5]
    assert state.deck_size == sum(card.count for card in game.component("consonants").cards) - 20
    assert state.phase == W.ROLL and state.current_player() == CHANCE
    state.check_invariants()


def test_dice_roll_is_a_chance_event_over_each_die_faces(game):
    state = arrange(game, ["ctsss", "tnlll"])
    first = dict(state.chance_outcomes())
    assert first == {("die", v): pytest.approx(1 / 6) for v in ["a", "e", "i", "o", "u", W.WILD]}
    state.apply(("die", "a"))
    second = dict(state.chance_outcomes())
    assert second[("die", "e")] == pytest.approx(2 / 6)  # die 2 doubles E (dice.yaml)
    assert ("die", "u") not in second
    with pytest.raises(IllegalAction):
        state.apply(("die", "u"))


# -- racing ------------------------------------------------------------------------------

def test_racing_order_follows_the_search_times(game):
    state = arrange(game, ["ctsss", "tnlll", "ntrrr"])
    roll(state, "a", "e")
    race(state, {0: word("cat"), 1: word("ten"), 2: word("net")}, {0: SLOW, 1: FAST, 2: 30})
    log = state.logs[-1]
    assert [p.seat for p in log.placed] == [1, 2]  # fastest, then middle; the slowest is last
    assert log.last == (0,)


def test_longer_words_take_longer_to_find(game):
    state = arrange(game, ["hnstt", "tnlll"])
    roll(state, "a", "e")
    race(state, {0: word("tenths"), 1: word("ten")}, {0: 30, 1: 30})
    assert [p.seat for p in state.logs[-1].placed] == [1]
    assert state.logs[-1].last == (0,)


def test_equal_search_times_are_settled_by_a_chance_event(game):
    state = arrange(game, ["ctsss", "tnlll", "ntrrr"])
    roll(state, "a", "e")
    race(state, {0: word("cat"), 1: word("ten"), 2: W.PASS}, {0: 20, 1: 20})
    assert state.phase == W.TIEBREAK and state.current_player() == CHANCE
    assert dict(state.chance_outcomes()) == {("first", 0): 0.5, ("first", 1): 0.5}
    state.apply(("first", 1))
    state.check_invariants()
    race(state, {})
    assert [p.seat for p in state.logs[-1].placed] == [1, 0]


def test_a_faster_player_finds_the_same_word_sooner(game):
    state = arrange(game, ["ctsss", "tnlll"], options={"speeds": [1.0, 0.5]})
    roll(state, "a", "e")
    race(state, {0: word("cat"), 1: word("ten")}, {0: 20, 1: 20})
    assert [p.seat for p in state.logs[-1].placed] == [1]


# -- first and last words ---------------------------------------------------------------------

def test_first_word_of_three_or_more_letters_gets_three_bonus_points(game):
    state = arrange(game, ["ctsss", "tnlll", "ntrrr"])
    roll(state, "a", "e")
    race(state, {0: word("cat"), 1: word("ten"), 2: word("net")}, {0: FAST, 1: 30, 2: SLOW})
    first, second = state.logs[-1].placed
    assert (first.word, first.first_bonus) == ("cat", 3) and second.first_bonus == 0
    assert state.scores[0] == 3 + 1 + 1 + 3  # C3 A1 T1 + bonus
    assert state.scores[1] == 1 + 1 + 1


def test_two_letter_words_get_no_first_word_bonus(game):
    state = arrange(game, ["ctsss", "tnlll", "ntrrr"])
    roll(state, "a", "e")
    race(state, {0: word("at"), 1: word("ten"), 2: word("net")}, {0: FAST, 1: 30, 2: SLOW})
    at, ten = state.logs[-1].placed
    assert at.first_bonus == 0 and ten.first_bonus == 3  # the first word of 3+ letters takes it
    assert state.scores[:2] == [2, 3 + 3]


def test_last_player_plays_no_word_and_scores_one_point(game):
    state = arrange(game, ["ctsss", "tnlll"])
    roll(state, "a", "e")
    race(state, {0: word("cat"), 1: word("ten")}, {0: SLOW, 1: FAST})
    assert state.logs[-1].last == (0,)
    assert state.scores[0] == 1
    assert sorted(state.hands[0]) == sorted("ctsss")  # the last player's cards stay in hand


def test_a_player_who_finds_no_word_is_last(game):
    state = arrange(game, ["ctsss", "tnlll", "ntrrr"])
    roll(state, "a", "e")
    race(state, {0: W.PASS, 1: word("ten"), 2: word("net")}, {1: FAST, 2: SLOW})
    log = state.logs[-1]
    assert [p.seat for p in log.placed] == [1, 2]  # everyone with a word plays it
    assert log.last == (0,) and state.scores[0] == 1


def test_nobody_scores_the_last_point_when_nobody_makes_a_word(game):
    state = arrange(game, ["ctsss", "tnlll"])
    roll(state, "a", "e")
    race(state, {})
    assert state.logs[-1].placed == () and state.scores == [0, 0]


# -- words ------------------------------------------------------------------------------------------

def test_no_duplicate_words_are_allowed_in_a_round(game):
    state = arrange(game, ["tnsss", "tnlll", "ntrrr"])
    roll(state, "a", "e")
    race(state, {0: word("ten"), 1: word("ten"), 2: word("net")}, {0: FAST, 1: 20, 2: SLOW})
    assert state.phase == W.RECHOOSE and state.current_player() == 1  # seat 0 placed TEN first
    assert word("ten") not in state.legal_actions()
    with pytest.raises(IllegalAction):
        state.apply(word("ten"))
    state.apply(word("tan"))
    race(state, {}, {1: FAST})
    log = state.logs[-1]
    assert [p.word for p in log.placed] == ["ten", "tan"] and log.last == (2,)


@pytest.mark.slow
def test_a_word_must_be_at_least_two_letters_long(game, defs):
    assert min(map(len, defs.words)) >= 2
    assert defs.letters_value("t", ["t"], ("a", "e")) is None
    spec = game.spec.model_copy(update={"words": game.spec.words.model_copy(update={"min_length": 3})})
    longer = dataclasses.replace(game, spec=spec)
    state = arrange(longer, ["ctsss", "tnlll"])
    roll(state, "a", "e")
    assert word("at") not in state.legal_actions() and word("cat") in state.legal_actions()
    with pytest.raises(IllegalAction):
        state.apply(word("at"))


def test_a_word_uses_consonant_cards_and_one_or_more_rolled_vowels(game, defs):
    assert defs.build("cat", ["c", "t"], ("a", "e")) is not None
    assert defs.build("aye", ["c", "t"], ("a", "e")) is None  # no consonant card
    assert defs.build("shy", ["s", "h", "y"], ("a", "e")) is None  # no rolled vowel
    assert defs.build("cot", ["c", "t"], ("a", "e")) is None  # O was not rolled
    state = arrange(game, ["ctsss", "tnlll"])
    roll(state, "a", "e")
    with pytest.raises(IllegalAction):
        state.apply(word("cot"))
    with pytest.raises(IllegalAction):
        state.apply(word("xyzzy"))


def test_vowels_score_one_point_each(defs):
    # the rulebook's example: with E and A, CRATE scores 7 and CREATE 8 (C3 R1 T1)
    assert defs.build("crate", list("crt"), ("e", "a")) == (("c", "r", "t"), 7)
    assert defs.build("create", list("crt"), ("e", "a")) == (("c", "r", "t"), 8)


def test_a_rolled_vowel_may_be_used_any_number_of_times(defs):
    assert defs.build("create", list("crt"), ("e", "a"))[1] == 3 + 1 + 1 + 1 + 1 + 1  # E twice
    assert defs.build("teeth", list("tth"), ("e", "o")) == (("h", "t", "t"), 1 + 1 + 3 + 1 + 1)


def test_wild_is_any_vowel_including_y_and_scores_nothing(defs):
    p = defs.points  # card points come from consonants.yaml
    assert defs.build("boat", list("bt"), ("o", W.WILD)) == (("b", "t"), p["b"] + 1 + 0 + p["t"])  # the rulebook's BOAT
    assert defs.build("sky", list("sk"), ("a", W.WILD)) == (("k", "s"), p["s"] + p["k"] + 0)  # WILD as Y
    assert defs.build("sky", list("sk"), ("a", "e")) is None
    assert defs.build("music", list("msc"), (W.WILD, W.WILD)) == (("c", "m", "s"), p["m"] + 0 + p["s"] + 0 + p["c"])
    assert defs.build("mousse", list("mss"), (W.WILD, W.WILD)) is None  # two wilds name two vowels, not three


def test_using_all_five_cards_scores_ten_bonus_points(game):
    state = arrange(game, ["hnstt", "tnlll"])
    roll(state, "a", "e")
    race(state, {0: word("tenths"), 1: word("ten")}, {0: FAST, 1: SLOW})
    tenths = state.logs[-1].placed[0]
    assert tenths.all_bonus == 10 and tenths.first_bonus == 3
    assert state.scores[0] == (1 + 1 + 1 + 1 + 3 + 1) + 10 + 3


def test_words_challenged_correctly_cost_their_player_the_word_value(game, defs):
    state = arrange(game, ["lltss", "tnlll", "ntrrr"])
    roll(state, "a", "e")
    bluff = defs.bluff_word("ll", ("a", "e"))
    assert bluff not in defs.words
    race(state, {0: ("bluff", "ll"), 1: word("ten"), 2: word("net")}, {0: FAST, 1: 30, 2: SLOW}, {1: (0,)})
    placed = state.logs[-1].placed[0]
    assert (placed.word, placed.challenger, placed.valid) == (bluff, 1, False)
    assert state.scores[0] == -(2 * defs.points["l"] + 1 + 3)  # L, A, L and the first-word bonus it claimed
    assert state.scores[1] == 3  # TEN; the bonus went with the invalid word
    assert sorted(state.hands[0]) == sorted("lltss")  # the word is taken back


def test_a_wrong_challenger_loses_the_word_value(game):
    state = arrange(game, ["ctsss", "tnlll", "ntrrr"])
    roll(state, "a", "e")
    race(state, {0: word("cat"), 1: word("ten"), 2: word("net")}, {0: FAST, 1: 30, 2: SLOW}, {2: (0, 1), 1: (0,)})
    cat, ten = state.logs[-1].placed
    assert cat.challenger == 1  # the first challenger clockwise from CAT's player settles it
    assert ten.challenger == 2
    assert state.scores == [5 + 3, 3 - 8, 1 - 3]


def test_challenges_can_be_switched_off(game):
    state = arrange(game, ["ctsss", "tnlll"], options={"challenges": False})
    roll(state, "a", "e")
    assert not any(action[0] == "bluff" for action in state.legal_actions())
    with pytest.raises(IllegalAction):
        state.apply(("bluff", "ss"))
    race(state, {0: word("cat"), 1: word("ten")}, {0: FAST, 1: SLOW})
    assert state.phase == W.DEAL  # scored straight away: no challenge phase


# -- between rounds ---------------------------------------------------------------------------------

def test_played_cards_are_discarded_after_the_round(game):
    state = arrange(game, ["ctsss", "tnlll", "ntrrr"], deck="")
    state.discard = Counter()  # only this round's cards will be in the pile
    state.deck = {letter: 0 for letter in state.deck}
    state.discard.update(Counter(state.defs.totals) - Counter("ctssstnlllntrrr"))
    before = Counter(state.discard)
    roll(state, "a", "e")
    race(state, {0: word("cat"), 1: word("ten"), 2: word("net")}, {0: FAST, 1: 30, 2: SLOW})
    assert state.discard - before == Counter("ctnt")
    assert not state.placed  # the table is clear for the next round


def test_the_player_with_the_first_word_starts_the_next_round(game):
    state = arrange(game, ["ctsss", "tnlll", "ntrrr"], starter=0)
    roll(state, "a", "e")
    race(state, {0: word("cat"), 1: word("ten"), 2: word("net")}, {0: SLOW, 1: 30, 2: FAST})
    assert state.starter == 2


def test_refill_draws_one_card_at_a_time_from_the_starter_clockwise(game):
    state = arrange(game, ["ctsss", "tnlll", "ntrrr"])
    roll(state, "a", "e")
    race(state, {0: word("cat"), 1: word("ten"), 2: word("net")}, {0: SLOW, 1: 30, 2: FAST})
    assert [len(hand) for hand in state.hands] == [5, 3, 3]
    order = []
    while state.phase == W.DEAL:
        order.append(draw(state, "t"))
    assert order == [2, 1, 2, 1]  # starter 2 first; seat 0 is full and is skipped
    assert [len(hand) for hand in state.hands] == [5, 5, 5] and state.phase == W.ROLL


def test_refill_stops_when_the_deck_is_empty(game):
    state = arrange(game, ["ctsss", "tnlll", "ntrrr"], deck="tt")
    roll(state, "a", "e")
    race(state, {0: word("cat"), 1: word("ten"), 2: word("net")}, {0: SLOW, 1: 30, 2: FAST})
    assert [draw(state, "t"), draw(state, "t")] == [2, 1]
    assert state.phase == W.ROLL and [len(hand) for hand in state.hands] == [5, 4, 4]


def test_game_ends_when_the_deck_is_empty_and_a_player_is_out_of_cards(game):
    state = arrange(game, ["ct", "tnlll", "ntrrr"], deck="")
    roll(state, "a", "e")
    race(state, {0: word("cat"), 1: word("ten"), 2: word("net")}, {0: FAST, 1: 30, 2: SLOW})
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.ended_by == "deck empty and a player out of cards"


def test_game_ends_when_a_player_has_no_card_to_begin_a_round(game):
    state = arrange(game, ["ct", "tn", "ntrrr"], deck="s")
    roll(state, "a", "e")
    race(state, {0: word("cat"), 1: word("ten"), 2: word("net")}, {0: FAST, 1: 30, 2: SLOW})
    assert not state.is_terminal()  # one card left in the deck: the round ended normally
    assert draw(state, "s") == 0  # the starter draws it; seat 1 gets nothing
    assert state.is_terminal() and state.ended_by == "no card to begin a round"


def test_the_game_goes_on_while_every_player_has_a_card(game):
    state = arrange(game, ["ct", "tnlll", "ntrrr"], deck="s")
    roll(state, "a", "e")
    race(state, {0: word("cat"), 1: word("ten"), 2: word("net")}, {0: FAST, 1: 30, 2: SLOW})
    draw(state, "s")
    assert state.phase == W.ROLL


def test_with_the_deck_empty_three_rounds_without_a_word_end_the_game(game):
    state = arrange(game, ["qj", "xz"], deck="")  # no word whatever the dice roll
    for number in (1, 2, 3):
        assert not state.is_terminal(), number
        roll(state, "a", "e")
        race(state, {})
    assert state.is_terminal() and state.ended_by == "no word for 3 rounds with the deck empty"
    assert state.turns == 3


def test_a_word_standing_or_cards_in_the_deck_restart_the_count_of_dry_rounds(game):
    state = arrange(game, ["qjt", "xzn"], deck="", options={"dry_rounds": 2})
    roll(state, "a", "e")
    race(state, {})
    roll(state, "a", "e")
    race(state, {0: word("at")})  # a word stands: the count starts again
    assert not state.is_terminal() and state.dry_rounds == 0
    roll(state, "a", "e")
    race(state, {})
    assert not state.is_terminal()
    roll(state, "a", "e")
    race(state, {})
    assert state.is_terminal() and state.ended_by == "no word for 2 rounds with the deck empty"


def test_points_left_in_hand_are_deducted_at_the_end(game, defs):
    state = arrange(game, ["ct", "tnlll", "qzrrr"], deck="")
    roll(state, "a", "e")
    race(state, {0: word("cat"), 1: word("ten"), 2: W.PASS}, {0: FAST, 1: SLOW})
    assert state.is_terminal()
    # seat 1 keeps L L L, seat 2 Q Z R R R and scores the last point
    p = defs.points
    kept_1, kept_2 = 3 * p["l"], p["q"] + p["z"] + 3 * p["r"]
    assert state.scores == [p["c"] + 1 + p["t"] + 3, 3 - kept_1, 1 - kept_2]
    assert state.deducted == [0, kept_1, kept_2]


def test_the_highest_score_wins_and_ties_share_the_win(game):
    state = arrange(game, ["ct", "tnlll", "qzrrr"], deck="")
    roll(state, "a", "e")
    race(state, {0: word("cat"), 1: word("ten")}, {0: FAST, 1: SLOW})
    assert state.outcome().winners == [0]
    state.scores = [5, 5, 1]
    assert state.outcome().winners == [0, 1]


# -- the engine ----------------------------------------------------------------------------------------

def test_the_registry_finds_the_engine(game):
    assert engine_for(game.spec.rules.get("engine", game.id)) is W.RULES
    assert W.RULES.id == "word-to-the-wise" and W.RULES.length_unit == "rounds"


@pytest.mark.parametrize("players", [2, 4, 8])
def test_invariants_hold_after_every_action(game, players):
    for seed in range(3 if players != 2 else 1):
        lineup = [W.RULES.heuristic_player(1.0), W.RULES.heuristic_player(0.0), RandomPlayer()] * 3
        outcome = play_game(W.RULES, game, lineup[:players], seed, check=True)
        assert not outcome.stalled and outcome.turns > 0


def test_invariants_catch_a_lost_or_duplicated_card_and_a_wrong_score(game):
    state = arrange(game, ["ctss", "tnlll"])
    state.hands[0].append("q")
    with pytest.raises(InvariantError, match="duplicated"):
        state.check_invariants()
    state = arrange(game, ["ctsss", "tnlll"])
    state.hands[1].pop()
    with pytest.raises(InvariantError, match="lost") as error:
        state.check_invariants()
    assert "duplicated" not in str(error.value)
    state.hands[1].append("l")
    state.discard["l"] += 1
    with pytest.raises(InvariantError, match="duplicated"):
        state.check_invariants()
    state = arrange(game, ["ctsss", "tnlll"])
    roll(state, "a", "e")
    race(state, {0: word("cat"), 1: word("ten")}, {0: FAST, 1: SLOW})
    state.scores[0] += 1
    with pytest.raises(InvariantError, match="scores"):
        state.check_invariants()
    state.scores[0] -= 1
    with pytest.raises(AttributeError):
        state.logs[-1].placed[0].first_bonus = 0  # a scored round cannot change in place
    log = state.logs[-1]
    state.logs[-1] = log._replace(placed=(log.placed[0]._replace(first_bonus=0),) + log.placed[1:])
    with pytest.raises(InvariantError, match="bonuses"):
        state.check_invariants()  # the replaced round is replayed, though the one before it was checked


def test_the_same_seed_gives_the_same_game(game):
    seats = [W.RULES.heuristic_player(1.0), W.RULES.heuristic_player(0.5), RandomPlayer()]
    first = play_game(W.RULES, game, seats, 11)
    again = play_game(W.RULES, game, seats, 11)
    other = play_game(W.RULES, game, seats, 12)
    assert (first.scores, first.turns, first.figures) == (again.scores, again.turns, again.figures)
    assert first.scores != other.scores


@pytest.mark.slow
def test_word_lists_agree_with_the_word_finder(game, defs):
    finder = WordFinder(defs.words)
    deck = [c for c, n in defs.totals.items() if c != "y" for _ in range(n)]
    rng = random.Random(5)
    for _ in range(40):
        hand = "".join(sorted(rng.sample(deck, 5)))
        faces = (rng.choice(defs.dice[0]), rng.choice(defs.dice[1]))
        rolled, wilds = defs.roll_key(faces)
        ours = {w for _, _, w in defs.all_words(hand, faces)}
        # the engine's rules on top of the finder's: a card used, a die used, Y from a WILD only once
        theirs = {m.word for m in finder.find(hand, reusable=rolled, reusable_wilds=wilds)
                  if len([c for c in m.word if c not in W.DIE_VOWELS]) > m.word.count("y")
                  and m.word.count("y") <= 1 and (set(m.word) & W.DIE_VOWELS or "y" in m.word)}
        assert ours == theirs, (hand, faces)
        for w in ours:
            assert defs.build(w, list(hand), faces) is not None


def test_the_word_tables_score_and_count_as_the_rules_read_plainly(game, defs):
    """The kept tables the heuristic and the move counts read (best word of each length, word counts,
    a word's worth) against a plain reading: the finder's words for the hand and dice, each scored by
    the rules; among equal points the word of the first part of the hand (sub_multisets' order) wins,
    then A-Z, and a word of every card then counts its bonus."""
    finder = WordFinder(defs.words)
    p = defs.p
    deck = [c for c, n in defs.totals.items() for _ in range(n)]
    rng = random.Random(11)
    checked = 0
    for _ in range(40):
        hand = "".join(sorted(rng.sample(deck, 5)))
        faces = (rng.choice(defs.dice[0]), rng.choice(defs.dice[1]))
        rolled, wilds = defs.roll_key(faces)
        parts = {part: i for i, part in enumerate(sub_multisets(hand))}
        expected: dict[int, tuple] = {}
        whole = []
        words = set()
        for w in {m.word for m in finder.find(hand, reusable=rolled, reusable_wilds=wilds)}:
            cards = [c for c in w if c not in W.DIE_VOWELS]
            y_wild = "y" in cards and "y" not in hand  # with no Y card, a WILD names the Y: once
            if y_wild:
                cards.remove("y")
            # a card used, and a die (a vowel, or a WILD as the Y)
            if (y_wild and "y" in cards) or not cards or not (set(w) & W.DIE_VOWELS or y_wild):
                assert defs.build(w, list(hand), faces) is None, (hand, faces, w)
                continue
            words.add(w)
            value = sum(defs.points[c] for c in cards) + (p.wild_points if y_wild else 0)
            value += sum(p.vowel_points if v in rolled else p.wild_points for v in w if v in W.DIE_VOWELS)
            assert defs.build(w, list(hand), faces) == (tuple(sorted(cards)), value), (hand, faces, w)
            rank = (-value, parts[key("".join(cards))], w)
            if rank < expected.get(len(w), (math.inf,)):
                expected[len(w)] = rank
            if len(cards) == p.hand_size:
                whole.append((len(w), value + p.all_cards_bonus, w))
        best = {letters: (-rank[0], rank[2]) for letters, rank in expected.items()}
        for letters, value, w in whole:
            if value > best[letters][0] or value == best[letters][0] and w < best[letters][1]:
                best[letters] = (value, w)
        assert defs.best_by_length(hand, faces) == best, (hand, faces)
        assert defs.choices(hand, faces, 1.0, 4) == (defs.pick(best, 4) if best else None)
        taken = frozenset(sorted(words)[:2] + ["qqq"])
        assert defs.count_words(hand, faces, taken) == len(words - taken), (hand, faces)
        checked += len(words)
    assert checked > 500


def test_every_legal_word_can_be_played(game):
    state = arrange(game, ["hnstt", "ctsss"])
    roll(state, "a", W.WILD)
    for action in state.legal_actions():
        if action[0] == "word":
            assert state._word_target(0, action)[0] == action.word


def test_outcome_reports_letters_played_and_round_figures(game):
    seats = [W.RULES.heuristic_player(1.0) for _ in range(4)]
    outcome = play_game(W.RULES, game, seats, 2)
    assert outcome.figures["rounds"] == outcome.turns
    assert sum(outcome.figures[f"first_words_seat{s}"] for s in range(1, 5)) <= outcome.turns
    assert outcome.played and all(key.startswith("letter:") and seats_ <= {0, 1, 2, 3}
                                  for key, seats_ in outcome.played.items())
    assert outcome.figures["ended_deck_empty"] + outcome.figures["ended_no_card_to_begin"] == 1


@pytest.mark.slow
def test_a_skilled_player_beats_unskilled_players_more_often_than_its_fair_share(game):
    wins = 0.0
    for seed in range(40):
        offset = seed % 4
        seats = [W.RULES.heuristic_player(0.0) for _ in range(4)]
        seats[offset] = W.RULES.heuristic_player(1.0)
        outcome = play_game(W.RULES, game, seats, seed)
        wins += (offset in outcome.winners) / len(outcome.winners)
    assert wins / 40 > 0.4



def test_the_readme_boat_and_boot_example_matches_the_card_points(game):
    """The README works the rulebook's BOOT/BOAT example with the YAML's points: keep them in step."""
    import re

    readme = (game.root / "README.md").read_text()
    defs = W.definitions(game)
    worked = re.findall(r"(BOAT|BOOT) is ((?:[A-Z]\d )+)= (\d+)", readme)
    assert {word for word, _, _ in worked} == {"BOAT", "BOOT"}
    for word, spelled, total in worked:
        letters = re.findall(r"([A-Z])(\d)", spelled)
        assert "".join(letter for letter, _ in letters) == word
        consonants = [letter.lower() for letter in word if letter not in "AEIOU"]
        for letter, points in letters:
            if letter.lower() in consonants:
                assert int(points) == defs.points[letter.lower()], f"README {word}: {letter}{points}"
        assert defs.build(word.lower(), consonants, ("o", W.WILD)) == (tuple(sorted(consonants)), int(total))
    create = re.search(r"CREATE with E and A scores ((?:[A-Z]\d )+)= (\d+)", readme)
    assert create and defs.build("create", list("crt"), ("e", "a")) == (("c", "r", "t"), int(create[2]))


def test_every_card_value_the_readme_names_is_the_yaml_value(game):
    """Card points written as letter and number (B4, Q10) anywhere in the README are the YAML's points."""
    import re

    readme = (game.root / "README.md").read_text()
    named = re.findall(r"\b([B-DF-HJ-NP-TV-Z])(\d{1,2})\b", readme)
    assert {letter for letter, _ in named} >= {"B", "C", "J", "Q", "X", "Z"}
    points = W.definitions(game).points
    assert [f"{letter}{value}" for letter, value in named if int(value) != points[letter.lower()]] == []


def test_asking_about_one_choice_answers_as_the_full_list_does(game):
    """--check asks `action in state.legal_actions()`, the runner's move counts `len()`; the race's
    choices and the challenges answer both without listing every word or set, and must agree with the list on every action,
    near miss and count."""
    rules = W.RULES
    asked = challenges = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = rules.new_state(game, 3, {"challenges": True} if seed % 2 else None)
        seats = [rules.heuristic_player(1.0), RandomPlayer(), rules.heuristic_player(0.5)]
        while state.current_player() != TERMINAL and state.turns < 12:
            seat = state.current_player()
            if seat == CHANCE:
                actions, weights = zip(*state.chance_outcomes(), strict=False)
                state.apply(rng.choices(actions, weights)[0])
                continue
            if state.phase in (W.state.CHOOSE, W.state.RECHOOSE):
                listed = list(state.legal_actions())
                assert len(state.legal_actions()) == len(listed)  # counted without listing (the runner's move counts)
                words = [action[1] for action in listed if action[0] == "word"]
                misses = [("word", w + "s") for w in words[:20]] + [("word", w[1:]) for w in words[:20]]
                misses += [("word", w) for w in state.taken] + [("bluff", "zz"), ("bluff", ""), ("word", 7), ("nope",)]
                misses += [("bluff", action[1][::-1]) for action in listed if action[0] == "bluff"][:10]
                for action in listed + misses:
                    assert (action in state.legal_actions()) == (action in listed), action
                    asked += 1
            if state.phase == W.state.CHALLENGE:
                listed = list(state.legal_actions())
                assert len(state.legal_actions()) == len(listed)
                others = sorted({seat for action in listed for seat in action[1]})
                misses = [("challenge", (state._actor,)), ("challenge", tuple(reversed(others))),
                          ("challenge", tuple(others) * 2), ("challenge", list(others)), ("challenge",), ("pass",)]
                for action in listed + misses:
                    assert (action in state.legal_actions()) == (action in listed), action
                    challenges += 1
            state.apply(seats[seat].act(state, seat, rng))
    assert asked > 1000
    assert challenges > 100


def test_actions_are_named_tuples_equal_to_and_printed_as_their_plain_tuples(game):
    state = arrange(game, ["ctsss", "tnlll"])
    roll(state, "a", "e")
    moves = list(state.legal_actions())
    assert {type(move) for move in moves} == {A.Pass, A.Word, A.Bluff}
    cat = next(move for move in moves if move == ("word", "cat"))
    assert (cat.word, repr(cat)) == ("cat", "('word', 'cat')")
    assert A.typed(("bluff", "ss")).cards == "ss" and A.typed(("challenge", (0, 2))).seats == (0, 2)
    assert A.typed(cat) is cat
    for bad in [("spell", "cat"), ("word",), ("word", "cat", 1), (), "word", ("time", 1, 2), (7, "cat")]:
        with pytest.raises(IllegalAction):
            A.typed(bad)


def test_each_verb_is_played_only_in_its_own_phase(game):
    state = arrange(game, ["ctsss", "tnlll"])
    for wrong in [("word", "cat"), A.PASS, ("time", 3), ("first", 0), ("challenge", ()), ("draw", "t")]:
        with pytest.raises(IllegalAction, match="roll phase"):
            state.apply(wrong)
    roll(state, "a", "e")
    with pytest.raises(IllegalAction, match="choose phase"):
        state.apply(("die", "a"))
    state.apply(A.Word("word", "cat"))  # the named tuple and the plain one are the same move
    state.apply(("word", "ten"))
    assert state.phase == W.TIME and state.targets == [("word", "cat"), ("word", "ten")]


def test_rolled_vowel_letters_counted_in_one_number_match_counting_letters(defs):
    """A word's vowel letters the dice show, read from its byte-packed counts, equal counting each rolled
    vowel in the word, for every set of rolled vowels and words of the game's lexicon (repeats included)."""
    from itertools import combinations

    from spellpress.rules.word_to_the_wise.content import _ROLLED_MASKS, _rolled_letters, _vowel_bits, _vowel_counts

    words = sorted(defs.words)[::97] + ["aeiou", "queueing", "rhythm", "a" * 40 + "u" * 30]
    rolls = ["".join(r) for n in range(6) for r in combinations("aeiou", n)]
    for word in words:
        counts = _vowel_counts(word)
        for rolled in rolls:
            assert _rolled_letters(counts, _ROLLED_MASKS[_vowel_bits(rolled)]) == sum(map(word.count, rolled)), (word, rolled)
