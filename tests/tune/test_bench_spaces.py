"""The search spaces of bench/tune.py hold what the benchmarks' claims rest on.

Word Rummy's space (issue 40's seats benchmark) is fair by construction: in every variant each seat
starts as many rounds as every other, every round deals the same hand from a full deck, and the
heuristic player does not read the scores, so the rounds are alike and independent and no seat can
win more than another. The games here are played by the engine and its heuristic player, seeded.
Magic Spell's options are every change the spells benchmark's --vary ranges allow."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from spellpress.load.game import load_game
from spellpress.rules.plugins import rules_for
from spellpress.rules.protocol import CHANCE
from spellpress.simulate.variants import checked_variant
from spellpress.tune.space import parse_space
from tests.conftest import ROOT, bench_module

PLAYERS = 4


BENCH = bench_module("tune")


def rummy_variants() -> list[tuple]:
    game = load_game(ROOT / "cards" / "word-rummy")
    space = parse_space(game, rules_for(game), BENCH.RUMMY_VARY, None)
    values = [dim.choices or range(dim.low, dim.high + 1) for dim in space.dimensions]
    return [tuple(zip((dim.key for dim in space.dimensions), combo, strict=True)) for combo in itertools.product(*values)]


def play_rounds(variant: tuple, seed: int) -> tuple[list[tuple[int, int, int]], int]:
    """One seeded game of the heuristic players: each round's (starter, hand size, deck size when dealt), and how
    many decisions changed when the scores were changed behind the player's back."""
    game = load_game(ROOT / "cards" / "word-rummy")
    rules = rules_for(game)
    state = rules.new_state(checked_variant(game, rules, variant), PLAYERS)
    player = rules.heuristic_player()
    rng = random.Random(seed)
    rounds, swayed, seen = [], 0, None
    while not state.is_terminal():
        if state.round != seen:
            seen = state.round
            rounds.append((state.starter, state.hand_size, state.deck_size))
        seat = state.current_player()
        if seat == CHANCE:
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply(rng.choices(outcomes, weights)[0])
            continue
        other = state.clone()
        other.scores = [rng.randrange(200) for _ in range(PLAYERS)]
        draw = rng.random()
        action = player.act(state, seat, random.Random(draw))
        swayed += action != player.act(other, seat, random.Random(draw))
        state.apply(action)
    return rounds, swayed


@pytest.mark.parametrize("variant", rummy_variants(), ids=lambda v: ",".join(f"{k.split('.')[-1]}={x}" for k, x in v))
def test_rummy_space_is_fair_by_construction(variant):
    rounds, swayed = play_rounds(variant, seed=40)
    starts = Counter(starter for starter, _, _ in rounds)
    assert len(rounds) % PLAYERS == 0
    assert [starts[seat] for seat in range(PLAYERS)] == [len(rounds) // PLAYERS] * PLAYERS
    assert len({hand for _, hand, _ in rounds}) == 1
    assert len({deck for _, _, deck in rounds}) == 1  # every round deals from the full deck
    assert swayed == 0  # the heuristic's choices do not depend on the scores


def test_spell_options_are_every_change_the_spells_space_allows():
    game = load_game(ROOT / "cards" / "magic-spell")
    space = parse_space(game, rules_for(game), [BENCH.SPELL_COST, BENCH.SPELL_CREDITS], BENCH.MAX_CHANGES)
    allowed = {dim.key: {dim.value(v) for v in range(dim.low, dim.high + 1)} for f in space.families for dim in f.members}
    for card in game.component("spells").cards:
        cost = card.fields.get("cost")
        options = BENCH.spell_options(card)
        fields = [dict((key.split(".")[-1], value) for key, value in variant) for variant in options]
        assert len({tuple(sorted(f.items())) for f in fields}) == len(fields)  # no option twice, none unchanged
        assert all(f for f in fields)
        for changed in fields:
            for field, value in changed.items():
                assert value in allowed[f"cards.spells.{card.id}.{field}"], (card.id, field, value)
        costs = {f.get("cost", cost) for f in fields} if cost is not None else {None}
        expected = len({c for c in range(cost - 2, cost + 3) if c >= 0}) * 4 - 1 if cost is not None else 3
        assert len(fields) == expected, card.id
        assert all(c is None or c >= 0 for c in costs)
