"""The Lost Words card game (cards/lost-words, generator/rules/lost_words/): one test per rule.

Situations are arranged from the real cards (`arrange` takes cards by their type
key, e.g. "spell:fern", "special:the-acorn", so a test names the cards it is
about); chance draws are applied by hand (`deal`), and the engine's invariants
are checked after every step that matters.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from spellpress.errors import UserError
from spellpress.load.game import load_game
from spellpress.rules import engine_for
from spellpress.rules import lost_words as L
from spellpress.rules.protocol import CHANCE, IllegalAction, InvariantError, RandomPlayer
from spellpress.simulate.play import play_game

ROOT = Path(__file__).resolve().parents[2]
GAME_DIR = ROOT / "cards" / "lost-words"
WORDS = ["acorn", "adder", "bluebell", "bramble", "conker", "dandelion", "fern", "heather", "heron", "ivy",
         "kingfisher", "lark", "magpie", "newt", "otter", "raven", "starling", "weasel", "willow", "wren"]


@pytest.fixture(scope="module")
def game():
    return load_game(GAME_DIR)


def _take(pool: list[int], defs: L.Defs, key: str) -> int:
    for index, card in enumerate(pool):
        if defs.type_key[card] == key:
            return pool.pop(index)
    raise AssertionError(f"no {key} left")


def arrange(game, players=2, rows=None, hands=None, spares=("fern", "ivy"), discard=("spell:wren",),
            seat=0, phase=L.DRAW, deck=None, options=None):
    """A state at `phase` for `seat`: rows[seat] lists words, "word*" for a covered one (by its Spell),
    "word!" for one covered by The Wild One, "word*#" for a covered one behind a Wall."""
    state = L.RULES.new_state(game, players, options)
    defs = state.defs
    state.owed = []
    natures, spells = list(defs.nature_ids), list(defs.spell_ids)
    state.rows = [[] for _ in range(players)]
    for s, words in (rows or {}).items():
        for text in words:
            word = text.rstrip("*#!")
            slot = [_take(natures, defs, f"nature:{word}"), L.NONE, L.NONE]
            if "*" in text:
                slot[1] = _take(spells, defs, f"spell:{word}")
            if "!" in text:
                slot[1] = _take(spells, defs, "special:the-wild-one")
            if "#" in text:
                slot[2] = _take(spells, defs, "special:the-wall")
            state.rows[s].append(slot)
    filler = [w for w in WORDS if all(w != t.rstrip("*#!") for ws in (rows or {}).values() for t in ws) and w not in spares]
    for s in range(players):
        while len(state.rows[s]) < state.each:
            state.rows[s].append([_take(natures, defs, f"nature:{filler.pop()}"), L.NONE, L.NONE])
    state.spares = [_take(natures, defs, f"nature:{w}") for w in spares]
    state.box, state.nature_deck = natures, []
    state.hands = [[_take(spells, defs, key) for key in (hands or {}).get(s, [])] for s in range(players)]
    state.discard = [_take(spells, defs, key) for key in discard]
    if deck is not None:
        state.deck = [_take(spells, defs, key) for key in deck]
        state.discard = spells + state.discard  # the rest lies under the named top card(s)
    else:
        state.deck = spells
    state.seat, state.phase = seat, phase
    state.actions_left = defs.params["actions"] if phase == L.ACTION else 0
    state.check_invariants()
    return state


def deal(state, key):
    assert state.current_player() == CHANCE
    assert ("deal", key) in [a for a, _ in state.chance_outcomes()]
    state.apply(("deal", key))
    state.check_invariants()


def keys(state, seat):
    return sorted(state.defs.type_key[c] for c in state.hands[seat])


def top(state):
    return state.defs.type_key[state.discard[-1]]


def settle(state, rng=None):
    rng = rng or random.Random(0)
    while state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])


# --------------------------------------------------------------------------- components


def test_components_twenty_nature_forty_spells_twenty_specials(game):
    nature, spells, specials = game.component("nature"), game.component("spells"), game.component("specials")
    assert sorted(c["word"] for c in nature.cards) == WORDS and nature.copies == 20
    assert sorted(c["word"] for c in spells.cards) == WORDS and all(c.count == 2 for c in spells.cards)
    assert spells.copies == 40
    counts = {c["name"]: c.count for c in specials.cards}
    assert counts == {"The Acorn": 3, "The Conker": 3, "The Heron": 3, "The Lark": 3, "The Magpie": 3,
                      "The Wall": 4, "The Wild One": 1}
    assert all(c["power"].strip() for c in specials.cards)


def test_two_decks_have_different_backs(game):
    nature, spells, specials = game.component("nature"), game.component("spells"), game.component("specials")
    assert spells.back == specials.back
    assert nature.back is not None and spells.back is not None and nature.back != spells.back
    assert nature.back.fields["color"] != spells.back.fields["color"]


def test_player_aid_has_the_turn_and_the_specials(game):
    aid = game.component("player-aid")
    card = aid.cards[0]
    assert aid.back is not None and aid.back.per_card
    assert "Draw" in card["body"] and "Spell" in card["body"]
    back = card.back_fields["body"]
    for name in ("Acorn", "Conker", "Heron", "Lark", "Magpie", "Wall", "Wild One"):
        assert name in back


def test_special_effects_are_data_read_by_the_effect_vocabulary(game):
    defs = L.definitions(game)
    kinds = {key: effect.kind for key, effect in defs.effects.items()}
    assert kinds == {"the-acorn": "draw", "the-conker": "knock-off", "the-heron": "ask-everyone",
                     "the-lark": "extra-actions", "the-magpie": "swap-pair", "the-wall": "protect",
                     "the-wild-one": "wild-spell"}
    source = "".join(path.read_text() for path in Path(L.__file__).parent.glob("*.py"))
    assert not any(f'"{word}"' in source for word in WORDS)  # no card data in Python


def test_unknown_effect_kind_is_an_error(game, tmp_path):
    import shutil
    folder = tmp_path / "lost-words"
    shutil.copytree(GAME_DIR, folder)
    path = folder / "specials.yaml"
    path.write_text(path.read_text().replace("kind: draw, cards: 2", "kind: teleport"))
    with pytest.raises(UserError, match="unknown effect kind 'teleport'"):
        L.definitions(load_game(folder))


def test_components_print_with_both_backs_on_a4_and_letter(build_game):
    for paper in ("a4", "letter"):
        _, manifest, _ = build_game(GAME_DIR, paper=paper, backs="duplex-short")
        for component in manifest["components"]:
            for card in component["cards"]:
                for copy in card["copies"]:
                    sides = sorted(p["side"] for p in copy["placements"])
                    assert sides == ["back", "front"], (component, card)


# --------------------------------------------------------------------------- setup


@pytest.mark.parametrize("players,each", [(2, 6), (3, 5), (4, 4)])
def test_setup_deals_nature_cards_by_player_count_and_two_spares(game, players, each):
    state = L.RULES.new_state(game, players)
    settle(state, random.Random(players))
    assert [len(row) for row in state.rows] == [each] * players
    assert all(slot[1] == L.NONE for row in state.rows for slot in row)
    assert len(state.spares) == 2
    assert len(state.box) == 20 - players * each - 2  # the rest go back to the box
    state.check_invariants()


def test_setup_deals_hands_of_three_and_turns_up_the_first_discard(game):
    state = L.RULES.new_state(game, 4)
    settle(state, random.Random(1))
    assert [len(h) for h in state.hands] == [3, 3, 3, 3]
    assert len(state.discard) == 1
    assert len(state.deck) == 60 - 12 - 1


def test_youngest_player_goes_first(game):
    state = L.RULES.new_state(game, 3)
    settle(state)
    assert state.phase == L.DRAW and state.current_player() == 0


# --------------------------------------------------------------------------- the turn


def test_draw_from_the_deck_or_the_discard_pile(game):
    state = arrange(game, hands={0: ["spell:adder", "spell:otter", "spell:raven"]}, discard=("spell:newt", "spell:lark"))
    assert set(state.legal_actions()) == {L.DRAW_DECK, L.DRAW_DISCARD}
    state.apply(L.DRAW_DISCARD)
    assert "spell:lark" in keys(state, 0) and top(state) == "spell:newt"
    other = arrange(game, hands={0: ["spell:adder"]})
    other.apply(L.DRAW_DECK)
    deal(other, "spell:heron")
    assert keys(other, 0) == ["spell:adder", "spell:heron"]


def test_never_draw_a_special_from_the_discard_pile(game):
    state = arrange(game, discard=("spell:newt", "special:the-acorn"))
    assert state.legal_actions() == [L.DRAW_DECK]
    with pytest.raises(IllegalAction):
        state.apply(L.DRAW_DISCARD)


def test_place_a_spell_on_its_matching_nature_card(game):
    state = arrange(game, rows={0: ["otter", "raven"]}, hands={0: ["spell:otter", "spell:adder", "spell:newt", "spell:lark"]},
                    phase=L.ACTION)
    assert ("place", "otter") in state.legal_actions()
    assert ("place", "adder") not in state.legal_actions()
    with pytest.raises(IllegalAction):
        state.apply(("place", "raven"))  # no raven Spell in hand
    state.apply(("place", "otter"))
    state.check_invariants()
    assert state.covered(0) == 1 and state.defs.type_key[state.rows[0][0][1]] == "spell:otter"


def test_only_one_action_a_turn(game):
    state = arrange(game, rows={0: ["otter", "raven"]},
                    hands={0: ["spell:otter", "spell:raven", "spell:newt", "spell:lark"]}, phase=L.ACTION)
    state.apply(("place", "otter"))
    assert state.phase == L.DRAW and state.seat == 1  # hand back at three: the turn is over
    assert state.covered(0) == 1


def test_exchange_a_nature_card_with_a_spare(game):
    state = arrange(game, rows={0: ["otter", "raven*"]}, hands={0: ["spell:fern", "spell:adder", "spell:newt", "spell:lark"]},
                    spares=("fern", "ivy"), phase=L.ACTION)
    assert ("exchange", "raven", "fern") not in state.legal_actions()  # a covered card stays
    state.apply(("exchange", "otter", "fern"))
    words = [state.defs.word[s[0]] for s in state.rows[0]]
    assert "fern" in words and "otter" not in words
    assert sorted(state.defs.word[c] for c in state.spares) == ["ivy", "otter"]


def test_taking_no_action_is_allowed(game):
    state = arrange(game, hands={0: ["spell:adder", "spell:newt", "spell:lark", "spell:heron"]}, phase=L.ACTION)
    assert L.PASS in state.legal_actions()
    state.apply(L.PASS)
    assert state.phase == L.DISCARD and state.current_player() == 0


def test_end_of_turn_discard_down_to_three(game):
    state = arrange(game, hands={0: ["spell:adder", "spell:newt", "spell:lark", "spell:heron"]}, phase=L.ACTION)
    state.apply(L.PASS)
    state.apply(("discard", "spell:newt"))
    state.check_invariants()
    assert keys(state, 0) == ["spell:adder", "spell:heron", "spell:lark"] and top(state) == "spell:newt"
    assert state.seat == 1 and state.phase == L.DRAW


def test_end_of_turn_draw_up_to_three(game):
    state = arrange(game, rows={0: ["otter", "raven", "newt"]}, phase=L.ACTION,
                    hands={0: ["special:the-lark", "spell:otter", "spell:raven"]})
    state.apply(("play", "the-lark"))
    state.apply(("place", "otter"))
    state.apply(("place", "raven"))
    assert state.current_player() == CHANCE  # down to no cards: draw three
    for key in ("spell:adder", "spell:heron", "spell:willow"):
        deal(state, key)
    assert keys(state, 0) == ["spell:adder", "spell:heron", "spell:willow"]
    assert state.seat == 1


# --------------------------------------------------------------------------- the specials


def test_played_special_is_the_card_discarded_at_the_end_of_the_turn(game):
    state = arrange(game, hands={0: ["special:the-acorn", "spell:adder", "spell:newt", "spell:heron"]}, phase=L.ACTION)
    state.apply(("play", "the-acorn"))
    deal(state, "spell:lark")
    deal(state, "spell:willow")
    assert state.phase == L.DISCARD and len(state.hands[0]) == 5
    state.apply(("discard", "spell:newt"))
    state.apply(("discard", "spell:adder"))
    assert top(state) == "special:the-acorn"  # the Special lies on top of the turn's discards
    assert state.seat == 1 and len(state.hands[0]) == 3


def test_acorn_draws_two_extra_cards(game):
    state = arrange(game, hands={0: ["special:the-acorn", "spell:adder", "spell:newt", "spell:heron"]}, phase=L.ACTION)
    state.apply(("play", "the-acorn"))
    assert [o[1] for o in state.owed] == [L.TO_HAND, L.TO_HAND]
    deal(state, "spell:lark")
    deal(state, "spell:willow")
    assert keys(state, 0) == ["spell:adder", "spell:heron", "spell:lark", "spell:newt", "spell:willow"]


def test_lark_gives_one_more_action(game):
    state = arrange(game, rows={0: ["otter", "raven", "newt"]}, phase=L.ACTION,
                    hands={0: ["special:the-lark", "spell:otter", "spell:raven", "spell:adder"]})
    state.apply(("play", "the-lark"))
    assert state.actions_left == 2  # the Lark costs no action
    state.apply(("place", "otter"))
    assert state.phase == L.ACTION
    state.apply(("place", "raven"))
    assert state.covered(0) == 2


def test_heron_takes_the_spell_from_the_first_player_who_has_it(game):
    state = arrange(game, players=3, rows={0: ["otter"]}, phase=L.ACTION,
                    hands={0: ["special:the-heron", "spell:adder", "spell:newt", "spell:lark"],
                           1: ["spell:heron"], 2: ["spell:otter", "spell:otter"]})
    state.apply(("play", "the-heron", "otter"))
    assert "spell:otter" in keys(state, 0) and keys(state, 2) == ["spell:otter"]
    assert state.miss == [0, 0, 0]


def test_heron_misses_next_turn_when_nobody_has_the_card(game):
    state = arrange(game, players=3, rows={0: ["otter"]}, phase=L.ACTION,
                    hands={0: ["special:the-heron", "spell:adder", "spell:newt"], 1: ["spell:heron"], 2: ["spell:lark"]})
    state.apply(("play", "the-heron", "otter"))
    assert state.miss[0] == 1 and state.figures["heron_fails"] == 1
    settle(state)
    for seat in (1, 2):  # seats 1 and 2 play; seat 0's next turn is skipped
        assert state.seat == seat
        state.apply(L.DRAW_DECK)
        settle(state)
        state.apply(L.PASS)
        state.apply(state.legal_actions()[0])
        settle(state)
    assert state.seat == 1 and state.miss[0] == 0 and state.figures["skipped_turns"] == 1


def test_conker_sends_a_matched_spell_to_the_discard_pile(game):
    state = arrange(game, rows={1: ["otter*", "raven*#", "newt!"]}, phase=L.ACTION,
                    hands={0: ["special:the-conker", "spell:adder", "spell:lark"], 1: ["spell:heron"]})
    moves = [a for a in state.legal_actions() if a[:2] == ("play", "the-conker")]
    assert moves == [("play", "the-conker", 1, "otter")]  # walled and wild pairs cannot be touched
    state.apply(("play", "the-conker", 1, "otter"))
    assert state.covered(1) == 2 and top(state) == "spell:otter"
    assert state.phase != L.REPLY  # the victim has no copy: nothing to decide
    settle(state)
    assert top(state) == "special:the-conker" and state.seat == 1


def test_conker_victim_may_replace_with_the_duplicate_and_draw(game):
    state = arrange(game, rows={1: ["otter*"]}, phase=L.ACTION,
                    hands={0: ["special:the-conker", "spell:adder", "spell:lark"], 1: ["spell:otter", "spell:heron"]})
    state.apply(("play", "the-conker", 1, "otter"))
    assert state.phase == L.REPLY and state.current_player() == 1
    assert set(state.legal_actions()) == {L.REPLACE, L.DECLINE}
    state.apply(L.REPLACE)
    assert state.covered(1) == 1 and keys(state, 1) == ["spell:heron"]
    deal(state, "spell:willow")  # ... then draws another card
    assert keys(state, 1) == ["spell:heron", "spell:willow"]


def test_magpie_steals_a_completed_pair_for_an_uncompleted_nature_card(game):
    state = arrange(game, rows={0: ["adder", "newt*"], 1: ["otter*", "raven"]}, phase=L.ACTION,
                    hands={0: ["special:the-magpie", "spell:lark", "spell:heron"]})
    assert ("play", "the-magpie", 1, "otter", "newt") not in state.legal_actions()  # give an uncovered card
    state.apply(("play", "the-magpie", 1, "otter", "adder"))
    mine = {state.defs.word[s[0]]: s[1] != L.NONE for s in state.rows[0]}
    theirs = {state.defs.word[s[0]]: s[1] != L.NONE for s in state.rows[1]}
    assert mine["otter"] and "adder" not in mine
    assert theirs["adder"] is False and "otter" not in theirs
    assert state.covered(0) == 2 and state.covered(1) == 0


def test_wall_protects_a_completed_pair(game):
    state = arrange(game, rows={0: ["otter*", "adder"]}, phase=L.ACTION,
                    hands={0: ["special:the-wall", "spell:lark", "spell:heron"]})
    assert ("play", "the-wall", "adder") not in state.legal_actions()  # only a completed pair
    state.apply(("play", "the-wall", "otter"))
    assert state.rows[0][0][2] != L.NONE and state.protected(state.rows[0][0])
    assert state.attackable(1) == []
    assert all(state.defs.special[c] != "the-wall" for c in state.discard)  # the Wall stays on its pair


def test_wild_one_pairs_with_any_nature_card_and_is_untouchable(game):
    state = arrange(game, rows={0: ["kingfisher", "adder"]}, phase=L.ACTION,
                    hands={0: ["special:the-wild-one", "spell:lark", "spell:heron"]})
    state.apply(("play", "the-wild-one", "kingfisher"))
    assert state.covered(0) == 1 and state.attackable(1) == []
    assert ("play", "the-wall", "kingfisher") not in state._special_moves("the-wall", [])


def test_discard_pile_always_holds_a_card(game):
    state = arrange(game, hands={0: ["spell:adder"]}, discard=("spell:lark",))
    state.apply(L.DRAW_DISCARD)
    assert not state.discard and state.current_player() == CHANCE  # turn the top of the deck over
    deal(state, "spell:newt")
    assert top(state) == "spell:newt"


def test_deck_reshuffles_from_the_discard_pile(game):
    state = arrange(game, hands={0: ["spell:adder", "spell:otter"]}, deck=["spell:raven"], discard=("spell:lark",))
    under = len(state.discard)
    state.apply(L.DRAW_DECK)
    deal(state, "spell:raven")  # the last card: the discard pile becomes the deck ...
    assert len(state.deck) == under and state.figures["reshuffles"] == 1
    assert state.current_player() == CHANCE  # ... and a new first card is turned up
    outcome = state.chance_outcomes()[0][0]
    state.apply(outcome)
    assert len(state.discard) == 1 and len(state.deck) == under - 1


def test_first_player_to_complete_all_nature_cards_wins(game):
    state = arrange(game, players=3, rows={0: ["otter", "raven*", "newt*", "adder*", "lark*"]}, phase=L.ACTION,
                    hands={0: ["spell:otter", "spell:heron", "spell:wren", "spell:willow"]})
    state.apply(("place", "otter"))
    assert state.is_terminal() and state.winner == 0
    outcome = state.outcome()
    assert outcome.winners == [0] and outcome.scores[0] == 5.0


@pytest.mark.parametrize("players", [2, 3])
def test_cover_to_win_four_reads_the_aim_as_four_cards_even_with_more_dealt(game, players):
    # "To be the first player to place a matching Spell Card on to all four of that player's
    # displayed Nature Cards": read as four, with 6 (2 players) or 5 (3 players) dealt the fourth wins
    state = arrange(game, players=players, rows={0: ["otter", "raven*", "newt*", "adder*"]}, phase=L.ACTION,
                    hands={0: ["spell:otter", "spell:heron", "spell:wren"]}, options={"cover_to_win": 4})
    assert len(state.rows[0]) > 4 and not state.is_terminal()
    state.apply(("place", "otter"))
    assert state.is_terminal() and state.winner == 0
    assert state.outcome().winners == [0] and state.outcome().scores[0] == 4.0
    state.check_invariants()


def test_the_shipped_game_asks_for_every_nature_card_dealt(game):
    assert game.spec.rules["cover_to_win"] == "all"  # the choice, with the rulebook's sentences, in the README
    state = arrange(game, players=2, rows={0: ["otter", "raven*", "newt*", "adder*", "lark"]}, phase=L.ACTION,
                    hands={0: ["spell:otter", "spell:heron", "spell:wren"]})
    state.apply(("place", "otter"))
    assert state.covered(0) == 4 and not state.is_terminal()  # 4 of 6: play goes on
    state.check_invariants()


def test_cover_to_win_above_the_nature_cards_dealt_is_refused(game):
    with pytest.raises(UserError, match="cover_to_win"):
        L.RULES.new_state(game, 2, {"cover_to_win": "7"})


# --------------------------------------------------------------------------- engine


def test_invariants_catch_a_lost_or_duplicated_card(game):
    state = arrange(game, hands={0: ["spell:adder"]})
    state.hands[0].append(state.deck.pop())
    state.check_invariants()
    state.hands[1].append(state.hands[0][0])
    with pytest.raises(InvariantError):
        state.check_invariants()


def test_invariants_catch_a_wrong_card_in_a_row_or_a_pile_after_a_sound_check(game):
    """check_invariants skips rows it has seen unchanged; a change made after a sound check is still caught."""
    def state_checked():
        state = arrange(game, rows={0: ["otter*", "raven*#"]}, hands={0: ["spell:adder"]})
        state.check_invariants()
        return state

    state = state_checked()
    covered, walled = state.rows[0][0], state.rows[0][1]
    covered[1], walled[1] = walled[1], covered[1]  # each Spell now covers the other's Nature card
    with pytest.raises(InvariantError, match="covers"):
        state.check_invariants()
    state = state_checked()
    state.rows[0][1][1], state.rows[0][1][2] = state.rows[0][1][2], state.rows[0][1][1]  # the Wall as the cover
    with pytest.raises(InvariantError):
        state.check_invariants()
    state = state_checked()
    state.rows[0][0][0], state.hands[0][0] = state.hands[0][0], state.rows[0][0][0]  # a Spell where a Nature card lies
    with pytest.raises(InvariantError, match="row slot without a Nature card|Nature card in the hand"):
        state.check_invariants()
    state = state_checked()
    state.discard.append(state.rows[0][1][1])  # the Spell behind the Wall knocked off, the Wall left standing
    state.rows[0][1][1] = L.NONE
    with pytest.raises(InvariantError, match="a wall on an uncovered card"):
        state.check_invariants()
    state = state_checked()
    state.spares[0], state.discard[0] = state.discard[0], state.spares[0]
    with pytest.raises(InvariantError, match="in the spares|in the discard pile"):
        state.check_invariants()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_games_keep_every_invariant(game, players):
    rules = engine_for("lost-words")
    for seed in range(12):
        seats = [rules.heuristic_player(1.0) if (seat + seed) % 2 else RandomPlayer() for seat in range(players)]
        outcome = play_game(rules, game, seats, seed, check=True)
        assert not outcome.stalled
        assert len(outcome.winners) == 1
        assert outcome.figures["minutes_model"] > 2


def test_same_seed_same_game(game):
    players = [L.RULES.heuristic_player(0.7) for _ in range(3)]
    first = play_game(L.RULES, game, players, 77)
    second = play_game(L.RULES, game, players, 77)
    assert first == second


def test_heuristic_beats_random(game):
    wins = 0
    for seed in range(40):
        seats = [L.RULES.heuristic_player(1.0), RandomPlayer()] if seed % 2 == 0 else [RandomPlayer(),
                                                                                       L.RULES.heuristic_player(1.0)]
        outcome = play_game(L.RULES, game, seats, seed)
        wins += (seed % 2) in outcome.winners
    assert wins >= 36


def test_options_override_rule_numbers(game):
    state = L.RULES.new_state(game, 2, {"spares": 3, "hand": 4})
    settle(state)
    assert len(state.spares) == 3 and [len(h) for h in state.hands] == [4, 4]
    with pytest.raises(UserError, match="unknown option 'nonsense'"):
        L.RULES.new_state(game, 2, {"nonsense": 1})


@pytest.mark.parametrize("players", [2, 4])
def test_chance_outcomes_count_the_pile_as_it_is_after_every_action(game, players):
    """The deal's outcomes are counted once per pile and kept up to date by each deal; after every action of
    seeded games (reshuffles included) and in a re-dealt clone they are what counting the pile gives."""
    from collections import Counter

    from spellpress.rules.lost_words.state import NATURE_PILE

    def counted(state):
        pile = state.nature_deck if state.owed[0][0] == NATURE_PILE else state.deck
        kinds = Counter(state.defs.type_key[card] for card in pile)
        return [(("deal", kind), n / len(pile)) for kind, n in sorted(kinds.items())]

    rng = random.Random(7)
    seats, chance_steps, reshuffles = [RandomPlayer() for _ in range(players)], 0, 0
    for _ in range(3):
        state = L.RULES.new_state(game, players)
        while not state.is_terminal() and state.turns < 200:
            seat = state.current_player()
            if seat == CHANCE:
                assert list(state.chance_outcomes()) == counted(state)
                chance_steps += 1
                state.apply(rng.choice([action for action, _ in state.chance_outcomes()]))
            else:
                if state.phase == L.DRAW and rng.random() < 0.2:
                    clone = state.determinize(seat, rng)
                    clone.apply(L.DRAW_DECK if L.DRAW_DECK in clone.legal_actions() else clone.legal_actions()[0])
                    if clone.current_player() == CHANCE:
                        assert list(clone.chance_outcomes()) == counted(clone)
                state.apply(seats[seat].act(state, seat, rng))
        reshuffles += state.figures["reshuffles"]
    assert chance_steps > 100 and reshuffles


def test_a_deal_takes_the_last_card_of_its_kind_and_the_pile_keeps_its_order_otherwise(game):
    """The physical card dealt is the pile's last of the kind drawn, and the pile's last card takes its place
    (the deal found it by a scan before PileCounts kept the kinds reversed): seeded games, reshuffles included."""
    from spellpress.rules.lost_words.state import NATURE_PILE

    rng, deals = random.Random(11), 0
    seats = [RandomPlayer() for _ in range(3)]
    state = L.RULES.new_state(game, 3)
    while not state.is_terminal() and state.turns < 200:
        seat = state.current_player()
        if seat != CHANCE:
            state.apply(seats[seat].act(state, seat, rng))
            continue
        source = state.owed[0][0]
        pile = state.nature_deck if source == NATURE_PILE else state.deck
        action = state.sample_chance(rng)
        kind = action[1]
        index = max(i for i, card in enumerate(pile) if state.defs.type_key[card] == kind)
        expected = list(pile)
        card = expected[index]
        expected[index] = expected[-1]
        expected.pop()
        state.apply(action)
        assert card not in pile and pile[:len(expected)] == expected[:len(pile)]
        assert card in (*state.spares, *state.discard, *(c for h in state.hands for c in h),
                        *(slot[0] for row in state.rows for slot in row))
        deals += 1
    assert deals > 50
    with pytest.raises(IllegalAction, match="no spell:nonsense left to deal"):
        state = L.RULES.new_state(game, 2)
        state.owed = [("spell", "hand", 0)]
        state.apply(("deal", "spell:nonsense"))


def test_the_heuristic_counts_what_a_seat_sees_as_counting_every_card_does(game):
    """The heuristic's unseen copies of each Spell word and a hand's Spells, counted from per-card tables and
    without a Counter, are what counting every visible card gives, at every decision of seeded games."""
    from collections import Counter

    from spellpress.rules.lost_words.content import SPELL
    from spellpress.rules.lost_words.players import LostWordsPlayer

    rng, checked = random.Random(5), 0
    player = LostWordsPlayer()
    for players in (2, 4):
        state = L.RULES.new_state(game, players)
        while not state.is_terminal() and state.turns < 200:
            seat = state.current_player()
            if seat == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            defs = state.defs
            visible = [c for row in state.rows for slot in row for c in slot[1:2] if c != L.NONE]
            visible += state.discard + state.hands[seat]
            seen = Counter(defs.word[c] for c in visible if defs.kind[c] == SPELL)
            unseen = player._unseen(state, seat)
            assert {w: unseen[w] for w in [*defs.spell_words, "no-such-word"]} == {
                w: defs.copies.get(w, 0) - seen[w] for w in [*defs.spell_words, "no-such-word"]}
            assert state.hand_spells(seat) == Counter(defs.word[c] for c in state.hands[seat] if defs.kind[c] == SPELL)
            checked += 1
            state.apply(player.act(state, seat, rng))
    assert checked > 100


def test_typed_names_each_shape_of_a_plain_tuple():
    from spellpress.rules.lost_words import actions as A

    shapes = {("deal", "spell:otter"): A.Deal, ("draw", "deck"): A.Draw, ("pass",): A.Pass, ("place", "otter"): A.Place,
              ("exchange", "otter", "fern"): A.Exchange, ("play", "the-lark"): A.Play,
              ("play", "the-heron", "otter"): A.PlayWord, ("play", "the-conker", 1, "otter"): A.PlayOn,
              ("play", "the-magpie", 1, "otter", "adder"): A.PlaySwap, ("replace",): A.Replace,
              ("decline",): A.Decline, ("discard", "spell:newt"): A.Discard}
    for plain, kind in shapes.items():
        named = A.typed(plain)
        assert type(named) is kind and named == plain and hash(named) == hash(plain)
        assert repr(named) == repr(plain) and A.typed(named) is named
    swap = A.typed(("play", "the-magpie", 1, "otter", "adder"))
    assert (swap.special, swap.victim, swap.word, swap.mine) == ("the-magpie", 1, "otter", "adder")


@pytest.mark.parametrize("action", [("fly", "otter"), ("place",), ("place", "otter", "raven"), ("play",),
                                    ("play", "the-magpie", 1, "otter", "adder", "newt"), (), (3, "otter"), "pass"])
def test_an_unknown_verb_or_a_wrong_field_count_is_illegal(game, action):
    from spellpress.rules.lost_words.actions import typed

    with pytest.raises(IllegalAction):
        typed(action)
    state = arrange(game, rows={0: ["otter"]}, hands={0: ["spell:otter", "special:the-magpie", "spell:newt"]},
                    phase=L.ACTION)
    with pytest.raises(IllegalAction):
        state.apply(action)
    assert state.phase == L.ACTION and keys(state, 0) == ["special:the-magpie", "spell:newt", "spell:otter"]


def test_every_move_is_named_and_a_game_replays_from_its_json_record(game):
    """Legal moves and chance outcomes are named tuples; the same game applied as the plain tuples a JSON
    record gives back ends in the same position."""
    from spellpress.rules.action_json import from_json_value, to_json_value
    from spellpress.rules.lost_words.actions import KINDS

    named_kinds, rng, record = set(KINDS.values()), random.Random(3), []
    state = L.RULES.new_state(game, 3)
    while not state.is_terminal() and state.turns < 150:
        moves = list(state.legal_actions())
        assert {type(move) for move in moves} <= named_kinds
        move = rng.choice(moves)
        record.append(to_json_value(move))
        state.apply(move)
    replay = L.RULES.new_state(game, 3)
    for value in record:
        plain = from_json_value(value)
        assert type(plain) is tuple
        replay.apply(plain)
    assert len(record) > 200 and replay.returns() == state.returns() and replay.hands == state.hands
    assert replay.rows == state.rows and replay.discard == state.discard


def test_counted_legal_actions_are_as_many_as_the_listed_ones(game):
    """count_legal_actions (what the runner's move counts ask) equals len(legal_actions()) at every step of
    seeded games, chance steps included, with heuristic and random seats so every Special is played."""
    from spellpress.rules.lost_words.players import LostWordsPlayer
    from tests.rules.legal_counts import play_counting

    rng, kinds_held = random.Random(11), set()

    def look(state, seat):
        if state.phase == L.state.ACTION:
            kinds_held.update(state.defs.effects[key].kind for key in state.hand_specials(seat))

    for players in (2, 3, 4):
        for _ in range(6):
            seats = [LostWordsPlayer(), RandomPlayer(), LostWordsPlayer(0.5), RandomPlayer()][:players]
            play_counting(L.RULES.new_state(game, players), seats, rng, 300, look)
    assert kinds_held == set(L.content.EFFECTS)  # every kind of Special was counted in some hand
