"""The runner's chance draws are random.choices' draws: the same random number picks the same outcome,
whatever way draw_chance takes (a list, a kept tuple, counts with whole numbers or near a boundary)."""

from __future__ import annotations

import math
import random
from itertools import accumulate

from hypothesis import given, settings
from hypothesis import strategies as st

from spellpress.rules.chance import Counted, draw_chance, uniform_index


def choices_draw(outcomes, rng: random.Random):
    """What the runner drew before draw_chance: random.choices over the pairs (no number for one outcome)."""
    actions = [a for a, _ in outcomes]
    return rng.choices(actions, weights=[p for _, p in outcomes])[0] if len(actions) > 1 else actions[0]


class Fixed(random.Random):
    """A generator whose random() gives the numbers it is told, in turn."""

    def __init__(self, numbers):
        super().__init__(0)
        self.numbers = list(numbers)

    def random(self):
        return self.numbers.pop(0)


def counted_pairs(counts, total):
    return [(("card", i), n / total) for i, n in enumerate(counts) if n]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(0.001, 50, allow_nan=False), min_size=1, max_size=30), st.integers(0, 2**32))
def test_a_list_or_a_kept_tuple_draws_what_random_choices_draws(weights, seed):
    outcomes = [(("face", i), w) for i, w in enumerate(weights)]
    kept = tuple(outcomes)
    old, new, again = random.Random(seed), random.Random(seed), random.Random(seed)
    for _ in range(5):
        expected = choices_draw(outcomes, old)
        assert draw_chance(outcomes, new) == expected
        assert draw_chance(kept, again) == expected
    assert old.random() == new.random() == again.random()  # as many numbers drawn


@settings(max_examples=500, deadline=None)
@given(st.lists(st.integers(0, 12), min_size=1, max_size=40).filter(any), st.integers(0, 2**32))
def test_counted_outcomes_read_as_their_fractions_and_draw_what_random_choices_draws(counts, seed):
    total = sum(counts)
    actions = [("card", i) for i in range(len(counts))]
    outcomes = Counted(actions, counts, total)
    pairs = counted_pairs(counts, total)
    assert list(outcomes) == pairs and outcomes == pairs and len(outcomes) == len(pairs)
    assert [outcomes[i] for i in range(len(pairs))] == pairs
    old, new = random.Random(seed), random.Random(seed)
    for _ in range(20):
        assert draw_chance(Counted(actions, counts, total), new) == choices_draw(pairs, old)
    assert old.random() == new.random()


def test_counted_outcomes_at_the_boundaries_between_kinds_draw_what_random_choices_draws():
    """Random numbers at, just below and just above each kind's share, where the floating-point sums
    of the fractions and the whole counts could disagree: there the fractions are summed."""
    rng = random.Random(3)
    looked = near = 0
    for _ in range(300):
        counts = [rng.choice([0, 1, 2, 3, 5, 7, 12]) for _ in range(rng.randint(2, 30))]
        total = sum(counts)
        if len([n for n in counts if n]) < 2:
            continue
        pairs = counted_pairs(counts, total)
        sums = list(accumulate(p for _, p in pairs))
        numbers = []
        for whole in accumulate(counts):
            r = whole / total
            numbers += [r, math.nextafter(r, 0), math.nextafter(r, 2), math.nextafter(math.nextafter(r, 0), 0)]
        numbers += [s / sums[-1] for s in sums]  # where random.choices' own sums fall
        numbers = [r for r in numbers if 0 <= r < 1]
        for r in numbers:
            expected = choices_draw(pairs, Fixed([r]))
            outcomes = Counted([("card", i) for i in range(len(counts))], counts, total)
            assert draw_chance(outcomes, Fixed([r])) == expected, (counts, r)
            looked += 1
            near += abs(r * total - round(r * total)) < 1e-9
    assert looked > 5000 and near > 2000


def test_one_outcome_draws_no_number_and_counts_that_do_not_add_up_are_read_as_fractions():
    rng, untouched = random.Random(7), random.Random(7)
    assert draw_chance(Counted(["a", "b", "c"], [0, 4, 0], 4), rng) == "b"
    assert draw_chance([("only", 1.0)], rng) == "only"
    assert rng.random() == untouched.random()
    # a deck size that disagrees with its counts (a broken engine): the fractions as the engine gives them
    pairs = [("a", 2 / 7), ("b", 3 / 7)]
    for seed in range(50):
        assert draw_chance(Counted(["a", "b"], [2, 3], 7), random.Random(seed)) == choices_draw(pairs, random.Random(seed))


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 80), st.integers(0, 2**32))
def test_a_uniform_draw_is_random_choices_draw_over_equal_shares(n, seed):
    """uniform_index (a shuffled pile: every card alike) draws what the runner drew from the pile's
    (card, 1 / n) pairs, as many numbers drawn (none for one card)."""
    pile = [("card", i) for i in range(n)]
    pairs = [(card, 1 / n) for card in pile]
    old, new = random.Random(seed), random.Random(seed)
    for _ in range(10):
        assert pile[uniform_index(n, new)] == choices_draw(pairs, old)
    assert old.random() == new.random()


def test_a_uniform_draw_at_the_boundaries_between_cards_draws_what_random_choices_draws():
    looked = 0
    for n in range(2, 70):
        pairs = [(("card", i), 1 / n) for i in range(n)]
        sums = list(accumulate(p for _, p in pairs))
        numbers = [s / sums[-1] for s in sums]
        for k in range(n + 1):
            r = k / n
            numbers += [r, math.nextafter(r, 0), math.nextafter(r, 2), math.nextafter(math.nextafter(r, 0), 0)]
        for r in (r for r in numbers if 0 <= r < 1):
            assert pairs[uniform_index(n, Fixed([r]))][0] == choices_draw(pairs, Fixed([r])), (n, r)
            looked += 1
    assert looked > 10000
