"""Evocabulary rules: one test per rule, on states set up by hand, plus seeded full games."""

from __future__ import annotations

import copy
import pickle
import random
import shutil
from collections import Counter
from pathlib import Path

import pytest

from spellpress.load.game import load_game
from spellpress.rules.evocabulary import RULES, WILD, EvoState
from spellpress.rules.evocabulary.actions import END, MAIN_TYPES, Deal, Discard, Modify, Reveal, Start, Use, typed
from spellpress.rules.protocol import CHANCE, TERMINAL, IllegalAction, InvariantError, RandomPlayer, State
from spellpress.simulate.play import play_game

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def game():
    return load_game(ROOT / "cards" / "evocabulary")


def fresh(game, players: int = 2) -> EvoState:
    """A state after setup, chance resolved with the first outcome each time."""
    st = RULES.new_state(game, players)
    while st.current_player() == CHANCE:
        st.apply(st.chance_outcomes()[0][0])
    for seat in range(players):
        set_hand(st, seat, "")
    for seat in range(1, players):
        set_hand(st, seat, "iiioouu"[: 7])
    return st


def set_hand(st: EvoState, seat: int, letters: str) -> None:
    """Swap the seat's hand for these letters ('?' = wild), taken from the deck or wild pile."""
    for i in st.hands[seat]:
        (st.wild_pile if st.content.letter[i] == WILD else st.deck.setdefault(st.content.letter[i], [])).append(i)
        if st.content.letter[i] != WILD:
            st.deck_count += 1
    st.hands[seat] = []
    for letter in letters:
        if letter == WILD:
            st.hands[seat].append(st.wild_pile.pop())
        else:
            st.hands[seat].append(st.deck[letter].pop())
            st.deck_count -= 1
    st.check_invariants()


def hire_to(st: EvoState, seat: int, team: int, fam_id: str, side: int = 0) -> list:
    """Put a familiar of this definition (from the familiar deck or market) into a team."""
    d = next(i for i, (cid, _) in enumerate(st.content.fam_defs) if cid == fam_id)
    fid = st.familiar_deck[d].pop()
    if not st.familiar_deck[d]:
        del st.familiar_deck[d]
    fam = [fid, side, []]
    st.teams[seat][team].append(fam)
    return fam


def empty_deck(st: EvoState) -> None:
    for ids in list(st.deck.values()):
        st.discard.extend(ids)
    st.deck, st.deck_count = {}, 0


def slot_of(st: EvoState, action: str) -> int:
    return next(i for i, (_, a) in enumerate(st.slots) if a == action and i not in st.used_slots)


# -- components ----------------------------------------------------------------
def test_components_match_the_published_counts(game):
    letters = game.component("letters").copies
    wilds = game.component("wilds").copies
    assert letters + wilds == 126 and wilds == 12
    assert game.component("familiars").copies == 72
    assert game.component("leaders").copies == 24
    assert game.component("achievements").copies == 34
    for card in game.component("familiars").cards:  # the other side is always "draw a letter"
        assert list(card.back_fields["actions"]) == ["draw"]


@pytest.mark.parametrize("players,used", [(2, 18), (3, 24), (4, 30), (5, 34), (6, 34)])
def test_achievements_used_depend_on_player_count(game, players, used):
    st = RULES.new_state(game, players)
    assert sum(len(p) for p in st.piles.values()) == used
    for pile, ids in st.piles.items():  # piles keep the written (falling) order
        values = [st.content.ach_by_id[a].points or 100 * st.content.ach_by_id[a].multiplier for a in ids]
        assert values == sorted(values, reverse=True), pile


def test_setup_deals_seven_letters_and_three_market_familiars(game):
    st = RULES.new_state(game, 4)
    while st.current_player() == CHANCE:
        st.apply(st.chance_outcomes()[-1][0])
    assert [len(h) for h in st.hands] == [7] * 4
    assert len(st.market) == 3
    assert st.deck_count == 114 - 28 and len(st.wild_pile) == 12


# -- starting and modifying spells ----------------------------------------------
def test_start_spell_needs_three_letters_and_goes_to_the_team_of_its_length(game):
    st = fresh(game)
    set_hand(st, 0, "catsxyz")
    with pytest.raises(IllegalAction):
        st.apply(("start", "at", "hh"))
    st.apply(("start", "cats", "hhhh"))
    assert st.spells[0][4][0] == "cats" and st.phase == "team" and st.active_team == 4


def test_six_or_more_letter_spells_go_to_the_six_plus_team(game):
    st = fresh(game)
    set_hand(st, 0, "strange")
    st.apply(("start", "strange", "hhhhhhh"))
    assert 6 in st.spells[0]


def test_only_one_spell_per_team(game):
    st = fresh(game)
    set_hand(st, 0, "catdogs")
    st.apply(("start", "cat", "hhh"))
    st.apply(("end",))
    st.apply(("discard", ""))  # seat 1 passes
    with pytest.raises(IllegalAction):
        st.apply(("start", "dog", "hhh"))


def test_modify_must_add_or_remove_a_letter_rearranging_alone_is_not_one(game):
    st = fresh(game)
    set_hand(st, 0, "catcxyz")
    st.apply(("start", "cat", "hhh"))
    st.apply(("end",))
    st.apply(("discard", ""))
    with pytest.raises(IllegalAction):
        st.apply(("modify", 3, "act", "sss"))  # only rearranged: no new letter
    st.apply(("modify", 3, "cat", "hss"))  # the same spell, a new C replacing the old
    assert st.spells[0][3][0] == "cat" and st.hand_letters(0).count("c") == 1


def test_modify_may_only_remove_letters(game):
    # "To modify a spell you must add and/or remove letters from the spell": STARE -> STAR
    st = fresh(game)
    set_hand(st, 0, "starexy")
    st.apply(("start", "stare", "hhhhh"))
    st.apply(("end",))
    st.apply(("discard", ""))
    assert ("modify", 5, "star", "ssss") in st.legal_actions()
    assert ("modify", 5, "star", "ssss") in list(st.legal_actions())  # the full list agrees
    st.apply(("modify", 5, "star", "ssss"))
    assert st.spells[0][4][0] == "star" and 5 not in st.spells[0] and st.active_team == 4
    assert sorted(st.hand_letters(0)) == ["e", "x", "y"]  # the E is back in the hand
    st.check_invariants()


def test_modify_moves_the_spell_and_returns_removed_letters_to_the_hand(game):
    st = fresh(game)
    set_hand(st, 0, "catsxyz")
    st.apply(("start", "cat", "hhh"))
    st.apply(("end",))
    st.apply(("discard", ""))
    st.apply(("modify", 3, "cats", "sssh"))
    assert 4 in st.spells[0] and 3 not in st.spells[0] and st.active_team == 4
    st.apply(("end",))
    st.apply(("discard", ""))
    st.apply(("modify", 4, "cays", "ssh" + "s"))  # t back to the hand, y in
    assert "t" in st.hand_letters(0) and st.spells[0][4][0] == "cays"


def test_modified_spell_team_acts_even_if_length_is_unchanged(game):
    st = fresh(game)
    set_hand(st, 0, "catbxyz")
    st.apply(("start", "cat", "hhh"))
    st.apply(("end",))
    st.apply(("discard", ""))
    st.apply(("modify", 3, "bat", "hss"))
    assert st.phase == "team" and st.active_team == 3 and [a for _, a in st.slots] == list(st.content.leaders[3].actions)


def test_wilds_may_be_repicked_when_modifying(game):
    st = fresh(game)
    set_hand(st, 0, "ca?sxyz")
    st.apply(("start", "cat", "hhw"))
    st.apply(("end",))
    st.apply(("discard", ""))
    st.apply(("modify", 3, "cars", "sswh"))  # the wild was a T, now an R
    assert st.spells[0][4][0] == "cars" and st.spell_wilds(st.spells[0][4]) == 1


def test_discard_any_then_draw_back_to_seven(game):
    st = fresh(game)
    set_hand(st, 0, "qqzxbcd"[:0] + "zxbcdfg")
    st.apply(("discard", "bxz"))
    assert st.current_player() == CHANCE
    while st.current_player() == CHANCE:
        st.apply(st.chance_outcomes()[0][0])
    assert len(st.hands[0]) == 7 and st.seat == 1


def test_empty_hand_draws_seven_at_once(game):
    st = fresh(game)
    set_hand(st, 0, "cat")
    st.apply(("start", "cat", "hhh"))
    assert st.current_player() == CHANCE and st.pending == [(0, 7)]
    while st.current_player() == CHANCE:
        st.apply(st.chance_outcomes()[0][0])
    assert len(st.hands[0]) == 7 and st.seat == 0 and st.phase == "team"


def test_no_draws_from_an_empty_deck(game):
    st = fresh(game)
    set_hand(st, 0, "catbdef")
    empty_deck(st)
    hire_to(st, 0, 3, "imp")
    st.apply(("start", "cat", "hhh"))
    st.apply(("use", slot_of(st, "draw")))
    assert st.current_player() == 0 and len(st.hands[0]) == 4


# -- familiar and leader actions --------------------------------------------------
def test_publish_scores_unlocked_letters_and_discards_them(game):
    st = fresh(game)
    set_hand(st, 0, "sxzcaby")
    fam = hire_to(st, 0, 3, "toad")
    fam[2].append(st.deck["a"].pop())
    st.deck_count -= 1
    hire_to(st, 0, 3, "raven")
    st.apply(("start", "sax", "hlh"))  # the A is the locked letter
    before = len(st.discard)
    st.apply(("use", slot_of(st, "publish"), 3, ""))
    assert st.scores[0] == st.content.letter_points["s"] + st.content.letter_points["x"]
    assert len(st.discard) == before + 2 and 3 not in st.spells[0]
    assert st.content.letter[fam[2][0]] == "a"  # the locked letter stays
    st.check_invariants()


def test_lock_tucks_a_letter_when_the_familiar_is_gained(game):
    st = fresh(game)
    set_hand(st, 0, "catsxyz")
    d = next(i for i, (cid, _) in enumerate(st.content.fam_defs) if cid == "toad")
    old = st.market[0]
    st.market[0] = st.familiar_deck[d].pop()
    st.familiar_deck.setdefault(st.content.fam_def_of[old], []).append(old)
    st.check_invariants()
    st.apply(("start", "cat", "hhh"))  # leader 3 (side A) hires
    with pytest.raises(IllegalAction):
        st.apply(("use", slot_of(st, "hire"), 0, 4, 0, ""))  # a lock must take a letter
    st.apply(("use", slot_of(st, "hire"), 0, 4, 0, "s"))
    assert [st.content.letter[i] for i in st.teams[0][4][0][2]] == ["s"] and "s" not in st.hand_letters(0)
    st.check_invariants()


def test_achievements_only_with_at_most_one_wild(game):
    st = fresh(game)
    set_hand(st, 0, "sto??xz")
    st.apply(("start", "stone", "hhhww"))  # 5 letters, 2 wilds
    assert st._claimable(st.spells[0][5]) == []
    with pytest.raises(IllegalAction):
        st.apply(("use", slot_of(st, "publish"), 5, st.piles["5 letters"][0]))
    st.apply(("use", slot_of(st, "publish"), 5, ""))
    assert st.claimed[0] == [] and st.scores[0] == 3


def test_one_achievement_per_publish_and_multiplier_scores_one_letter(game):
    st = fresh(game)
    set_hand(st, 0, "wordyxz")
    st.apply(("start", "wordy", "hhhhh"))  # 5 letters and 2 syllables
    options = st._claimable(st.spells[0][5])
    assert set(options) == {st.piles["5 letters"][0], st.piles["2 syllables"][0]}
    st.apply(("use", slot_of(st, "publish"), 5, st.piles["2 syllables"][0]))  # x3 on one letter
    points = sum(st.content.letter_points[char] for char in "wordy")
    assert st.scores[0] == points + 2 * 4  # W or Y (4 points) scores three times
    assert len(st.claimed[0]) == 1 and st.piles["5 letters"]


def test_burn_discards_a_letter_for_its_points(game):
    st = fresh(game)
    set_hand(st, 0, "catzxyq")
    hire_to(st, 0, 3, "salamander")
    st.apply(("start", "cat", "hhh"))
    st.apply(("use", slot_of(st, "burn"), "z"))
    assert st.scores[0] == 10 and "z" not in st.hand_letters(0)


def test_draw_a_wild_takes_one_from_the_wild_pile(game):
    st = fresh(game)
    set_hand(st, 0, "catzxyq")
    hire_to(st, 0, 3, "fox")
    st.apply(("start", "cat", "hhh"))
    st.apply(("use", slot_of(st, "wild")))
    assert st.hand_letters(0).count(WILD) == 1 and len(st.wild_pile) == 11


def test_hire_respects_the_leader_limit(game):
    st = fresh(game)
    set_hand(st, 0, "catzxyq")
    for _ in range(3):
        hire_to(st, 0, 3, "imp", side=1)
    st.apply(("start", "cat", "hhh"))
    hires = [a for a in st.legal_actions() if a[0] == "use" and st.slots[a[1]][1] == "hire"]
    assert hires and all(a[3] != 3 for a in hires)
    with pytest.raises(IllegalAction):
        st.apply(("use", slot_of(st, "hire"), 0, 3, 0, ""))


def test_teamwork_never_copies_a_leader(game):
    st = fresh(game)
    set_hand(st, 0, "catzxyq")
    hire_to(st, 0, 3, "mice")
    hire_to(st, 0, 4, "toad")
    hire_to(st, 0, 5, "salamander")
    st.apply(("start", "cat", "hhh"))
    copies = {a[2] for a in st.legal_actions() if a[0] == "use" and st.slots[a[1]][1] == "teamwork"}
    assert copies == {(5, 0, 0)}  # the burn familiar; not the leaders, not the lock, not itself
    st.apply(("use", slot_of(st, "teamwork"), (5, 0, 0), "z"))
    assert st.scores[0] == 10


def test_pickup_takes_a_spell_back_into_the_hand(game):
    st = fresh(game)
    set_hand(st, 0, "catdogs")
    hire_to(st, 0, 4, "magpie")
    st.apply(("start", "cat", "hhh"))
    st.apply(("end",))
    st.apply(("discard", ""))
    st.apply(("start", "dogs", "hhhh"))
    assert st.current_player() == CHANCE  # the hand is empty: draw 7 first
    while st.current_player() == CHANCE:
        st.apply(st.chance_outcomes()[0][0])
    st.apply(("use", slot_of(st, "pickup"), 3))
    assert 3 not in st.spells[0] and Counter("cat") <= Counter(st.hand_letters(0)) and len(st.hands[0]) == 10


def test_effects_come_from_the_yaml_data(game):
    st = fresh(game)
    for cid, sides in st.content.fam_defs:
        raw = next(c for c in game.component("familiars").cards if c.id == cid)
        assert sides == (tuple(raw["actions"]), tuple(raw.back_fields["actions"]))
    assert st.content.leaders[5].actions == tuple(next(c for c in game.component("leaders").cards if c["length"] == 5)["actions"])


# -- the end -----------------------------------------------------------------------
def test_game_ends_when_deck_is_empty_and_nobody_can_burn_or_publish(game):
    st = fresh(game)
    set_hand(st, 0, "xyz")
    set_hand(st, 1, "qqq"[:1] + "zj"[:0] + "vw")
    empty_deck(st)
    st.apply(("discard", ""))
    assert st.current_player() == TERMINAL


def test_game_goes_on_while_someone_can_publish(game):
    st = fresh(game)
    set_hand(st, 0, "xyz")
    set_hand(st, 1, "stone")  # a 5-letter spell reaches the 5 leader's publish
    empty_deck(st)
    st.apply(("discard", ""))
    assert st.current_player() == 1 and st.can_score(1) and not st.can_score(0)


def test_the_end_search_allows_a_spell_two_wilds(game):
    # "no player can ... publish a spell": A, B, E and two wilds make 5-letter spells
    # (e.g. BEAST), which reach the 5 leader's publish
    st = fresh(game)
    set_hand(st, 0, "xyz")
    set_hand(st, 1, "abe??")
    empty_deck(st)
    st.apply(("discard", ""))
    assert st.current_player() == 1 and st.can_score(1)


def test_the_end_search_sees_a_spell_that_only_loses_letters(game):
    # an empty hand can still modify STARED (6+) into STARE (5, publish) by removing the D
    st = fresh(game)
    set_hand(st, 0, "xyz")
    set_hand(st, 1, "stared")
    st.spells[1][6] = ["stared", list(st.hands[1])]
    st.hands[1] = []
    empty_deck(st)
    st.check_invariants()
    st.apply(("discard", ""))
    assert st.current_player() == 1 and st.can_score(1)
    assert ("modify", 6, "stare", "sssss") in st.legal_actions()


def _scoring_play(st: EvoState, seat: int) -> tuple | None:
    """A main move of `seat` after which its team may publish, or burn a letter worth points,
    found by trying every legal move on a copy (independent of the engine's own end search)."""
    here = copy.deepcopy(st, {id(st.content): st.content})
    here.seat, here.phase, here.slots, here.used_slots = seat, "main", [], set()
    here.reveals_due = 0  # a market refill waiting changes no letter: play as if it were done
    for move in list(here._main_actions()):
        if move[0] == "discard":
            continue
        after = copy.deepcopy(here, {id(here.content): here.content})
        after.apply(move)
        if after.phase != "team":
            continue
        for action in after._team_actions():
            if action[0] != "use":
                continue
            _, name = after.slots[action[1]]
            if name == "teamwork":
                team, pos, k = action[2]
                name = after.fam_actions(after.teams[seat][team][pos])[k]
            if name == "publish" or (name == "burn" and after.content.letter_points.get(action[-1], 0) > 0):
                return move, action
    return None


@pytest.mark.slow
def test_two_player_games_never_end_with_a_scoring_play_available(game):
    ended_early = []
    for seed in range(1, 61):
        rng = random.Random(seed)
        st = RULES.new_state(game, 2)
        seats = [RULES.heuristic_player(1.0), RULES.heuristic_player(1.0)]
        while st.current_player() != TERMINAL and st.turns < RULES.turn_cap:
            seat = st.current_player()
            if seat == CHANCE:
                actions, weights = zip(*st.chance_outcomes(), strict=False)
                st.apply(rng.choices(actions, weights)[0])
            else:
                st.apply(seats[seat].act(st, seat, rng))
        assert st.current_player() == TERMINAL
        for seat in range(2):
            found = _scoring_play(st, seat)
            if found:
                ended_early.append((seed, seat, found))
    assert ended_early == []


def deck_of(st: EvoState, letters: str) -> None:
    """Leave only these letters in the deck (the rest go to the discard pile)."""
    empty_deck(st)
    for letter in letters:
        card = next(i for i in st.discard if st.content.letter[i] == letter)
        st.discard.remove(card)
        st.deck.setdefault(letter, []).append(card)
        st.deck_count += 1
    st.check_invariants()


def test_the_turn_that_empties_the_deck_is_not_a_quiet_turn(game):
    # seat 0 plays CAT with its last cards and draws the deck's last five letters;
    # seat 1 cannot score and passes: seat 0 has never had a turn starting with
    # an empty deck, and can publish STONE on its next one
    st = fresh(game)
    set_hand(st, 0, "cat")
    set_hand(st, 1, "xyz")
    deck_of(st, "stone")
    st.apply(("start", "cat", "hhh"))
    while st.current_player() == CHANCE:
        st.apply(st.chance_outcomes()[0][0])
    assert st.deck_count == 0 and sorted(st.hand_letters(0)) == sorted("stone")
    if st.phase == "team":
        st.apply(("end",))
    assert st.current_player() == 1
    st.apply(("discard", ""))
    assert st.current_player() == 0 and st.can_score(0)
    st.apply(("start", "stone", "hhhhh"))
    st.apply(("use", slot_of(st, "publish"), 5, ""))
    assert st.ledger[0]["publish"] == sum(st.content.letter_points[char] for char in "stone")


def test_a_full_quiet_round_with_the_deck_empty_ends_the_game(game):
    st = fresh(game)
    set_hand(st, 0, "xyz")
    set_hand(st, 1, "stone")  # seat 1 could publish, but passes
    empty_deck(st)
    st.apply(("discard", ""))
    assert st.current_player() == 1 and st.quiet_turns == 1
    st.apply(("discard", ""))
    assert st.current_player() == TERMINAL


def test_a_scoring_turn_restarts_the_quiet_round(game):
    st = fresh(game)
    set_hand(st, 0, "catq")
    set_hand(st, 1, "stone")
    hire_to(st, 0, 3, "salamander")  # seat 0 could play CAT and burn the Q
    empty_deck(st)
    st.apply(("discard", ""))
    assert st.quiet_turns == 1
    st.apply(("start", "stone", "hhhhh"))
    st.apply(("use", slot_of(st, "publish"), 5, ""))
    assert st.quiet_turns == 0 and st.current_player() == 0  # seat 1 scored: the count starts again
    st.apply(("discard", ""))
    assert st.current_player() == 1 and st.quiet_turns == 1


def test_a_spell_holds_at_most_two_wilds(game):
    assert game.spec.rules["spell_max_wilds"] == 2
    st = fresh(game)
    set_hand(st, 0, "ca???xz")
    assert not any(a[0] == "start" and a[2].count("w") > 2 for a in st.legal_actions())
    with pytest.raises(IllegalAction):
        st.apply(("start", "cat", "www"))
    st.apply(("start", "cat", "hww"))
    st.apply(("end",))
    st.apply(("discard", ""))
    with pytest.raises(IllegalAction):
        st.apply(("modify", 3, "cats", "wwww"))  # two wilds from the spell, two from the hand
    with pytest.raises(IllegalAction):
        st.apply(("modify", 3, "cat", "www"))  # a third wild from the hand
    assert st.spell_wilds(st.spells[0][3]) == 2


@pytest.mark.parametrize("word,piles", [
    ("stone", {"5 letters"}), ("stones", {"6 letters"}), ("notables", {"8+ letters"}),
    ("salamander", {"8+ letters"})])
def test_letter_achievements_are_exact_except_eight_or_more(game, word, piles):
    st = fresh(game)
    met = {p for p in st.content.piles if "letters" in p and st.content.ach_by_id[st.piles[p][0]].met_by(word, st.content.words)}
    assert met == piles


def test_market_refills_from_the_familiar_deck_after_a_hire(game):
    st = fresh(game)
    set_hand(st, 0, "catxyzq")
    hired = st.market[0]
    st.apply(("start", "cat", "hhh"))  # leader 3 (side A) hires
    st.apply(("use", slot_of(st, "hire"), 0, 4, 1, ""))
    assert hired not in st.market and len(st.market) == 2 and st.current_player() == CHANCE
    deck_before = sum(len(v) for v in st.familiar_deck.values())
    st.apply(st.chance_outcomes()[0][0])
    assert len(st.market) == 3 and sum(len(v) for v in st.familiar_deck.values()) == deck_before - 1
    st.check_invariants()


def test_market_stays_short_when_the_familiar_deck_is_empty(game):
    st = fresh(game)
    set_hand(st, 0, "catxyzq")
    for d in list(st.familiar_deck):  # every familiar not in the market goes to seat 1's 6+ team
        for fid in st.familiar_deck.pop(d):
            st.teams[1][6].append([fid, 1, []])
    st.apply(("start", "cat", "hhh"))
    st.apply(("use", slot_of(st, "hire"), 0, 4, 1, ""))
    assert len(st.market) == 2 and st.current_player() != CHANCE and st.reveals_due == 1


def test_tie_break_on_achievements(game):
    st = fresh(game, 3)
    st.scores = [20, 20, 20]
    st.ledger[0]["publish"] = st.ledger[1]["publish"] = st.ledger[2]["publish"] = 20
    st.claimed[1] = ["x"]
    assert st.outcome().winners == [1]
    st.claimed[2] = ["y"]
    assert st.outcome().winners == [1, 2]  # still tied: they share the victory


# -- whole games ----------------------------------------------------------------------
@pytest.mark.slow
def test_full_games_keep_every_card_in_one_place(game):
    outcome = play_game(RULES, game, [RULES.heuristic_player(1.0), RandomPlayer()], seed=7, check=True)
    assert not outcome.stalled and outcome.figures["deck_left"] == 0


def test_heuristic_games_are_reproducible_and_end(game):
    seats = [RULES.heuristic_player(1.0), RULES.heuristic_player(0.5), RULES.heuristic_player(1.0)]
    a = play_game(RULES, game, seats, seed=11)
    b = play_game(RULES, game, seats, seed=11)
    assert a.scores == b.scores and a.turns == b.turns and not a.stalled
    assert a.figures["publishes"] > 0 and max(a.scores) > 20


# -- setup catch-up (game.yaml rules: catch_up, catch_up_points; README "Setup catch-up") --
def test_catch_up_points_later_seats_start_with_the_yaml_points(game):
    for players in (2, 4, 6):
        table = [int(v) for v in game.spec.rules["catch_up_points"][players]]
        st = RULES.new_state(game, players)
        assert st.scores == table and table[0] == 0 and table == sorted(table)
        assert [st.ledger[s]["setup"] for s in range(players)] == table
        st.check_invariants()  # the starting points are in the score ledger


def test_catch_up_points_count_toward_the_win(game):
    st = fresh(game, 2)
    assert st.scores == [0, 5]
    st.scores[0] += 5
    st.ledger[0]["publish"] += 5
    st.check_invariants()
    assert st.outcome().winners == [0, 1]  # 5 earned = 5 from setup: a tie (no achievements): shared


def test_catch_up_can_be_switched_off_or_changed_with_options(game):
    assert RULES.new_state(game, 4, {"catch_up": False}).scores == [0, 0, 0, 0]
    assert RULES.new_state(game, 4, {"catch_up": "off"}).scores == [0, 0, 0, 0]
    assert RULES.new_state(game, 4, {"catch_up_points": "0,1,2,3"}).scores == [0, 1, 2, 3]
    with pytest.raises(ValueError):
        RULES.new_state(game, 4, {"catch_up_points": "0,1"})  # one number a seat


def test_catch_up_letters_and_wilds_deal_extra_starting_cards(game):
    st = RULES.new_state(game, 2, {"catch_up_letters": "0,1", "catch_up_wilds": "0,1"})
    while st.current_player() == CHANCE:
        st.apply(st.chance_outcomes()[0][0])
    hand = st.content.hand_size
    assert len(st.hands[0]) == hand and st.hand_letters(0).count(WILD) == 0
    assert len(st.hands[1]) == hand + 2 and st.hand_letters(1).count(WILD) == 1
    st.check_invariants()


# -- --check: asking about one move, and the invariants ---------------------------------
def main_phase_states(game, seed: int, players: int = 2):
    """Copies of the main-phase positions of one seeded game (a heuristic and a random player); the
    engine's clone shares the game's word index, which a deep copy would copy whole each time."""
    rng = random.Random(seed)
    seats = [RULES.heuristic_player(1.0), RandomPlayer(), RULES.heuristic_player(0.5)][:players]
    st = RULES.new_state(game, players)
    while st.current_player() != TERMINAL and st.turns < 200:
        seat = st.current_player()
        if seat == CHANCE:
            outcomes = st.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], weights=[w for _, w in outcomes])[0]
        else:
            if st.phase == "main":
                yield st.clone()
            action = seats[seat].act(st, seat, rng)
        st.apply(action)


def near_misses(st, action, rng):
    """Moves a letter, a source, a word or a team away from a legal one."""
    kind = action[0]
    if kind == "discard":
        return [("discard", action[1] + "q"), ("discard", action[1][::-1]), ("discard", action[1] + "?")]
    word, src = action[-2], action[-1]
    shuffled = "".join(rng.sample(src, len(src)))
    out = [action[:-1] + (shuffled,), action[:-1] + (src.replace("h", "w", 1),),
           action[:-1] + (src.replace("w", "h", 1),), action[:-1] + (src.replace("h", "l", 1),),
           action[:-2] + (word[::-1], src), action[:-2] + (word + "s", src + "h"), action[:-2] + (word[:-1], src[:-1])]
    if kind == "modify":
        out += [("modify", t) + action[2:] for t in st.content.teams if t != action[1]]
        out.append(("start",) + action[2:])
    else:
        out.append(("modify", st.content.team_of(len(word))) + action[1:])
    return out


@pytest.fixture(scope="module")
def small_game(tmp_path_factory):
    """Evocabulary judged on a small word list (every word of up to 4 letters and every 40th longer
    one, about 5,100 words): its legal moves are listed in a fraction of the time."""
    from spellpress.words.lexicon import Lexicon

    folder = tmp_path_factory.mktemp("small") / "evocabulary"
    shutil.copytree(ROOT / "cards" / "evocabulary", folder)
    words = Lexicon().words
    (folder / "small-words.txt").write_text("\n".join([w for w in words if len(w) <= 4] + [w for w in words if len(w) > 4][::40]))
    spec = folder / "game.yaml"
    spec.write_text(spec.read_text().replace("words:\n", "words:\n  lexicon: small-words.txt\n", 1))
    game = load_game(folder)
    assert game.spec.words.lexicon.endswith("small-words.txt")
    return game


@pytest.mark.parametrize("words", ["small", pytest.param("full", marks=pytest.mark.slow)])
def test_asking_about_one_move_agrees_with_the_full_list(request, words):
    """`action in legal_actions()` (what --check asks, answered from one word's builds)
    gives exactly the answer of the full list, for every listed move and near misses;
    on a small word list (fast) and on the game's own (slow: minutes)."""
    game = request.getfixturevalue("small_game" if words == "small" else "game")
    rng = random.Random(5)
    asked = 0
    for n, st in enumerate(main_phase_states(game, seed=3)):
        if n % 3:
            continue
        counted = len(st.legal_actions())  # counted without making the moves (the runner's move counts)
        full = list(st.legal_actions())
        listed = set(full)
        assert len(full) == len(listed) == counted and full == st.legal_actions()
        for action in rng.sample(full, min(25, len(full))):
            assert action in st.legal_actions()
            for miss in near_misses(st, action, rng):
                assert (miss in st.legal_actions()) == (miss in listed), miss
                asked += 1
        for odd in [("start",), ("start", 3, "hhh"), ("modify", 9, "cat", "hhh"), ("end",), "start", None,
                    ("start", "zzz", "hhh"), ("start", "cat", "hhh", "x"), ("discard", ["a"])]:
            assert (odd in st.legal_actions()) is False
    assert asked > 500


def test_counting_the_legal_actions_gives_the_length_of_their_list(small_game):
    """count_legal_actions() (the runner's move counts, made without the moves) equals the length of
    the built list at every position of seeded games: chance, main and team phases, 2 and 4 players."""
    seen: Counter = Counter()
    for seed, players in ((11, 2), (12, 4)):
        rng = random.Random(seed)
        seats = [RULES.heuristic_player(1.0), RandomPlayer(), RULES.heuristic_player(0.5), RandomPlayer()][:players]
        st = RULES.new_state(small_game, players)
        while st.current_player() != TERMINAL and st.turns < 120:
            seat = st.current_player()
            listed = [a for a, _ in st.chance_outcomes()] if seat == CHANCE else list(st.legal_actions())
            assert st.count_legal_actions() == len(listed), (seat, st.phase, st.turns)
            seen["chance" if seat == CHANCE else st.phase] += 1
            st.apply(st.sample_chance(rng) if seat == CHANCE else seats[seat].act(st, seat, rng))
        assert st.count_legal_actions() == len(st.legal_actions()) == 0 or st.turns >= 120
    assert min(seen.values()) > 50 and set(seen) == {"chance", "main", "team"}


def test_legal_actions_of_an_earlier_position_refuse_to_answer(game):
    st = fresh(game)
    set_hand(st, 0, "catxyzq")
    moves = st.legal_actions()
    st.apply(("start", "cat", "hhh"))
    with pytest.raises(RuntimeError):
        _ = ("start", "cat", "hhh") in moves
    with pytest.raises(RuntimeError):
        list(moves)


@pytest.mark.parametrize("corrupt, message", [
    (lambda st: st.hands[0].append(st.hands[1][0]), "lost or duplicated"),
    (lambda st: st.hands[1].pop(), "lost or duplicated"),
    (lambda st: setattr(st, "deck_count", st.deck_count + 1), "deck count"),
    (lambda st: st.market.pop(), "familiar is lost"),
    (lambda st: st.teams[1][4].append([st.market[0], 1, []]), "familiar is lost"),
    (lambda st: st.claimed[1].append(st.claimed[0][0] if st.claimed[0] else st.piles["5 letters"][0]), "achievement"),
    (lambda st: st.scores.__setitem__(0, st.scores[0] + 1), "ledger"),
    (lambda st: st.teams[0][3].extend([x, 1, []] for x in [st.familiar_deck[d].pop() for d in list(st.familiar_deck)[:4]]),
     "over its limit"),
    (lambda st: st.spells[0].__setitem__(4, st.spells[0].pop(3)), "wrong team"),
    (lambda st: st.spells[0][3].__setitem__(0, "dog"), "does not match"),
])
def test_invariants_catch_a_corrupted_state(game, corrupt, message):
    st = fresh(game)
    set_hand(st, 0, "catxyzq")
    st.apply(("start", "cat", "hhh"))
    st.apply(("end",))
    while st.current_player() == CHANCE:
        st.apply(st.chance_outcomes()[0][0])
    st.check_invariants()
    corrupt(st)
    with pytest.raises(InvariantError, match=message):
        st.check_invariants()


@pytest.mark.slow
def test_a_clone_is_the_same_position_and_shares_nothing(game):
    """EvoState.clone copies by hand what actions change: along a seeded game with locks, spells and
    publishes, a clone of every fifth position equals the protocol's deep copy and shares no list, dict or set
    with the original, and playing it on leaves the original as it was."""
    from spellpress.simulate.state_walk import first_difference, shared_containers, snapshot

    st, rng, player = RULES.new_state(game, 3), random.Random(5), RULES.heuristic_player(1.0)
    for step in range(400):
        if st.current_player() == TERMINAL:
            break
        seat = st.current_player()
        action = rng.choice(st.chance_outcomes())[0] if seat == CHANCE else player.act(st, seat, rng)
        if step % 5 == 0:
            clone = st.clone()
            assert not shared_containers(st, clone)
            default = State.clone(st)  # the protocol's deep copy
            assert first_difference(snapshot(clone, caches=False), snapshot(default, caches=False)) is None
            before = snapshot(st)
            clone.apply(action)
            assert snapshot(st) == before
        st.apply(action)
    assert any(f[2] for seat in st.teams for fams in seat.values() for f in fams)  # a lock was cloned
    assert st.figures["publishes"] and st.figures["modifies"]


@pytest.mark.slow
def test_word_groups_give_the_searchs_words_in_its_order(game):
    """The heuristic walks Words.groups instead of Words.search: expanded, the groups are search's
    words in search's order, and each group's words share a length and letters but the wild's."""
    words = RULES.new_state(game, 2).content.words
    rng = random.Random(3)
    letters = "eeeeaaaiioonnrrttlsscdumhgbpfywkvxzjq"
    for _ in range(30):
        pool = "".join(sorted(rng.choice(letters) for _ in range(rng.randint(1, 7))))
        base = "".join(sorted(rng.choice(letters) for _ in range(rng.choice([0, 0, 3, 4]))))
        wild, need_pool = rng.random() < 0.6, not base
        expanded = [(word, sub, wl) for sub, w, k in words.groups(base, pool, wild, need_pool)
                    for word, wl in words.members(k, w)]
        assert expanded == list(words.search(base, pool, wild, need_pool))
        for dropped in sorted(set(base)):  # a spell less one of its letters, asked of the whole spell
            assert words.groups(base, pool, wild, need_pool, dropped) == words.groups(base.replace(dropped, "", 1), pool, wild,
                                                                                      need_pool)
        for sub, w, k in words.groups(base, pool, wild, need_pool):
            group = words.members(k, w)
            assert words.first_member(k, w) == group[:1]
            assert {len(word) for word, _ in group} == {len(base) + len(sub) + w}
            assert all(sorted(word.replace(wl, "", 1)) == sorted(base + sub) for word, wl in group)
            firsts = words.syllable_firsts(k, w)
            assert [n for n, _, _ in firsts] == list(dict.fromkeys(words.syllables(word) for word, _ in group))


# -- typed actions (actions.py) ---------------------------------------------------
def test_every_legal_action_is_typed_and_equals_and_prints_as_its_plain_tuple(game):
    st = fresh(game)
    set_hand(st, 0, "catsdo?")
    moves = list(st.legal_actions())
    assert {type(a) for a in moves} == {Start, Modify, Discard} - {Modify}  # no spell yet to modify
    for action in moves:
        plain = tuple(action)
        assert action == plain and repr(action) == repr(plain) and typed(plain, MAIN_TYPES) == action
        assert type(typed(plain, MAIN_TYPES)) is type(action)
    st.apply(("start", "cat", "hhh"))  # a plain tuple, as a game record replays it
    team_moves = st.legal_actions()
    assert team_moves[0] is END and all(type(a) is Use for a in team_moves[1:]) and len(team_moves) > 1
    use = team_moves[1]
    assert use == tuple(use) and repr(use) == repr(tuple(use)) and use.params == tuple(use)[2:]
    outcomes = [a for a, _ in st.chance_outcomes()] if st.current_player() == CHANCE else []
    assert all(type(a) in (Deal, Reveal) for a in outcomes)


@pytest.mark.parametrize("action", [("start", "cat"), ("modify", 3, "cat"), ("end",), ("use", 0), ("fly",), (), "start",
                                    ["discard", ""]])
def test_a_main_phase_refuses_what_is_not_a_main_action(game, action):
    st = fresh(game)
    set_hand(st, 0, "catsdo?")
    with pytest.raises(IllegalAction):
        st.apply(action)


@pytest.mark.parametrize("action", [("use",), ("use", "0"), ("end", 1), ("discard", ""), ("start", "cat", "hhh")])
def test_a_team_phase_refuses_what_is_not_a_team_action(game, action):
    st = fresh(game)
    set_hand(st, 0, "catsdo?")
    st.apply(("start", "cat", "hhh"))
    assert st.phase == "team"
    with pytest.raises(IllegalAction):
        st.apply(action)


def test_a_team_action_survives_pickling_and_copying_as_itself():
    """Worker processes pickle actions; a clone may deep-copy one: Use must come back whole."""
    use = Use("use", 2, (3, 0, 1), "e")
    for again in (pickle.loads(pickle.dumps(use)), copy.deepcopy(use), copy.copy(use)):
        assert type(again) is Use and again == use and again.slot == 2 and again.params == ((3, 0, 1), "e")
