"""Word Rummy, the YAML-configured letter-card engine: each rule has a test that fails when the
rule is broken, on the shipped game and on a new deck configured with a few rules: keys."""

from __future__ import annotations

import json
import shutil

import pytest
import yaml

from spellpress.cli import main
from spellpress.load.game import load_game
from spellpress.rules.protocol import CHANCE, IllegalAction, InvariantError, RandomPlayer
from spellpress.rules.word_rummy import RULES
from spellpress.rules.word_rummy.state import DISCARD, DRAW, FROM_DECK, FROM_DISCARD, OVER
from spellpress.simulate.play import play_game
from tests.conftest import ROOT

RUMMY = ROOT / "cards" / "word-rummy"


@pytest.fixture(scope="module")
def game():
    return load_game(RUMMY)


def deal(state, cards):
    """Play the chance events of the deal (and the flip) with the given cards, in order."""
    for card in cards:
        assert state.current_player() == CHANCE
        state.apply(("card", card))


def deal_hands(state, hands, flip):
    """Deal these hands (one string of cards a seat, from the starter on) and flip `flip`."""
    deal(state, [hand[i] for i in range(len(hands[0])) for hand in hands] + [flip])


def new(game, players=2, **options):
    return RULES.new_state(game, players, options)


def test_each_round_deals_a_growing_hand_one_card_at_a_time_from_the_starter(game):
    state = new(game, 3)
    assert state.hand_size == 4
    deal(state, "abcdefghijkl")
    assert state.hands == [list("adgj"), list("behk"), list("cfil")]
    deal(state, "e")  # the flip
    assert state.discard == ["e"] and state.phase == DRAW and state.current_player() == 0
    assert [new(game, 3, hand_start=3, hand_growth=2).settings.hand_size(r) for r in range(3)] == [3, 5, 7]


def test_the_deck_is_drawn_by_chance_weighted_by_the_cards_left(game):
    state = new(game)
    outcomes = dict(state.chance_outcomes())
    assert outcomes[("card", "e")] == pytest.approx(11 / 112)
    assert outcomes[("card", "qu")] == pytest.approx(1 / 112)
    assert sum(outcomes.values()) == pytest.approx(1)


def test_the_state_draws_the_card_the_outcome_list_gives_for_the_same_random_number(game):
    import random

    from spellpress.rules.chance import draw_chance

    state, rng, draws = new(game, 2), random.Random(39), 0
    while state.phase != OVER:
        if state.current_player() == CHANCE:
            for seed in range(5):  # a deck down to a few kinds as well as a full one
                assert state.sample_chance(random.Random(seed)) == draw_chance(state.chance_outcomes(), random.Random(seed))
            draws += 1
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    assert draws > 100


def test_a_turn_draws_from_the_deck_or_the_discard_pile_then_discards(game):
    state = new(game)
    deal_hands(state, ["cats", "dogs"], "x")
    assert state.legal_actions() == [FROM_DECK, FROM_DISCARD]
    state.apply(FROM_DISCARD)
    assert sorted(state.hands[0]) == list("acstx") and state.phase == DISCARD and not state.discard
    with pytest.raises(IllegalAction):
        state.apply(("discard", "q", False))
    state.apply(("discard", "s", False))
    assert state.discard == ["s"] and state.current_player() == 1 and state.turns == 1
    no_discard_draws = new(game, draw_from_discard=False)
    deal_hands(no_discard_draws, ["cats", "dogs"], "x")
    assert no_discard_draws.legal_actions() == [FROM_DECK]
    with pytest.raises(IllegalAction):
        no_discard_draws.apply(FROM_DISCARD)


def test_going_out_needs_a_hand_of_words_and_gives_every_other_seat_one_last_turn(game):
    state = new(game, 3)
    deal_hands(state, ["catk", "bvwg", "xzfm"], "j")
    assert sorted(state.hands[0]) == ["a", "c", "k", "t"]
    state.apply(FROM_DECK)
    state.apply(("card", "s"))
    actions = state.legal_actions()
    assert ("discard", "k", True) in actions  # a, c, s, t: "cats" (or "acts")
    assert ("discard", "a", True) not in actions  # c, k, s, t: no word
    with pytest.raises(IllegalAction):
        state.apply(("discard", "a", True))
    state.apply(("discard", "k", True))
    assert state.went_out == 0
    for seat in (1, 2):
        assert state.current_player() == seat
        state.apply(FROM_DISCARD)
        assert all(not action[2] for action in state.legal_actions())  # nobody else goes out
        state.apply(state.legal_actions()[0])
    assert state.round == 1 and state.phase != DRAW or state.current_player() == CHANCE  # the next round deals


def test_a_hand_scores_its_words_less_its_unplayed_cards_plus_bonuses(game):
    state = new(game, 3)
    c = state.content
    split = c.best(tuple(sorted("catz")))
    assert split.unplayed == ("z",) and split.words[0][0] in ("act", "cat")
    assert split.score == c.points["c"] + c.points["a"] + c.points["t"] - c.points["z"]
    for hand in ("catsxz", "dogsae", "quiet*r", "thereby"):
        cards = tuple(sorted([hand[i:i + 2] if hand[i:i + 2] in ("qu", "th", "er", "in") else hand[i]
                              for i in range(len(hand))]))
        split = c.best(cards)
        used = sorted([card for _, word_cards in split.words for card in word_cards] + list(split.unplayed))
        assert used == sorted(cards)  # every card once: in one word or unplayed
        assert all(len(word) >= 3 for word, _ in split.words)
        assert split.score == (sum(c.points[k] for _, w in split.words for k in w)
                               - sum(c.points[k] for k in split.unplayed))
    state.hands = [list("catsxz"), list("dogsae"), list("hen")]
    state.went_out = 2
    splits = state.splits()
    s = state.settings
    bonus = [s.all_cards_bonus if split.uses_every_card else 0 for split in splits]
    longest = [split.longest for split in splits]
    if longest.count(max(longest)) == 1:
        bonus[longest.index(max(longest))] += s.longest_word_bonus
    words = [len(split.words) for split in splits]
    if words.count(max(words)) == 1:
        bonus[words.index(max(words))] += s.most_words_bonus
    bonus[2] += s.go_out_bonus
    assert splits[2].uses_every_card and sum(bonus) > 0
    assert state.round_points(splits) == [split.score + b for split, b in zip(splits, bonus, strict=False)]


def test_a_tie_for_the_longest_word_or_most_words_earns_nobody_the_bonus(game):
    state = new(game, 2, all_cards_bonus=0)
    state.hands = [list("cat"), list("dog")]
    assert state.round_points(state.splits()) == [state.content.best(("a", "c", "t")).score,
                                                   state.content.best(("d", "g", "o")).score]
    state.hands = [list("cats"), list("dog")]
    bonus = state.settings.longest_word_bonus
    assert state.round_points(state.splits())[0] == state.content.best(tuple(sorted("cats"))).score + bonus


def test_digraph_and_wild_cards_make_words(game):
    state = new(game)
    split = state.content.best(("e", "e", "n", "qu"))
    assert split.uses_every_card and split.words[0][0] == "queen"
    wild = state.content.best(("*", "c", "t"))
    assert wild.uses_every_card and len(wild.words[0][0]) == 3
    assert wild.score == state.content.points["c"] + state.content.points["t"] + state.content.points["*"]


@pytest.mark.slow
def test_the_game_ends_after_its_rounds_or_at_the_target_score(game):
    outcome = play_game(RULES, game, [RULES.heuristic_player()] * 2, 5, check=True)
    assert outcome.figures["rounds"] == 6
    short = RULES.new_state(game, 2, {"rounds": 2})
    seats = [RULES.heuristic_player()] * 2
    assert play_game_from(short, seats, 5).figures["rounds"] == 2
    target = RULES.new_state(game, 2, {"rounds": 30, "target_score": 40, "hand_growth": 0})
    result = play_game_from(target, seats, 5)
    assert max(result.scores) >= 40 and result.figures["rounds"] < 30
    assert target.round_scores and max(sum(r) for r in zip(*target.round_scores[:-1], strict=False)) < 40


def play_game_from(state, seats, seed):
    import random

    rng = random.Random(seed)
    while state.phase != OVER:
        seat = state.current_player()
        if seat == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply(rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0])
        else:
            state.apply(seats[seat].act(state, seat, rng))
        state.check_invariants()
    return state.outcome()


def test_an_empty_deck_is_reshuffled_once_then_ends_the_round(game):
    state = new(game)
    deal_hands(state, ["cats", "dogs"], "e")
    state.deck.clear()
    state.deck_size = 0
    state.discard = ["x", "y", "e"]
    assert state.legal_actions() == [FROM_DECK, FROM_DISCARD]
    state.apply(FROM_DECK)
    assert state.discard == ["e"] and state.deck_size == 2 and state.reshuffled
    state.apply(("card", "x"))
    state.apply(("discard", "x", False))
    state.deck.clear()
    state.deck_size = 0
    state.discard = ["x", "y", "e", "x"]
    state.seat = 0
    state._start_turn()
    assert state.round == 1  # no second reshuffle: the round was scored
    ends = new(game, empty_deck="end-round")
    deal_hands(ends, ["cats", "dogs"], "e")
    ends.deck.clear()
    ends.deck_size = 0
    ends.seat = 1
    ends._start_turn()
    assert ends.round == 1


def test_invariants_catch_a_lost_card_and_a_wrong_score(game):
    state = new(game)
    deal_hands(state, ["cats", "dogs"], "e")
    state.check_invariants()
    state.hands[0].pop()
    with pytest.raises(InvariantError):
        state.check_invariants()
    state = new(game)
    deal_hands(state, ["cats", "dogs"], "e")
    state.scores[1] += 1
    state.round_scores = [[0, 0]]
    with pytest.raises(InvariantError):
        state.check_invariants()


@pytest.mark.slow
def test_the_same_seed_plays_the_same_game_and_the_heuristic_beats_random(game):
    seats = [RULES.heuristic_player(), RULES.heuristic_player()]
    assert play_game(RULES, game, seats, 11) == play_game(RULES, game, seats, 11)
    wins = 0
    for seed in range(12):
        lineup = [RULES.heuristic_player(), RandomPlayer()]
        if seed % 2:
            lineup.reverse()
        wins += (seed % 2) in play_game(RULES, game, lineup, seed).winners
    assert wins >= 11


@pytest.mark.slow
def test_a_new_letter_deck_simulates_with_no_python(tmp_path, capsys):
    """A designer's deck: their own letters, the engine named and a few rules: keys."""
    folder = tmp_path / "my-letters"
    folder.mkdir()
    shutil.copytree(RUMMY / "templates", folder / "templates")
    letters = {"name": "Letters", "template": "rummy-letter", "fields": {"letter": "str", "points": "int"},
               "cards": [{"id": k, "letter": k.upper(), "points": p, "count": n} for k, p, n in [
                   ("a", 1, 10), ("e", 1, 12), ("i", 1, 8), ("o", 1, 8), ("u", 2, 4), ("s", 1, 8), ("t", 1, 8),
                   ("r", 1, 8), ("n", 1, 8), ("l", 2, 5), ("d", 2, 5), ("c", 3, 4), ("m", 3, 4), ("p", 3, 3),
                   ("h", 3, 3), ("b", 4, 2), ("g", 3, 3), ("y", 4, 2), ("k", 5, 1), ("w", 4, 2), ("f", 4, 2)]]}
    (folder / "letters.yaml").write_text(yaml.safe_dump(letters))
    spec = {"name": "My Letters", "players": {"min": 2, "max": 4}, "components": ["letters.yaml"],
            "rules": {"engine": "word-rummy", "rounds": 3, "hand_start": 5, "hand_growth": 0, "min_word_length": 3,
                      "most_words_bonus": 0}}
    (folder / "game.yaml").write_text(yaml.safe_dump(spec))
    assert main(["check-engine", str(folder)]) == 0
    capsys.readouterr()
    assert main(["simulate", str(folder), "--games", "30", "--players", "3", "--workers", "1", "--check",
                 "--json", "--luck-games", "0"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 30 and report["stalls"] == 0 and report["figures"]["rounds"] == 3
    assert any(row["key"] == "letters:E" for row in report["components"])


def test_a_deck_that_does_not_fit_is_reported_at_its_cards(tmp_path, capsys):
    folder = tmp_path / "word-rummy"
    shutil.copytree(RUMMY, folder)
    deck = folder / "letters.csv"
    deck.write_text(deck.read_text().replace("\nx,X,", "\nx,X1,").replace("\nz,Z,7,1", "\nz,Z,7,1\nz2,Z,3,1"))
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("hand_start: 4", "hand_start: 40"))
    assert main(["check-engine", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "letters.csv" in err and "not 'X1'" in err and "another Z card has 7 points" in err
    assert "game.yaml" in err and "need" in err


def play_round_one(game, **options):
    """Three seats; seat 1 goes out with CATS, the others keep their unplayable cards."""
    state = new(game, 3, **options)
    deal_hands(state, ["catk", "bvwg", "xzfm"], "j")
    state.apply(FROM_DECK)
    state.apply(("card", "s"))
    state.apply(("discard", "k", True))
    for _ in (1, 2):
        state.apply(FROM_DISCARD)
        state.apply(state.legal_actions()[0])
    return state


def test_the_next_round_deals_one_more_card_from_the_next_starter(game):
    state = play_round_one(game, next_starter="clockwise")
    assert state.round == 1 and state.hand_size == 5 and state.starter == 1
    assert state.deck_size == 112 and not any(state.hands) and not state.discard
    deal(state, "abcdefghijklmno")
    assert state.hands == [list("cfilo"), list("adgjm"), list("behkn")]  # seat 1 was dealt first
    deal(state, "e")
    assert state.current_player() == 1


def test_the_deck_count_is_checked(game):
    state = new(game)
    deal_hands(state, ["cats", "dogs"], "e")
    state.deck_size += 1
    with pytest.raises(InvariantError):
        state.check_invariants()


def test_the_heuristic_takes_a_discard_that_completes_a_word(game):
    state = new(game)
    deal_hands(state, ["catz", "dogs"], "s")
    player = RULES.heuristic_player()
    assert player.act(state, 0, None) == FROM_DISCARD
    state.apply(FROM_DISCARD)
    assert player.act(state, 0, None) == ("discard", "z", True)  # "cats" (or "acts"): out
    other = new(game)
    deal_hands(other, ["catz", "dogs"], "j")
    assert player.act(other, 0, None) == FROM_DECK


def test_the_card_taken_from_the_discard_pile_cannot_go_straight_back(game):
    state = new(game)
    deal_hands(state, ["bint", "cony"], "a")  # the 2-player stall: each took the A and threw it back
    state.apply(FROM_DISCARD)
    assert sorted({action[1] for action in state.legal_actions()}) == ["b", "i", "n", "t"]
    with pytest.raises(IllegalAction):
        state.apply(("discard", "a", False))
    state.apply(("discard", "t", False))
    assert state.discard == ["t"]
    state.apply(FROM_DECK)
    state.apply(("card", "a"))
    assert "a" in [action[1] for action in state.legal_actions()]  # a card drawn from the deck may be discarded
    allowed = new(game, discard_taken_card=True)
    deal_hands(allowed, ["bint", "cony"], "a")
    allowed.apply(FROM_DISCARD)
    assert ("discard", "a", False) in allowed.legal_actions()


def test_a_two_player_game_ends_without_the_turn_cap(game):
    # seed 1's game 16 stalled at the cap of 5,000 turns when the taken card could go straight back
    from spellpress.simulate.runner import game_seed

    players = [RULES.heuristic_player(), RULES.heuristic_player()]
    outcome = play_game(RULES, game, players, game_seed(1, 16))
    assert not outcome.stalled and outcome.turns < 100


def test_the_search_player_sees_only_its_own_hand(game):
    import random

    state = new(game, 3)
    deal_hands(state, ["cats", "dogs", "pine"], "x")
    seen = state.determinize(0, random.Random(1))
    assert seen.hand(0) == state.hand(0) and seen.discard == state.discard
    assert (seen.hand(1), seen.hand(2)) != (state.hand(1), state.hand(2))
    assert state.determinize(0, random.Random(2)).hands[1:] != seen.hands[1:]  # a fresh deal for each generator
    assert [len(hand) for hand in seen.hands] == [4, 4, 4]
    seen.check_invariants()  # every card still in one place
    seen.apply(FROM_DECK)
    assert state.phase == DRAW and len(state.hands[0]) == 4  # the copy plays on alone


def test_with_next_starter_trailing_the_seat_with_fewest_points_starts_the_round(game):
    state = play_round_one(game, next_starter="trailing")
    fewest = min(state.scores)
    assert state.scores.index(fewest) == 2 and state.scores.count(fewest) == 1  # X, Z and F left unplayed
    assert state.round == 1 and state.starter == 2 and play_round_one(game, next_starter="clockwise").starter == 1
    deal(state, "abcdefghijklmno")
    assert state.hands[2] == list("adgjm")  # the trailing seat is dealt first
    deal(state, "e")
    assert state.current_player() == 2
    state.scores = [10, 4, 4]
    state.round, state.starter = 2, 1
    assert state._next_starter() == 2  # a tie: the first of them clockwise after the last starter


@pytest.mark.slow
def test_a_hand_one_card_short_is_valued_as_if_searched_alone(game):
    """value_without reads the best split of a hand less one card off the whole hand's search (issue
    39): the score and whether it uses every card are those a search of the smaller hand alone gives,
    with wilds too (a wild may stand for the letter of the card left out); without a wild the very
    split is kept, words and unplayed cards alike."""
    import random
    from collections import Counter

    from spellpress.rules.word_rummy.content import _Family, hand_without

    content = new(game, 2).content
    deck = list(Counter(content.counts).elements())
    rng = random.Random(39)
    checked = {"wild": 0, "plain": 0}
    for _ in range(100):
        hand = rng.sample(deck, rng.randint(5, 10))
        if rng.random() < 0.5:  # a wild in half the hands: the deck has three in 110 cards
            hand[0] = content.wild
        hand = tuple(sorted(hand))
        for kind in sorted(set(hand)):
            content._splits.clear()
            content._values.clear()
            alone = _Family(content, hand_without(hand, kind)).split(None)
            assert content.value_without(hand, kind) == (alone.score, alone.uses_every_card), (hand, kind)
            if content.wild not in hand:
                assert content.best(hand_without(hand, kind)) == alone, (hand, kind)
            checked["wild" if content.wild in hand else "plain"] += 1
    assert min(checked.values()) > 200, checked


def seeded_plain_hands(content, seed: int, count: int):
    """Seeded hands of 5 to 11 cards without a wild (the bounds of _discard_bounded need none)."""
    import random
    from collections import Counter

    deck = [kind for kind in Counter(content.counts).elements() if kind != content.wild]
    rng = random.Random(seed)
    return [tuple(sorted(rng.sample(deck, rng.randint(5, 11)))) for _ in range(count)]


@pytest.mark.slow
def test_the_bounded_discard_chooses_what_searching_every_card_chooses_with_fewer_searches(game, monkeypatch):
    """_discard_bounded (issue 39) settles most discards from the hand's best split: it picks the very
    action _discard_searched picks (ties included: the first of equal keys), and searches fewer cards."""
    from spellpress.rules.word_rummy.players import RummyHeuristic
    from spellpress.rules.word_rummy.state import Discard

    state = new(game, 2)
    content, player = state.content, RummyHeuristic()
    searched = {"bounded": 0, "every": 0}
    value_without = type(content).value_without
    counting = "every"

    def counted(self, hand, kind):
        searched[counting] += 1
        return value_without(self, hand, kind)

    monkeypatch.setattr(type(content), "value_without", counted)
    for number, hand in enumerate(seeded_plain_hands(content, 39, 150)):
        kinds = sorted(set(hand))
        if number % 3 == 0 and len(kinds) > 1:  # the card taken from the discard pile may not go back
            kinds.remove(kinds[number % len(kinds)])
        actions = [Discard("discard", kind, False) for kind in kinds]
        counting = "every"
        want = player._discard_searched(state, hand, actions)
        counting = "bounded"
        assert player._discard_bounded(state, hand, actions) == want, hand
    assert searched["bounded"] < searched["every"] / 2, searched


@pytest.mark.slow
def test_the_draw_values_the_hand_now_as_a_search_of_it_does(game):
    """The draw's shortcut (issue 39): without a wild, when the taken hand's best split leaves the top card
    out, the hand now is valued from that split; the decision is the one a search of the hand now gives."""
    from spellpress.rules.word_rummy.players import RummyHeuristic

    state = new(game, 2)
    content, player, settings = state.content, RummyHeuristic(), state.settings
    shortcut = 0
    for hand in seeded_plain_hands(content, 40, 200):
        state.hands[0], state.discard, state.phase, state.seat = list(hand[1:]), [hand[0]], DRAW, 0
        taken = content.best(hand)
        now = content.value_without(hand, hand[0])[0]
        if taken.unplayed:
            after = taken.score + settings.unplayed_penalty * max(content.points[kind] for kind in taken.unplayed)
        else:
            after = taken.score - min(content.points[kind] for kind in hand[1:])
        want = FROM_DISCARD if after >= now + settings.skill_margin else FROM_DECK
        content._values.clear()  # the draw may not read the search of the hand now off the memo
        assert player._draw(state, 0, [FROM_DECK, FROM_DISCARD]) == want, hand
        shortcut += hand[0] in taken.unplayed
    assert shortcut > 20, shortcut


@pytest.mark.slow
def test_a_hand_goes_out_exactly_when_its_best_split_uses_every_card(game):
    """goes_out_without (issue 39) stops at the first split of every card instead of searching the best: it
    answers as the best split of the hand less the card does, for hands with and without a wild."""
    from spellpress.rules.word_rummy.content import _Family, hand_without

    content = new(game, 2).content
    answers = {True: 0, False: 0}
    for number, hand in enumerate(seeded_plain_hands(content, 41, 400)):
        hand = hand[:4 + number % 3]  # short hands: many are all words
        if number % 4 == 0:
            hand = tuple(sorted((content.wild, *hand[1:])))
        for kind in sorted(set(hand)):
            content._splits.clear()
            content._values.clear()
            content._covered.clear()
            alone = _Family(content, hand_without(hand, kind)).split(None)
            assert content.goes_out_without(hand, kind) == alone.uses_every_card, (hand, kind)
            answers[alone.uses_every_card] += 1
    assert min(answers.values()) > 100, answers


def test_going_out_takes_the_discard_that_leaves_the_most_points(game):
    """With a way out, the heuristic goes out, discarding the card that leaves its words the most points:
    the same choice as valuing every discard by its search."""
    from spellpress.rules.word_rummy.players import RummyHeuristic
    from spellpress.rules.word_rummy.state import Discard

    state = new(game, 2)
    content, player = state.content, RummyHeuristic()
    hand = tuple(sorted("castle"))  # all words without the c (stale), the l (caste), the e (cast), ...
    actions = [Discard("discard", kind, out) for kind in sorted(set(hand)) for out in (False, True)
               if not out or content.goes_out_without(hand, kind)]
    outs = [action.card for action in actions if action.go_out]
    assert len(outs) >= 3, outs
    state.hands[0] = list(hand)
    chosen = player._discard(state, 0, actions)
    assert chosen == player._discard_searched(state, hand, actions)
    assert chosen.go_out and content.points[chosen.card] == min(content.points[kind] for kind in outs)


@pytest.mark.slow
def test_a_hand_one_card_short_of_a_searched_hand_is_read_off_its_search(game):
    """best() of a hand without a wild one card short of a hand searched lately (the hand scored after its
    last discard, issue 39) reads that hand's search, builds no search of its own, and gives the very split
    a search of the smaller hand alone gives; the larger hand may hold a wild."""
    from spellpress.rules.word_rummy.content import _Family, hand_without

    content = new(game, 2).content
    read = 0
    for number, hand in enumerate(seeded_plain_hands(content, 42, 30)):
        if number % 3 == 0:
            hand = tuple(sorted((content.wild, *hand[1:])))
        content._families.clear()
        content._family(hand)
        for kind in sorted(set(hand)):
            rest = hand_without(hand, kind)
            if content.wild in rest:
                continue
            content._splits.clear()
            content.shared_splits.clear()
            assert content.best(rest) == _Family(content, rest).split(None), (hand, kind)
            assert list(content._families) == [hand]
            read += 1
    assert read > 100, read
