"""Evocabulary's faster paths against the plain ones they stand for, on the positions of seeded
games: the heuristic's ranked search, the end-of-game check, the deck's draw, the playout player's
kept decisions."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from spellpress.load.game import load_game
from spellpress.rules.chance import draw_chance
from spellpress.rules.evocabulary import RULES, EvoPlayer, EvoState
from spellpress.rules.evocabulary import words as words_module
from spellpress.rules.evocabulary.content import WILD
from spellpress.rules.evocabulary.main_search import MainSearch
from spellpress.rules.evocabulary.players import _discard_value
from spellpress.rules.evocabulary.playout import PlayoutPlayer
from spellpress.rules.evocabulary.words import Words
from spellpress.rules.protocol import CHANCE, TERMINAL
from spellpress.words.index import key

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def game():
    return load_game(ROOT / "cards" / "evocabulary")


def positions(game, players: int, seed: int, player=None):
    """Every position of a seeded heuristic game, the chance nodes and the turns of every seat."""
    player = player or EvoPlayer(1.0)
    st, rng = RULES.new_state(game, players), random.Random(seed)
    while st.current_player() != TERMINAL and st.turns < RULES.turn_cap:
        yield st
        seat = st.current_player()
        st.apply(st.sample_chance(rng) if seat == CHANCE else player.act(st, seat, rng))


def without_deck(st: EvoState) -> EvoState:
    """A copy of the position with the deck's letters moved to the discard pile."""
    copy = st.clone()
    copy.discard.extend(i for ids in copy.deck.values() for i in ids)
    copy.deck, copy.deck_count = {}, 0
    copy.check_invariants()
    return copy


def every_play(st: EvoState, seat: int) -> list[tuple]:
    """The skill-1 search's plays, every word of every group valued (as below skill 1)."""
    search = MainSearch(EvoPlayer(1.0), st, seat)
    search.keep_all = True
    search.add_starts()
    search.add_modifies()
    return search.plays


@pytest.mark.slow
@pytest.mark.parametrize("players, seed", [(2, 1), (4, 2), (3, 3)])
def test_the_ranked_search_finds_the_first_best_of_every_play(game, players, seed):
    decisions = 0
    for st in positions(game, players, seed):
        if st.phase != "main" or st.current_player() == CHANCE:
            continue
        seat = st.current_player()
        search = MainSearch(EvoPlayer(1.0), st, seat)
        search.add_starts()
        search.add_modifies()
        plays = every_play(st, seat)
        want = max(plays, key=lambda p: p[0]) if plays else None  # max keeps the first of equal values
        assert search.candidates() == ([want] if want else [])
        decisions += 1
    assert decisions > 20


@pytest.mark.slow
@pytest.mark.parametrize("players, seed", [(2, 4), (4, 5)])
def test_can_score_answers_as_scoring_play(game, players, seed):
    checked = 0
    for st in positions(game, players, seed):
        if st.deck_count or st.current_player() == CHANCE:
            continue
        for seat in range(players):
            st.content.scoring_plays.clear()
            st.content.can_score.clear()
            can = st.can_score(seat)  # asked first: its own search, not scoring_play's answer
            st.content.scoring_plays.clear()
            assert can == (st.scoring_play(seat) is not None)
            checked += 1
    assert checked > 10


@pytest.mark.parametrize("players, seed", [(2, 6), (4, 7)])
def test_a_deal_is_drawn_as_from_the_listed_outcomes(game, players, seed):
    draws = 0
    for st in positions(game, players, seed):
        if st.current_player() != CHANCE:
            continue
        state = random.getrandbits(32)
        one, other = random.Random(state), random.Random(state)
        assert st.sample_chance(one) == draw_chance(st.chance_outcomes(), other)
        assert one.random() == other.random()  # the same random numbers used
        draws += 1
    assert draws > 40


@pytest.mark.slow
def test_the_playout_players_kept_decisions_are_the_ones_it_would_make(game):
    """Positions met again (the same deal played twice, and re-dealt worlds of each position, one
    with its deck thrown away) get the kept decision; each is what a fresh search of it decides."""
    player, fresh = PlayoutPlayer(), PlayoutPlayer()
    kept = 0
    for seed in (8, 8, 9):
        for st in positions(game, 2, seed, player):
            if st.phase != "main" or st.current_player() == CHANCE:
                continue
            seat = st.current_player()
            rng = random.Random(seed)
            for world in (st, st.determinize(1 - seat, rng), st.determinize(1 - seat, rng), without_deck(st)):
                before = len(player._decisions)
                move = player.act(world, seat, rng)
                kept += len(player._decisions) == before
                assert move == fresh._search(world, seat, rng)
    assert kept > 30


def test_kept_groups_are_the_groups_a_fresh_search_finds(game, monkeypatch):
    """Words.groups keeps its answers (and starts over past GROUPS_KEPT): asked again, with every
    argument varied one at a time, each answer is what a search that kept nothing finds."""
    monkeypatch.setattr(words_module, "GROUPS_KEPT", 40)
    kept, fresh = Words(game), Words(game)
    letters = "".join(RULES.new_state(game, 2).content.letter).replace("?", "")
    rng = random.Random(39)
    asked, found = [], 0
    for _ in range(60):
        pool, base = key(rng.sample(letters, rng.randint(1, 9))), key(rng.sample(letters, rng.randint(0, 5)))
        for wild in (False, True):
            asked.append((base, pool, wild, True, ""))
            asked.append((base, pool, wild, False, base[:1]))
    for args in asked + asked[::-1]:  # the second pass answered from memory (where not started over)
        answer = kept.groups(*args)
        assert answer == fresh._find_groups(*args)
        found += len(answer)
    assert 0 < len(kept._groups) <= 40 and found > 500


@pytest.mark.parametrize("players, seed", [(2, 4), (4, 5)])
def test_a_discard_throws_back_only_hand_letters_but_wilds(game, players, seed):
    """The heuristic values a discard at most as many draws as the hand has letters but wilds, and
    chooses it only when a play could be worth less: that bound holds at every main decision."""
    player, decisions = EvoPlayer(1.0), 0
    for st in positions(game, players, seed, player):
        if st.phase != "main" or st.current_player() == CHANCE:
            continue
        hand = st.hand_letters(st.current_player())
        thrown = player._discard_choice(st, st.current_player(), hand)
        assert not Counter(thrown) - Counter(char for char in hand if char != WILD)
        assert _discard_value(st, len(thrown), len(hand)) <= _discard_value(st, len(hand) - hand.count(WILD), len(hand))
        decisions += 1
    assert decisions > 30
