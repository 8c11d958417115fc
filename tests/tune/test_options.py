"""tune reads its command line once, into TuneOptions: no option of the parser may be left out of it, and the
defaults are the parser's."""

from __future__ import annotations

from dataclasses import fields

from spellpress.cli import parser
from spellpress.tune.options import TuneOptions, variant_of


def test_every_tune_option_of_the_parser_is_a_field_with_the_parser_s_default():
    args = parser().parse_args(["tune", "my-game", "--vary", "rules.rounds=4..6"])
    given = set(vars(args)) - {"command", "handler"}
    assert given == {f.name for f in fields(TuneOptions)}
    options = TuneOptions.from_args(args)
    defaults = TuneOptions(game="my-game", vary=("rules.rounds=4..6",))
    assert options == defaults  # each default of the dataclass is the parser's


def test_repeated_options_become_tuples_and_the_fresh_games_default_to_games():
    args = parser().parse_args(["tune", "g", "--vary", "a=1..2", "--vary", "b=1,2", "--target", "seats=2",
                                "--fixed-deck", "letters", "--option", "memory=none", "--games", "500"])
    options = TuneOptions.from_args(args)
    assert options.vary == ("a=1..2", "b=1,2") and options.fixed_deck == ("letters",) and options.option == ("memory=none",)
    assert options.fresh_games == 500 and TuneOptions.from_args(parser().parse_args(
        ["tune", "g", "--verify-games", "70"])).fresh_games == 70
    assert variant_of([["rules.rounds", 5], ["cards.spells.pilfer.cost", 2]]) == (
        ("rules.rounds", 5), ("cards.spells.pilfer.cost", 2))
