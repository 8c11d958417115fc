"""Magic Spell: one test per rule, on positions built from the real card data."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from spellpress.load.game import load_game
from spellpress.rules.magic_spell import MIXED, RULES, MagicSpellPlayer, letter_demand
from spellpress.rules.protocol import CHANCE, IllegalAction, InvariantError, RandomPlayer
from spellpress.simulate.play import play_game
from spellpress.words.lexicon import Lexicon

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def game():
    return load_game(ROOT / "cards" / "magic-spell")


# ---------------------------------------------------------------- helpers

def fresh(game, players=3, **options):
    """A state at seat 0's action with empty cabinets and homework, 5 spirit each."""
    st = RULES.new_state(game, players, options)
    while st.current_player() == CHANCE:  # finish the deal deterministically
        st.apply(st.chance_outcomes()[0][0])
    for seat in range(players):
        for t in st.cabinet[seat]:
            st.mixed.setdefault(st.cat.letters[t], []).append(t)
            st.mixed_count += 1
        st.cabinet[seat] = []
        st.deck_mixed += st.homework[seat]
        st.homework[seat] = []
        st.spirit[seat] = 5
    st.deck_mixed.sort()
    st.woven.clear()
    st.drop_caches()
    st.seat, st.phase, st.queue = 0, "action", [("end_turn",)]
    st.check_invariants()
    return st


def tiles(st, seat, letters):
    """Move tiles with these letters from the unseen laboratory to a cabinet."""
    taken = []
    for letter in letters:
        t = st.mixed[letter].pop()
        st.mixed_count -= 1
        st.cabinet[seat].append(t)
        taken.append(t)
    return taken


def spell(st, seat, spell_id, place="homework"):
    sid = next(s.index for s in st.cat.spells if s.id == spell_id)
    st.deck_mixed.remove(sid)
    (st.homework if place == "homework" else st.spellbook)[seat].append(sid)
    if place != "homework":
        st.completed[sid] = seat  # a spell reaches a spellbook by being completed
    st.progress[sid] = st.turns
    return sid


def weave_all(st, seat, sid, tile_ids):
    for t in tile_ids:
        st.apply(("weave", t, sid, st.cat.letters[t]))
        if st.phase == "extra":
            st.spirit[seat] += st.weave_cost(seat, 0, paid=True)  # keep spirit out of the way


def finish_turn(st):
    """Stop weaving and resolve chance to the next decision."""
    if st.phase == "extra":
        st.apply(("stop",))
    while st.current_player() == CHANCE:
        st.apply(st.chance_outcomes()[0][0])


# ---------------------------------------------------------------- components

def test_every_spell_word_is_in_the_shipped_lexicon(game):
    lexicon = Lexicon()
    words = [card["word"].lower() for card in game.component("spells").cards]
    assert 30 <= len(words) <= 40
    assert all(word in lexicon for word in words)


def test_tile_mix_covers_every_letter_as_often_as_one_word_needs_it(game):
    counts = {}
    for card in game.component("ingredients").cards:
        counts[card["letter"].lower()] = counts.get(card["letter"].lower(), 0) + card.count
    for letter, row in letter_demand(game).items():
        assert counts.get(letter, 0) >= row["most_in_one_word"] + (1 if row["words"] >= 3 else 0)
    symbols = {card["symbol"] for card in game.component("ingredients").cards if card["stone"]}
    assert symbols == {"*", "!", "?"} and counts["?"] == 3
    assert 95 <= sum(n for char, n in counts.items() if char.isalpha()) <= 115


# ---------------------------------------------------------------- setup and limits

def test_setup_deals_five_ingredients_three_spells_and_five_spirit(game):
    st = RULES.new_state(game, 4, {})
    rng = random.Random(3)
    while st.current_player() == CHANCE:
        outcomes = st.chance_outcomes()
        st.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
    assert [len(c) for c in st.cabinet] == [5] * 4
    assert [len(h) for h in st.homework] == [3] * 4
    assert st.spirit == [5] * 4
    assert st.current_player() == 0 and st.phase == "action"
    st.check_invariants()


def test_homework_over_four_spells_is_returned_to_the_bottom_of_the_deck(game):
    st = fresh(game)
    for sid in ("pilfer", "torpor", "forage", "kismet", "zephyr"):
        spell(st, 0, sid)
    st.apply(("rest",))
    assert st.phase == "trim_spells"
    dropped = st.homework[0][0]
    st.apply(("drop", dropped))
    assert len(st.homework[0]) == 4 and st.deck_bottom == [dropped]
    assert st.current_player() == 1


def test_cabinet_over_six_ingredients_is_returned_face_up(game):
    st = fresh(game)
    extra = tiles(st, 0, "eeeeeee")
    st.apply(("rest",))
    assert st.phase == "trim_tiles"
    st.apply(("discard", extra[0]))
    assert len(st.cabinet[0]) == 6 and extra[0] in st.known
    assert st.current_player() == 1


# ---------------------------------------------------------------- weave

def test_weave_from_the_cabinet_must_match_an_unmatched_letter(game):
    st = fresh(game)
    sid = spell(st, 0, "torpor")
    t, o, z = tiles(st, 0, "toz")
    with pytest.raises(IllegalAction):
        st.apply(("weave", z, sid, "z"))
    st.apply(("weave", t, sid, "t"))
    assert st.spirit[0] == 5 and st.phase == "extra"
    assert ("weave", o, sid, "o") in st.legal_actions()


def test_extra_weaves_cost_one_spirit_each(game):
    st = fresh(game)
    sid = spell(st, 0, "torpor")
    t, o, r = tiles(st, 0, "tor")
    st.apply(("weave", t, sid, "t"))
    st.apply(("weave", o, sid, "o"))
    st.apply(("weave", r, sid, "r"))
    assert st.spirit[0] == 3


def test_weaving_from_another_spell_costs_one_spirit(game):
    st = fresh(game)
    torpor, forage = spell(st, 0, "torpor"), spell(st, 0, "forage")
    (o,) = tiles(st, 0, "o")
    st.apply(("weave", o, torpor, "o"))
    st.apply(("stop",))
    finish_turn(st)
    st.seat, st.phase, st.queue = 0, "action", [("end_turn",)]
    spirit = st.spirit[0]
    st.apply(("weave", o, forage, "o"))
    assert st.spirit[0] == spirit - 1
    assert st.remaining(torpor)["o"] == 2 and st.remaining(forage)["o"] == 0


def test_completing_a_word_returns_its_tiles_face_up_and_adds_the_spell_to_the_spellbook(game):
    st = fresh(game)
    sid = spell(st, 0, "torpor")
    woven = tiles(st, 0, "torpor")
    weave_all(st, 0, sid, woven)
    assert sid in st.spellbook[0] and sid not in st.homework[0]
    assert all(t in st.known for t in woven)
    assert st.credits(0) == st.cat.spells[sid].credits
    st.check_invariants()


def test_a_misspelled_word_returns_the_wrong_tiles_and_ends_the_turn(game):
    st = fresh(game)
    sid = spell(st, 0, "torpor")
    t, o, r, p, o2 = tiles(st, 0, "torpo")
    (wrong,) = tiles(st, 1, "e")
    st.cabinet[1].remove(wrong)
    st.woven[sid] = [(t, "t"), (o, "o"), (r, "r"), (p, "p"), (wrong, "o")]  # a tampered tile posing as an O
    st._left.clear()
    st.cabinet[0] = [o2]
    (last,) = tiles(st, 0, "r")
    st.apply(("weave", last, sid, "r"))
    assert sid in st.homework[0] and wrong in st.known
    assert st.remaining(sid) == {"o": 1}
    assert st.current_player() == 1  # straight to the end of the turn
    assert st.cat.letters[o2] == "o" and o2 in st.cabinet[0]


# ---------------------------------------------------------------- cast

def test_cast_pays_its_spirit_and_resolves_its_effects(game):
    st = fresh(game)
    sid = spell(st, 0, "torpor", place="spellbook")
    st.spirit[0] = 7  # above 5: no end-of-turn recovery blurs the cost
    st.apply(("cast", sid, 2))
    assert st.spirit[0] == 7 - st.cat.spells[sid].cost
    assert st.spirit[2] == 5 - 3 and st.spirit[1] == 5


def test_a_cast_without_enough_spirit_fills_what_it_can_and_fizzles(game):
    st = fresh(game)
    sid = spell(st, 0, "purloin", place="spellbook")
    tiles(st, 1, "abc")
    st.spirit[0] = 1
    st.apply(("cast", sid, 1))
    assert st.spirit[0] == 1  # paid 1 (all), fizzled, then +1 at the end of the turn
    assert len(st.cabinet[1]) == 3 and st.stats["fizzles"] == 1


def test_a_lasting_spell_works_without_casting(game):
    st = fresh(game)
    spell(st, 0, "plethora", place="spellbook")
    assert st.cabinet_limit(0) == 8
    assert all(action[0] != "cast" for action in st.legal_actions())


def test_bulwark_wards_off_other_students_spells(game):
    st = fresh(game)
    sid = spell(st, 0, "pilfer", place="spellbook")
    spell(st, 1, "bulwark", place="spellbook")
    tiles(st, 1, "abc")
    st.apply(("cast", sid, 1))
    finish_turn(st)
    assert len(st.cabinet[1]) == 3 and st.cabinet[0] == []


def test_tamper_swaps_a_woven_tile_for_an_unseen_one(game):
    st = fresh(game)
    sid = spell(st, 0, "hoodwink", place="spellbook")
    victim = spell(st, 1, "torpor")
    (t,) = tiles(st, 1, "t")
    st.cabinet[1].remove(t)
    st.woven[victim] = [(t, "t")]
    st.apply(("cast", sid, 1))
    assert st.current_player() == CHANCE  # which woven tile
    st.apply(st.chance_outcomes()[0][0])
    st.apply(("lab", "e"))  # the swapped-in tile, unseen
    (new, claimed), = st.woven[victim]
    assert claimed == "t" and st.cat.letters[new] == "e" and t in st.known


def test_open_research_spots_a_tampered_tile_at_once(game):
    st = fresh(game, open_research=True)
    sid = spell(st, 0, "hoodwink", place="spellbook")
    victim = spell(st, 1, "torpor")
    (t,) = tiles(st, 1, "t")
    st.cabinet[1].remove(t)
    st.woven[victim] = [(t, "t")]
    st.apply(("cast", sid, 1))
    st.apply(st.chance_outcomes()[0][0])
    st.apply(("lab", "e"))
    assert st.woven[victim] == [] and st.remaining(victim)["t"] == 1


def _tamper_in(st, caster_spell, victim, victim_sid, pick, lab_letter):
    """Seat 0 casts a tamper spell at `victim`: woven tile `pick` is swapped for an unseen `lab_letter` tile."""
    st.apply(("cast", caster_spell, victim))
    st.apply(("pick", pick))
    before = {t for t, _ in st.woven[victim_sid]}
    st.apply(("lab", lab_letter))
    new = [t for t, _ in st.woven.get(victim_sid, ()) if t not in before]
    finish_turn(st)
    return new[0] if new else None


def test_a_tampered_in_second_stone_misspells_the_spell(game):
    st = fresh(game, players=2, stones=True, trading=False)
    hoodwink = spell(st, 0, "hoodwink", place="spellbook")
    victim = spell(st, 1, "torpor")
    star, t, o = tiles(st, 1, "?to")
    for tile in (star, t, o):
        st.cabinet[1].remove(tile)
    st.woven[victim] = [(star, "p"), (t, "t"), (o, "o")]
    st._left.clear()
    stone = _tamper_in(st, hoodwink, 1, victim, t, "?")
    assert st.cat.stone[stone] and st.current_player() == 1
    assert sum(st.cat.stone[x] for x, _ in st.woven[victim]) == 2
    o2, r1, r2 = tiles(st, 1, "orr")
    weave_all(st, 1, victim, [o2, r1, r2])
    assert victim in st.homework[1] and victim not in st.spellbook[1]  # misspelled: one stone a spell
    assert stone in st.removed and star in [x for x, _ in st.woven[victim]]
    assert st.remaining(victim) == {"t": 1}
    st.check_invariants()


def test_open_research_sends_a_second_stone_back_at_once(game):
    st = fresh(game, players=2, stones=True, trading=False, open_research=True)
    hoodwink = spell(st, 0, "hoodwink", place="spellbook")
    victim = spell(st, 1, "torpor")
    star, t = tiles(st, 1, "?t")
    for tile in (star, t):
        st.cabinet[1].remove(tile)
    st.woven[victim] = [(star, "p"), (t, "t")]
    st._left.clear()
    assert _tamper_in(st, hoodwink, 1, victim, t, "?") is None
    assert st.woven[victim] == [(star, "p")] and st.remaining(victim)["t"] == 1
    st.check_invariants()


def test_a_tampered_tile_moves_as_the_letter_it_stands_for(game):
    st = fresh(game, players=2, trading=False)
    hoodwink = spell(st, 0, "hoodwink", place="spellbook")
    torpor, forage = spell(st, 1, "torpor"), spell(st, 1, "forage")
    (o,) = tiles(st, 1, "o")
    st.cabinet[1].remove(o)
    st.woven[torpor] = [(o, "o")]
    st._left.clear()
    fake = _tamper_in(st, hoodwink, 1, torpor, o, "e")  # an E posing as an O
    assert st.cat.letters[fake] == "e" and st.current_player() == 1
    moves = [a for a in st.legal_actions() if a[0] == "weave" and a[1] == fake]
    assert moves == [("weave", fake, forage, "o")]  # its owner knows it only as an O
    with pytest.raises(IllegalAction):
        st.apply(("weave", fake, forage, "e"))
    st.apply(("weave", fake, forage, "o"))
    assert st.woven[forage] == [(fake, "o")] and st.remaining(forage)["e"] == 1


def test_legerdemain_never_takes_back_a_tile_it_gave(game):
    st = fresh(game, players=2, trading=False)
    legerdemain = spell(st, 0, "legerdemain", place="spellbook")
    a, b = tiles(st, 0, "ab")
    (x,) = tiles(st, 1, "x")
    st.apply(("cast", legerdemain, 1))
    assert st.phase == "give" and st.count_legal_actions() == len(st.legal_actions()) == 2
    st.apply(("give", a))
    assert st.chance_outcomes() == [(("pick", x), 1.0)]  # not the A just given
    st.apply(("pick", x))
    st.apply(("give", b))
    finish_turn(st)  # seat 1 holds only the two given tiles: nothing is taken back
    assert sorted(st.cabinet[1]) == sorted([a, b]) and st.cabinet[0] == [x]
    st.check_invariants()


def test_a_steal_takes_a_random_tile_from_the_victims_cabinet(game):
    st = fresh(game)
    pilfer = spell(st, 0, "pilfer", place="spellbook")
    victim_tiles = tiles(st, 1, "abc")
    st.apply(("cast", pilfer, 1))
    assert sorted(a for a, _ in st.chance_outcomes()) == sorted(("pick", t) for t in victim_tiles)
    st.apply(("pick", victim_tiles[1]))
    finish_turn(st)
    assert st.cabinet[0] == [victim_tiles[1]] and len(st.cabinet[1]) == 2
    st.check_invariants()


def test_a_steal_from_an_empty_cabinet_takes_nothing(game):
    st = fresh(game)
    pilfer = spell(st, 0, "pilfer", place="spellbook")
    st.apply(("cast", pilfer, 1))
    assert st.current_player() == 1 and st.cabinet[0] == [] and st.cabinet[1] == []


# ---------------------------------------------------------------- scrounge, research, rest

def test_scrounge_looks_at_one_tile_then_weave_keep_or_return_it(game):
    st = fresh(game)
    sid = spell(st, 0, "torpor")
    st.apply(("scrounge", MIXED))
    assert st.current_player() == CHANCE
    st.apply(("lab", "t"))
    assert st.phase == "scrounged"
    t = st.looking
    st.apply(("weave", t, sid, "t"))
    assert st.remaining(sid)["t"] == 0
    finish_turn(st)
    st.seat, st.phase, st.queue = 0, "action", [("end_turn",)]
    st.apply(("scrounge", MIXED))
    st.apply(("lab", "z"))
    z = st.looking
    st.apply(("return",))
    assert z in st.known and st.current_player() == 1


def test_scrounging_a_remembered_tile_needs_no_luck(game):
    st = fresh(game)
    (e,) = tiles(st, 1, "e")
    st.cabinet[1].remove(e)
    st._to_lab(e)
    st.apply(("scrounge", e))
    assert st.current_player() == 0 and st.looking == e


def test_research_costs_five_spirit_and_draws_one_spell(game):
    st = fresh(game)
    st.apply(("research",))
    st.apply(st.chance_outcomes()[0][0])
    assert len(st.homework[0]) == 1 and st.spirit[0] == 0 + 1
    st.seat, st.phase, st.queue = 0, "action", [("end_turn",)]
    assert ("research",) not in st.legal_actions()


def test_rest_gains_two_spirit(game):
    st = fresh(game)
    st.apply(("rest",))
    assert st.spirit[0] == 7


def test_end_of_turn_gains_one_spirit_only_below_five(game):
    st = fresh(game)
    st.spirit[0] = 2
    st.apply(("scrounge", MIXED))
    st.apply(("lab", "e"))
    st.apply(("keep",))
    assert st.spirit[0] == 3
    st.seat, st.phase, st.queue = 0, "action", [("end_turn",)]
    st.spirit[0] = 5
    st.apply(("scrounge", MIXED))
    st.apply(("lab", "e"))
    st.apply(("keep",))
    assert st.spirit[0] == 5


# ---------------------------------------------------------------- the end and variants

def _reach_goal(st, seat, credits):
    for s in sorted(st.cat.spells, key=lambda s: (s.credits, s.index)):
        if st.credits(seat) >= credits:
            break
        if s.index in st.deck_mixed:
            spell(st, seat, s.id, place="spellbook")


def test_nine_credits_gives_every_other_student_one_last_turn(game):
    st = fresh(game, players=3)
    _reach_goal(st, 0, 9)
    st.apply(("rest",))
    assert not st.is_terminal() and st.current_player() == 1
    st.apply(("rest",))
    assert st.current_player() == 2
    st.apply(("rest",))
    assert st.is_terminal()
    assert st.returns()[0] == st.credits(0) and st.outcome().winners == [0]


def test_heavy_courseload_ends_at_twelve_or_fifteen_credits(game):
    st = fresh(game, players=2, goal=12)
    _reach_goal(st, 0, 9)
    assert 9 <= st.credits(0) < 12
    st.apply(("rest",))
    st.apply(("rest",))
    assert not st.is_terminal()


def test_philosophers_stone_stands_for_any_letter_once_per_spell_and_leaves_when_returned(game):
    st = fresh(game, stones=True)
    sid = spell(st, 0, "torpor")
    star, bang = tiles(st, 0, "??")  # the stones' letter is "?" (a wild)
    assert ("weave", star, sid, "p") in st.legal_actions()
    st.apply(("weave", star, sid, "p"))
    assert ("weave", bang, sid, "t") not in st.legal_actions()  # one stone per spell
    assert st.count_legal_actions() == len(st.legal_actions())  # nor counted
    st.apply(("stop",))
    finish_turn(st)
    assert st.returns()[0] == 1.0  # the stone still in the cabinet scores a credit
    st.seat, st.phase, st.queue = 0, "action", [("end_turn",)]
    weave_all(st, 0, sid, tiles(st, 0, "toror"))
    assert sid in st.spellbook[0] and star in st.removed
    st.check_invariants()


def test_stones_score_but_do_not_trigger_the_end(game):
    st = fresh(game, players=2, stones=True, trading=False)
    spell(st, 0, "torpor", place="spellbook")
    st.goal = st.credits(0) + 1
    tiles(st, 0, "?")
    assert st.returns()[0] == st.goal  # the stone's credit reaches the goal as a score ...
    for _ in range(4):
        st.apply(("rest",))
    assert not st.is_terminal() and st.final_left is None  # ... but is not a courseload credit


def test_ties_share_the_win(game):
    st = fresh(game, players=3, stones=True)
    for sid in ("torpor", "pilfer"):
        spell(st, 0, sid, place="spellbook")
    for sid in ("purloin", "kismet"):
        spell(st, 1, sid, place="spellbook")
    spell(st, 2, "zephyr", place="spellbook")
    assert st.returns() == [6.0, 6.0, 3.0] and st.outcome().winners == [0, 1]
    spell(st, 2, "erudite", place="spellbook")
    assert st.outcome().winners == [0, 1, 2]
    st.spellbook[2].pop()
    tiles(st, 2, "???")  # three stones score three
    assert st.returns()[2] == 6.0 and st.outcome().winners == [0, 1, 2]


def test_without_the_variant_the_stones_stay_in_the_box(game):
    st = fresh(game)
    assert not any(st.cat.stone[t] for tiles_ in st.mixed.values() for t in tiles_)


def test_low_enrollment_two_students_trade_between_turns(game):
    st = fresh(game, players=2)
    spell(st, 0, "torpor")
    spell(st, 1, "forage")
    (f,) = tiles(st, 0, "f")
    (t,) = tiles(st, 1, "t")
    st.apply(("rest",))  # seat 1's turn begins: the trading window opens
    assert t in st.cabinet[0] and f in st.cabinet[1] and st.stats["trades"] == 1


def test_trading_policy_swaps_spares_for_needs_among_students_not_playing(game):
    st = fresh(game, players=3)
    spell(st, 0, "torpor")
    spell(st, 2, "forage")
    (f,) = tiles(st, 0, "f")
    (t,) = tiles(st, 2, "t")
    st.apply(("rest",))  # seat 1 plays: seats 0 and 2 may trade
    assert t in st.cabinet[0] and f in st.cabinet[2]


def test_trading_can_be_switched_off(game):
    st = fresh(game, players=2, trading=False)
    spell(st, 0, "torpor")
    spell(st, 1, "forage")
    (f,) = tiles(st, 0, "f")
    (t,) = tiles(st, 1, "t")
    st.apply(("rest",))
    assert f in st.cabinet[0] and t in st.cabinet[1]


# ---------------------------------------------------------------- memory and players

def test_memory_knob_perfect_remembers_every_return_none_forgets_partial_keeps_the_latest(game):
    st = fresh(game)
    returned = tiles(st, 1, "abcdefghi")
    for t in returned:
        st.cabinet[1].remove(t)
        st._to_lab(t)
    assert set(MagicSpellPlayer(None).remembered(st, 0)) == set(returned)
    assert MagicSpellPlayer(0).remembered(st, 0) == {}
    assert set(MagicSpellPlayer(6).remembered(st, 0)) == set(returned[-6:])



@pytest.mark.parametrize("option,player_memory,remembered", [
    ("perfect", 0, 9), ("none", None, 0), ("partial", None, 6), ("partial", 0, 6)])
def test_memory_option_overrides_every_players_memory(game, option, player_memory, remembered):
    st = fresh(game, memory=option)
    returned = tiles(st, 1, "abcdefghi")
    for t in returned:
        st.cabinet[1].remove(t)
        st._to_lab(t)
    memory = MagicSpellPlayer(player_memory).remembered(st, 0)
    assert len(memory) == remembered and set(memory) <= set(returned)
    assert set(memory) == set(returned[len(returned) - remembered:])


def test_heuristic_scrounges_a_remembered_tile_it_needs(game):
    st = fresh(game)
    spell(st, 0, "torpor")
    (t,) = tiles(st, 1, "t")
    st.cabinet[1].remove(t)
    st._to_lab(t)
    assert MagicSpellPlayer(None).act(st, 0, random.Random(1)) == ("scrounge", t)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_games_keep_every_tile_and_spell_in_one_place_and_finish(game, players):
    for seed in range(3):
        seats = [RULES.heuristic_player(1.0)] + [RULES.heuristic_player(0.0)] * (players - 1)
        out = play_game(RULES, game, seats, seed, check=True)
        assert not out.stalled and out.winners
        assert max(out.scores) >= 9
    out = play_game(RULES, game, [RandomPlayer()] * players, 7, check=True,
                    options={"stones": True, "open_research": True})
    assert out.turns > 0


def test_same_seed_same_game(game):
    seats = [RULES.heuristic_player(0.5) for _ in range(3)]
    a = play_game(RULES, game, seats, 42)
    b = play_game(RULES, game, seats, 42)
    assert a.scores == b.scores and a.turns == b.turns


def test_the_heuristic_casts_spells_often_enough_to_exercise_their_effects(game):
    seats = [RULES.heuristic_player(1.0) for _ in range(3)]
    casts = [play_game(RULES, game, seats, seed).figures.get("casts", 0) for seed in range(40)]
    assert sum(casts) / len(casts) >= 2.5  # the first heuristic cast about one spell a game


# ---------------------------------------------------------------- invariants catch corruption

def _mid_game(game, seed=3, decisions=120):
    """A real position part-way through a seeded game: spells woven, tiles seen, spells completed."""
    st = RULES.new_state(game, 3, {"stones": True})
    rng, player, n = random.Random(seed), RULES.heuristic_player(1.0), 0
    while n < decisions or not st.woven or not st.known:
        if st.current_player() == CHANCE:
            outcomes = st.chance_outcomes()
            st.apply(rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0])
        else:
            st.apply(player.act(st, st.current_player(), rng))
            n += 1
    st.check_invariants()  # checked once already: the check must see changes made since, however made
    return st


def _some_woven(st):
    sid = next(sid for sid, pairs in st.woven.items() if pairs)
    return sid, st.woven[sid]


def _drop_woven_spell(st):
    sid, _ = _some_woven(st)
    next(h for h in st.homework if sid in h).remove(sid)
    st.deck_bottom.append(sid)  # the spell itself still in one place


def _claim_wrong_letter(st):
    sid, pairs = _some_woven(st)
    letter = next(char for char, ts in st.mixed.items() if ts and char not in st.cat.spells[sid].word)
    pairs.append((st.mixed[letter].pop(), letter))  # the tile truly is that letter, only the spell has none
    st.mixed_count -= 1


def _unweave_behind_the_caches(st):
    sid, pairs = _some_woven(st)
    owner = next(seat for seat, homework in enumerate(st.homework) if sid in homework)
    st.needs(owner)  # cached now, and left stale below: every place stays right, only the cache is wrong
    tile, _ = next(pair for pair in reversed(pairs) if pair[0] not in st.tampered)
    pairs.remove(next(pair for pair in pairs if pair[0] == tile))
    st.known[tile] = 0


CORRUPTIONS = {  # what goes wrong: (what the check must say, how)
    "a tile in two places": ('is both in', lambda st: st.cabinet[0].append(next(iter(st.known)))),
    "a tile lost": ('tiles are missing', lambda st: st.known.pop(next(iter(st.known)))),
    "a tile that is not in the game": ('not in the game', lambda st: st.cabinet[1].append(len(st.cat.letters) + 5)),
    "a tile swapped for one not in the game": ('not in the game', lambda st: st.known.update(
        {len(st.cat.letters) + 5: st.known.pop(next(iter(st.known)))})),
    "a tile filed under another letter": ('filed under', lambda st: st.mixed["t"].append(st.mixed["e"].pop())),
    "the unseen count off": ('laboratory count', lambda st: setattr(st, "mixed_count", st.mixed_count + 1)),
    "a woven spell in no homework": ('in no homework', lambda st: _drop_woven_spell(st)),
    "a woven tile claiming a letter its spell does not need": ('claiming letters', lambda st: _claim_wrong_letter(st)),
    "a tampered tile off every spell": ('tampered', lambda st: st.tampered.add(next(iter(st.known)))),
    "a spell in two places": ('spell is lost or duplicated', lambda st: st.deck_bottom.append(st.homework[0][0])),
    "a spell lost": ('spell is lost or duplicated', lambda st: st.deck_mixed.pop()),
    "negative spirit": ('negative spirit', lambda st: st.spirit.__setitem__(1, -1)),
    "a spellbook spell nobody completed": ('spellbooks do not hold', lambda st: st.spellbook[2].append(st.deck_mixed.pop())),
    "a completion missing from the spellbooks": ('spellbooks do not hold', lambda st: st.completed.update({st.deck_mixed[0]: 1})),
    "a spell's tiles changed behind the cached needs": ('cached letters', _unweave_behind_the_caches),
    "a student over the homework limit after its turn": ('homework limit', lambda st: st.homework[(st.seat + 1) % 3].extend(
        st.deck_mixed.pop() for _ in range(6))),
}


@pytest.mark.parametrize("corruption", sorted(CORRUPTIONS))
def test_the_invariant_check_catches_a_corrupted_position(game, corruption):
    message, corrupt = CORRUPTIONS[corruption]
    st = _mid_game(game)
    corrupt(st)
    with pytest.raises(InvariantError, match=message):
        st.check_invariants()


def test_transmute_returns_up_to_three_then_takes_as_many_never_a_tile_just_returned(game):
    # "Return up to three ingredients from your cabinet to the laboratory, then take as many
    # face-down ones": every return comes first, and the takes never pick up a returned tile
    st = fresh(game, players=2, trading=False)
    transmute = spell(st, 0, "transmute", place="spellbook")
    a, b, c = tiles(st, 0, "abc")
    st.apply(("cast", transmute, -1))
    assert st.phase == "transmute"
    st.apply(("return_tile", a))
    assert st.phase == "transmute"  # still returning: no take between two returns
    st.apply(("return_tile", b))
    st.apply(("stop",))
    assert st.phase == "pick"
    takeable = {action[1] for action in st.legal_actions()}
    assert a not in takeable and b not in takeable and MIXED in takeable
    with pytest.raises(IllegalAction):
        st.apply(("pick", a))
    for _ in range(2):  # exactly as many as were returned
        assert st.phase == "pick"
        st.apply(("pick", MIXED))
        st.apply(st.chance_outcomes()[0][0])
    assert st.phase != "pick" and len(st.cabinet[0]) == 3 and c in st.cabinet[0]
    assert a not in st.cabinet[0] and b not in st.cabinet[0] and a in st.known and b in st.known
    st.check_invariants()


def test_transmute_with_every_other_tile_returned_takes_what_is_left_and_no_more(game):
    st = fresh(game, players=2, trading=False)
    transmute = spell(st, 0, "transmute", place="spellbook")
    (a,) = tiles(st, 0, "a")
    st.known.update({t: 0 for letter in list(st.mixed) for t in st.mixed.pop(letter)})  # every unseen tile now known
    st.mixed_count = 0
    st.apply(("cast", transmute, -1))
    st.apply(("return_tile", a))  # returning the last cabinet tile ends the returns
    assert st.phase == "pick" and ("pick", a) not in st.legal_actions()
    st.check_invariants()
