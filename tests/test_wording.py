"""Counts in the summaries said as a person says them."""

from spellpress.wording import listed_files, plural


def test_plural_says_one_and_many():
    assert plural(1, "card") == "1 card"
    assert plural(2, "card") == "2 cards"
    assert plural(1000, "card") == "1,000 cards"
    assert plural(2, "die", "dice") == "2 dice"


def test_a_build_lists_four_files_and_counts_the_rest():
    assert listed_files(["a", "b", "c", "d"]) == ["  a", "  b", "  c", "  d"]
    assert listed_files(["a", "b", "c", "d", "e"])[-1] == "  ... and 1 more file"
    assert listed_files([str(n) for n in range(7)])[-1] == "  ... and 3 more files"
