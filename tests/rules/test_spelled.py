"""Rules of Spelled (cards/spelled, generator/rules/spelled/): one test per rule.

Situations are built from a real seeded setup, then cards are moved by id
(`put`) so a test names the cards it is about; the engine's own invariants are
checked after every test step that matters.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from spellpress.load.game import load_game
from spellpress.rules.protocol import CHANCE, TERMINAL, IllegalAction, InvariantError, RandomPlayer
from spellpress.rules.spelled import ABILITIES, RULES, SpelledState
from spellpress.simulate.play import play_game

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def game():
    return load_game(ROOT / "cards" / "spelled")


def settle_chance(state: SpelledState, rng: random.Random | None = None) -> None:
    while state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        state.apply(outcomes[0][0] if rng is None else rng.choice(outcomes)[0])


def new(game, players: int = 2, **options) -> SpelledState:
    state = RULES.new_state(game, players, options)
    settle_chance(state)
    return state


def places(state: SpelledState) -> list[list]:
    return [*state.hand, *state.inplay, *state.top, *state.pool, *state.discard,
            state.market_pool, state.reserve, state.scrapped, state.played]


def put(state: SpelledState, key: str, target: list, skip: tuple = ()) -> int:
    """Move one copy of card `key` (not one of `skip`) from wherever it is to `target`
    (seat 0's own deck first, so a starter keeps to its side)."""
    for place in [state.pool[0], state.market_pool, state.reserve, state.scrapped, *places(state)]:
        for uid in place:
            if state.defs[uid].key == key and uid not in skip:
                place.remove(uid)
                target.append(uid)
                return uid
    for slot, uid in enumerate(state.row):
        if uid is not None and state.defs[uid].key == key and uid not in skip:
            state.row[slot] = state.market_pool.pop()  # keep the row full
            target.append(uid)
            return uid
    raise KeyError(key)


def to_main(game, hand_keys: list[str] = ()) -> SpelledState:
    """A two-player game at seat 0's first main phase, its hand replaced by `hand_keys`."""
    state = new(game)
    while state.phase == "setup-drop":
        state.apply(("drop", state.hand[0][0]))
        settle_chance(state)
    assert state.phase == "main" and state.seat == 0
    for uid in list(state.hand[0]):
        state.hand[0].remove(uid)
        state.pool[0].append(uid)
    taken: list[int] = []
    for key in hand_keys:
        taken.append(put(state, key, state.hand[0], tuple(taken)))
    state.check_invariants()
    return state


def uids(state: SpelledState, keys: list[str]) -> tuple:
    out, hand = [], list(state.hand[state.seat])
    for key in keys:
        uid = next(u for u in hand if state.defs[u].key == key and u not in out)
        out.append(uid)
    return tuple(sorted(out))


def end_turn(state: SpelledState) -> None:
    state.apply(("end", False))
    settle_chance(state)
    while state.phase == "drop":
        state.apply(("drop", state.hand[state.seat][0]))
        settle_chance(state)


# -- components ------------------------------------------------------------------
def test_components_match_the_rulebook_counts(game):
    assert game.component("starter").copies == 20
    assert game.component("reserve").copies == 5
    assert game.component("market").copies == 78
    assert game.component("scoring").copies == 4
    assert game.component("reference").copies == 1
    starters = sorted(c.fields["letter"] for c in game.component("starter").cards for _ in range(c.count))
    assert starters == sorted("AEIOU" * 4)


def test_every_ability_of_the_rulebook_appears_on_a_market_card(game):
    seen = set()
    for card in game.component("market").cards:
        f = card.fields
        for box in [f["fragment"], *f["spelled"], f.get("scrap") or {}]:
            seen.update(box)
    assert seen == set(ABILITIES)
    kinds = {c.fields["type"] for c in game.component("market").cards}
    assert kinds == {"effect", "shield", "totem"}


# -- setup -------------------------------------------------------------------------
def test_setup_two_players_have_25_health_and_hands_of_five(game):
    state = new(game)
    assert state.health == [25, 25]
    assert len(state.hand[0]) == 5 and len(state.hand[1]) == 5
    for seat in (0, 1):
        letters = sorted(state.defs[u].letter for u in state.hand[seat] + state.pool[seat])
        assert letters == sorted("aeiou" * 2)


def test_setup_market_row_of_five_scraps_and_replaces_cost_five_or_more(game):
    for seed in range(30):
        state = RULES.new_state(game, 2)
        settle_chance(state, random.Random(seed))
        assert len(state.row) == 5 and all(u is not None for u in state.row)
        assert all(state.defs[u].cost < 5 for u in state.row)
        assert all(state.defs[u].cost >= 5 for u in state.scrapped)
        state.check_invariants()


def test_first_player_discards_two_cards_at_setup(game):
    state = new(game)
    assert state.phase == "setup-drop" and state.current_player() == 0
    with pytest.raises(IllegalAction):
        state.apply(("end", False))
    state.apply(("drop", state.hand[0][0]))
    state.apply(("drop", state.hand[0][0]))
    assert len(state.hand[0]) == 3 and len(state.discard[0]) == 2
    assert state.phase == "main" and len(state.hand[1]) == 5


# -- playing cards ------------------------------------------------------------------
def test_fragment_gains_only_the_top_box(game):
    state = to_main(game, ["s3a"])  # fragment +2 energy; spelled +1 damage
    state.apply(("fragment", state.hand[0][0]))
    assert state.energy == 2 and state.attacks == []


def test_spell_needs_three_or_more_cards_that_make_a_word(game):
    state = to_main(game, ["starter-a", "t1", "s1", "r1"])
    with pytest.raises(IllegalAction):
        state.apply(("spell", uids(state, ["starter-a", "t1"])))  # two letters
    with pytest.raises(IllegalAction):
        state.apply(("spell", uids(state, ["t1", "s1", "r1"])))  # no word
    state.apply(("spell", uids(state, ["starter-a", "t1", "r1"])))  # ART, RAT, TAR
    assert len(state.played) == 3


def test_spell_gains_all_boxes_and_sums_damage_to_one_attack(game):
    state = to_main(game, ["starter-a", "t4", "s3a"])  # A 0, T 4 (+2 dmg), S 2 (+1 dmg)
    state.apply(("spell", uids(state, ["starter-a", "t4", "s3a"])))  # SAT
    assert state.attacks == [0 + 4 + 2 + 2 + 1]
    assert state.energy == 1 + 2 + 2  # every card's top box as well
    state.apply(("attack", 0, -2))
    assert state.health[1] == 25 - 9


def test_spelled_bonus_five_letters_casts_a_second_spell_of_five(game):
    state = to_main(game, ["s1", "t1", "starter-a", "r1", "starter-e"])  # STARE
    state.apply(("spell", uids(state, ["s1", "t1", "starter-a", "r1", "starter-e"])))
    assert sorted(state.attacks) == [4, 5]  # S1 T1 R1 (+1 from S's spelled box), vowels 0; bonus 5
    state.apply(("attack", 0, -2))
    state.apply(("attack", 0, -2))
    assert state.health[1] == 25 - 9


def test_unused_abilities_are_lost_at_the_end_of_the_main_phase(game):
    state = to_main(game, ["s3a", "d3", "starter-a", "starter-e"])
    state.apply(("fragment", uids(state, ["s3a"])[0]))
    assert state.energy == 2
    end_turn(state)
    assert state.seat == 1 and state.energy == 0 and state.attacks == []
    assert all(v == 0 for v in state.tokens.values())


def test_fragment_damage_is_an_attack_of_its_own(game):
    state = to_main(game, ["j6"])
    state.apply(("fragment", state.hand[0][0]))
    assert state.attacks == [2] and state.energy == 1


# -- scrapping ------------------------------------------------------------------
def test_scrap_ability_scraps_the_played_card_and_gains_its_box(game):
    state = to_main(game, ["b2"])  # scrap: +3 damage
    uid = state.hand[0][0]
    with pytest.raises(IllegalAction):
        state.apply(("scrapself", uid))  # not played yet
    state.apply(("fragment", uid))
    state.apply(("scrapself", uid))
    assert uid in state.scrapped and uid not in state.played
    assert state.attacks == [3]


def test_scrap_from_hand_discard_and_market_row_refills_the_row(game):
    state = to_main(game, ["l2", "starter-a", "starter-e", "starter-o"])
    state.tokens["scrap_hand"] = 1
    state.tokens["scrap_discard"] = 1
    state.tokens["scrap_market"] = 1
    victim = uids(state, ["starter-a"])[0]
    state.apply(("scrap", victim))
    assert victim in state.scrapped
    waste = put(state, "starter-i", state.discard[0])
    state.apply(("scrap", waste))
    assert waste in state.scrapped
    slot_card = state.row[2]
    state.apply(("scrap", slot_card))
    assert state.current_player() == CHANCE  # the row is refilled from the market deck
    settle_chance(state)
    assert slot_card in state.scrapped and state.row[2] is not None and state.row[2] != slot_card
    with pytest.raises(IllegalAction):
        state.apply(("scrap", state.hand[0][0]))  # the scrap ability is used up
    state.check_invariants()


def test_scrapped_reserve_vowel_returns_to_the_reserve(game):
    state = to_main(game, ["reserve-a"])
    state.tokens["scrap_hand"] = 1
    uid = state.hand[0][0]
    state.apply(("scrap", uid))
    assert uid in state.reserve and uid not in state.scrapped
    state.check_invariants()


# -- acquiring ------------------------------------------------------------------
def test_acquiring_with_energy_puts_the_card_in_discard_and_refills_the_row(game):
    state = to_main(game)
    state.energy = 10
    card = state.row[0]
    cost = state.defs[card].cost
    state.apply(("buy", card))
    assert card in state.discard[0] and state.energy == 10 - cost
    settle_chance(state)
    assert all(u is not None for u in state.row)
    state.energy = 0
    with pytest.raises(IllegalAction):
        state.apply(("buy", state.row[1]))


def test_acquiring_a_vowel_from_the_reserve(game):
    state = to_main(game)
    state.energy = 2
    vowel = next(u for u in state.reserve if state.defs[u].letter == "u")
    state.apply(("buy", vowel))
    assert vowel in state.discard[0] and vowel not in state.reserve and state.energy == 0


def test_free_acquisition_takes_a_card_up_to_its_cost(game):
    state = to_main(game)
    state.free = [2]
    dear = put(state, "t7", [])
    state.row[4], back = dear, state.row[4]
    state.market_pool.append(back)
    with pytest.raises(IllegalAction):
        state.apply(("free", dear))
    cheap = next(u for u in state.reserve)
    state.apply(("free", cheap))
    assert cheap in state.discard[0] and state.free == []


def test_acquired_card_goes_to_hand_or_deck_top_when_an_ability_says(game):
    state = to_main(game)
    state.energy = 20
    state.tokens["to_hand"] = 1
    state.tokens["to_top"] = 1
    first = state.reserve[0]
    state.apply(("buy", first))
    assert first in state.hand[0]
    second = state.reserve[0]
    state.apply(("buy", second))
    assert state.top[0][-1] == second
    end_turn(state)
    end_turn(state)  # seat 1's turn passes; seat 0 drew the known top card
    assert second in state.hand[0]


# -- shields and totems ------------------------------------------------------------
def shielded(game, lasting: list[str]) -> SpelledState:
    state = to_main(game)
    for key in lasting:
        put(state, key, state.inplay[1])
    return state


def test_shields_must_fall_before_the_player_or_totems_can_be_attacked(game):
    state = shielded(game, ["d2", "y2"])
    shield, totem = state.inplay[1]
    assert state.targets(0) == [shield]
    state.attacks = [3]
    state.attack_owed = [False] * len(state.attacks)
    with pytest.raises(IllegalAction):
        state.apply(("attack", 0, -2))
    with pytest.raises(IllegalAction):
        state.apply(("attack", 0, totem))
    state.apply(("attack", 0, shield))  # strength 3: destroyed
    assert shield in state.discard[1] and state.targets(0) == [totem, -2]


def test_shield_damage_adds_up_within_a_turn(game):
    state = shielded(game, ["b6"])  # strength 7
    shield = state.inplay[1][0]
    state.attacks = [4, 3]
    state.attack_owed = [False] * len(state.attacks)
    state.apply(("attack", 0, shield))
    assert shield in state.inplay[1]
    state.apply(("attack", 0, shield))
    assert shield in state.discard[1]


def test_shield_damage_does_not_carry_over_to_the_next_turn(game):
    state = shielded(game, ["b6"])
    shield = state.inplay[1][0]
    state.attacks = [4]
    state.attack_owed = [False] * len(state.attacks)
    state.apply(("attack", 0, shield))
    end_turn(state)
    assert state.hits == {}


def test_shields_and_totems_in_a_spell_stay_in_play_and_return_to_hand(game):
    state = to_main(game, ["d2", "starter-o", "g2", "y2"])  # DOG (shield D), Y totem as a fragment
    state.apply(("spell", uids(state, ["d2", "starter-o", "g2"])))
    totem = uids(state, ["y2"])[0]
    state.apply(("fragment", totem))
    shield = next(u for u in state.played if state.defs[u].key == "d2")
    end_turn(state)
    assert state.inplay[0] == [shield]  # kept in play through the opponent's turn
    assert totem in state.discard[0]  # played alone: discarded
    end_turn(state)
    assert state.seat == 0 and shield in state.hand[0] and state.inplay[0] == []
    assert len(state.hand[0]) == 6


def test_destroy_ability_removes_a_shield_or_totem_even_behind_shields(game):
    state = shielded(game, ["t3a", "r3b"])
    shield, totem = state.inplay[1]
    state.tokens["destroy"] = 1
    state.apply(("destroy", totem))
    assert totem in state.discard[1] and state.inplay[1] == [shield]


# -- forced discards ------------------------------------------------------------------
def test_forced_discard_is_made_before_recovering_shields(game):
    state = shielded(game, ["t3a"])
    shield = state.inplay[1][0]
    state.tokens["discard"] = 1
    state.apply(("force", 1))
    state.apply(("end", False))
    settle_chance(state)
    assert state.seat == 1 and state.phase == "drop" and shield not in state.hand[1]
    with pytest.raises(IllegalAction):
        state.apply(("drop", shield))
    state.apply(("drop", state.hand[1][0]))
    assert state.phase == "main" and shield in state.hand[1] and len(state.hand[1]) == 5


# -- health and the end ------------------------------------------------------------------
def test_healing_can_go_above_the_starting_health(game):
    state = to_main(game, ["g2", "h3"])
    state.apply(("fragment", state.hand[0][0]))
    state.apply(("fragment", state.hand[0][0]))
    assert state.health[0] == 25 + 2 + 2
    state.check_invariants()


def test_game_ends_when_a_health_reaches_zero(game):
    state = to_main(game)
    state.health[1] = 3
    state.damaged[1] = 22
    state.attacks = [4]
    state.attack_owed = [False] * len(state.attacks)
    state.apply(("attack", 0, -2))
    assert state.current_player() == TERMINAL
    assert state.outcome().winners == [0]


def test_draw_phase_refills_the_hand_to_five_reshuffling_the_discard_pile(game):
    state = to_main(game, ["starter-a"])
    deck = state.pool[0]
    state.discard[0].extend(deck)
    deck.clear()
    owned = len(state.discard[0]) + len(state.hand[0])
    state.apply(("end", False))  # the A goes to discard; the deck is empty
    settle_chance(state)
    assert len(state.hand[0]) == 5 and state.seat == 1
    assert len(state.pool[0]) == owned - 5 and state.discard[0] == []
    state.check_invariants()


def test_keeping_cards_in_hand_at_the_discard_phase(game):
    state = to_main(game, ["starter-a", "starter-e"])
    kept = list(state.hand[0])
    state.apply(("end", True))
    settle_chance(state)
    assert set(kept) <= set(state.hand[0]) and len(state.hand[0]) == 5


def test_game_ends_at_exactly_zero_health(game):
    state = to_main(game)
    state.health[1] = 4
    state.damaged[1] = 21
    state.attacks = [4]
    state.attack_owed = [False]
    state.apply(("attack", 0, -2))
    assert state.health[1] == 0 and state.current_player() == TERMINAL
    assert state.outcome().winners == [0]


def test_four_letters_cast_no_bonus_spell(game):
    assert game.spec.rules["spelled_bonus_letters"] == 5
    state = to_main(game, ["s1", "t1", "starter-a", "r1"])  # STAR: one letter short of the bonus
    state.apply(("spell", uids(state, ["s1", "t1", "starter-a", "r1"])))
    assert state.attacks == [4] and state.figures["spelled_bonus"] == 0


def test_scrapping_with_an_ability_does_not_gain_the_scrapped_cards_box(game):
    state = to_main(game, ["b2", "starter-a"])  # b2's scrap box: +3 damage
    state.tokens["scrap_hand"] = 1
    uid = uids(state, ["b2"])[0]
    state.apply(("scrap", uid))
    assert uid in state.scrapped and state.attacks == [] and state.energy == 0


def test_a_partly_used_box_with_a_scrap_must_scrap_while_the_row_has_a_card(game):
    state = to_main(game, ["l1", "starter-a"])  # fragment box: +1 energy and scrap a market card
    state.apply(("fragment", uids(state, ["l1"])[0]))
    assert state.energy == 1 and state.owes()
    assert not any(a[0] in ("end", "toss") for a in state.legal_actions())
    with pytest.raises(IllegalAction):
        state.apply(("end", False))
    state.apply(("scrap", state.row[0]))
    settle_chance(state)
    assert not state.owes() and ("end", False) in state.legal_actions()


def test_a_partly_used_box_with_a_scrap_is_free_when_the_row_is_empty(game):
    state = to_main(game, ["l1"])
    state.market_pool.extend(u for u in state.row if u is not None)
    state.row = [None] * len(state.row)
    state.apply(("fragment", state.hand[0][0]))
    assert not state.owes() and ("end", False) in state.legal_actions()


def test_a_partly_used_box_with_damage_must_attack(game):
    state = to_main(game, ["j6", "b2"])  # j6 fragment: +1 energy and 2 damage
    state.apply(("fragment", uids(state, ["j6"])[0]))
    with pytest.raises(IllegalAction):
        state.apply(("end", True))
    state.apply(("attack", 0, -2))
    assert state.health[1] == 25 - 2
    state.apply(("fragment", uids(state, ["b2"])[0]))  # b2's fragment is energy only:
    state.apply(("scrapself", state.played[-1]))  # its scrap box, damage alone, may go unused
    assert state.attacks == [3] and ("end", False) in state.legal_actions()
    state.apply(("end", False))


def test_the_discard_phase_discards_any_of_the_cards_left(game):
    state = to_main(game, ["starter-a", "starter-e", "starter-o"])
    a, e, o = uids(state, ["starter-a", "starter-e", "starter-o"])
    state.apply(("toss", e))  # ends the main phase: only tosses and the end are left
    assert state.phase == "discard" and e in state.discard[0]
    assert {x[0] for x in state.legal_actions()} == {"toss", "end"}
    state.apply(("toss", o))
    state.apply(("end", True))  # keep the A
    settle_chance(state)
    assert a in state.hand[0] and o in state.discard[0] and len(state.hand[0]) == 5
    state.check_invariants()


def test_team_modes_report_each_sides_seats(game):
    state = RULES.new_state(game, 3)
    state.winner_side = 1
    assert state.outcome().teams == [[0, 2], [1]]
    assert RULES.new_state(game, 2).outcome().teams is None


# -- whole games --------------------------------------------------------------------
def test_seeded_games_keep_every_card_in_exactly_one_place(game):
    for seed in range(6):
        seats = [RULES.heuristic_player(), RULES.heuristic_player(0.5)]
        outcome = play_game(RULES, game, seats, seed, check=True)
        assert not outcome.stalled and len(outcome.winners) == 1
    outcome = play_game(RULES, game, [RandomPlayer(), RULES.heuristic_player()], 3, check=True)
    assert outcome.turns > 0


def test_same_seed_gives_the_same_game(game):
    a = play_game(RULES, game, [RULES.heuristic_player(), RULES.heuristic_player()], 42)
    b = play_game(RULES, game, [RULES.heuristic_player(), RULES.heuristic_player()], 42)
    assert a.scores == b.scores and a.turns == b.turns and a.played == b.played


@pytest.mark.parametrize("players, mode", [(3, "archmage"), (4, "coven")])
def test_three_and_four_player_modes_have_two_sides_and_end(game, players, mode):
    state = RULES.new_state(game, players)
    assert state.mode == mode and len(state.side_seats) == 2
    for seed in range(3):
        seats = [RULES.heuristic_player() for _ in range(players)]
        outcome = play_game(RULES, game, seats, seed, check=True)
        assert not outcome.stalled
        sides = {state.side_of[s] for s in outcome.winners}
        assert len(sides) == 1 and set(outcome.winners) == set(state.side_seats[sides.pop()])


def test_heuristic_player_beats_random_player(game):
    wins = 0
    for seed in range(20):
        seats = [RULES.heuristic_player(), RandomPlayer()] if seed % 2 == 0 else [RandomPlayer(), RULES.heuristic_player()]
        outcome = play_game(RULES, game, seats, seed)
        wins += (seed % 2) in outcome.winners
    assert wins >= 17


# -- invariants catch corruption ------------------------------------------------------

def _mid_game(game, seed=4, decisions=60):
    """A real position part-way through a seeded game: cards bought, in play, discarded, scrapped."""
    state = RULES.new_state(game, 2, {})
    rng, player, n = random.Random(seed), RULES.heuristic_player(1.0), 0
    while n < decisions or not state.discard[0] or not state.discard[1]:
        if state.current_player() == CHANCE:
            settle_chance(state, rng)
        else:
            state.apply(player.act(state, state.current_player(), rng))
            n += 1
    state.check_invariants()
    return state


CORRUPTIONS = {  # what goes wrong: (what the check must say, how)
    "a card in two places": ("duplicated", lambda s: s.discard[0].append(s.market_pool[0])),
    "a card lost": ("cards lost", lambda s: s.market_pool.pop()),
    "a card not in the game": ("not in the game", lambda s: s.discard[1].append(s.market_pool.pop() + 10_000)),
    "a market slot holding a card twice": ("duplicated", lambda s: s.row.__setitem__(0, s.row[1])),
    "health that does not add up": ("does not add up", lambda s: s.health.__setitem__(1, s.health[1] - 1)),
    "an effect card left in play": ("shield or totem", lambda s: s.inplay[0].append(s.discard[0].pop())),
    "a market card in the vowel reserve": ("vowel reserve", lambda s: s.reserve.append(s.market_pool.pop())),
    "a scrapped reserve vowel": ("reserve vowel was scrapped", lambda s: s.scrapped.append(s.reserve.pop())),
}


@pytest.mark.parametrize("corruption", sorted(CORRUPTIONS))
def test_the_invariant_check_catches_a_corrupted_position(game, corruption):
    message, corrupt = CORRUPTIONS[corruption]
    state = _mid_game(game)
    corrupt(state)
    with pytest.raises(InvariantError, match=message):
        state.check_invariants()


@pytest.mark.slow
def test_actions_are_typed_equal_to_plain_tuples_and_a_plain_tuple_plays_the_same(game):
    """Every legal action is one of actions.py's named kinds with its verb first; it survives JSON as the
    game record keeps it, and the plain tuple read back plays exactly as the named action does."""
    import json

    from spellpress.rules.action_json import from_json_value, to_json_value
    from spellpress.rules.spelled import actions as A

    rng, kinds = random.Random(3), set()
    state = RULES.new_state(game, 2)
    players = [RULES.heuristic_player(0.6), RULES.heuristic_player(1.0)]
    while state.current_player() != TERMINAL and state.turns < 30:
        seat = state.current_player()
        if seat == CHANCE:
            state.apply(rng.choice(state.chance_outcomes())[0])
            continue
        legal = state.legal_actions()
        for action in legal:
            assert type(action) is A.KINDS[action[0]] and action == tuple(action)
        action = players[seat].act(state, seat, rng)
        assert type(action) is A.KINDS[action[0]] and action in legal
        plain = from_json_value(json.loads(json.dumps(to_json_value(action))))
        assert type(plain) is tuple and plain == action and A.typed(plain) == action
        kinds.add(type(action))
        named_clone = state.clone()
        named_clone.apply(action)
        state.apply(plain)
        assert (state.hand, state.discard, state.health, state.phase) == (
            named_clone.hand, named_clone.discard, named_clone.health, named_clone.phase)
    assert {A.Fragment, A.Spell, A.Buy, A.Attack, A.End} <= kinds


def test_an_action_of_the_wrong_shape_is_illegal_not_a_crash(game):
    state = to_main(game, ["starter-a"])
    for action in [("fragment",), ("fragment", 1, 2), ("cast", 1), (), "end", ["end", False]]:
        with pytest.raises(IllegalAction):
            state.apply(action)


def test_counted_legal_actions_are_as_many_as_the_listed_ones(game):
    """count_legal_actions (what the runner's move counts ask) equals len(legal_actions()) at every step of
    seeded games, chance steps included, with heuristic and random seats so every ability is in play."""
    from spellpress.rules.spelled.players import SpelledHeuristic
    from tests.rules.legal_counts import play_counting

    rng, seen = random.Random(13), set()

    def look(state, seat):
        side = state.side_of[seat]
        seen.update(name for name, n in state.tokens.items() if n)
        seen.update(name for name, on in (
            ("free", state.free), ("attacks", state.attacks), ("owes", state.phase == "main" and state.owes()),
            ("destroyable", state.tokens["destroy"] and any(map(state.lasting_of, state.enemies(side))))) if on)

    for players in (2, 4):
        for _ in range(12):
            seats = [SpelledHeuristic(), SpelledHeuristic(0.7), RandomPlayer(), SpelledHeuristic(0.5)][:players]
            play_counting(RULES.new_state(game, players), seats, rng, 120, look)
    assert {"scrap_hand", "scrap_discard", "scrap_market", "discard", "destroyable", "free", "attacks", "owes"} <= seen
