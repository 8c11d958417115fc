"""Print modes are written once (model/modes.py): the YAML schema and the command line offer exactly
those values, and a value outside them is refused wherever it comes in, never read as 'no backs'."""

import argparse
import typing

import pytest

from spellpress.build import BuildOptions
from spellpress.cli import parser
from spellpress.impose.grid import Slot, mirror
from spellpress.impose.sheets import SheetSettings
from spellpress.model import modes
from spellpress.model.schema import PrintSettings
from spellpress.model.sizes import PAPER_SIZES
from spellpress.write.calibration import calibration_pdf


def option_choices(command: str, option: str) -> list[str]:
    sub = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction)).choices[command]
    return next(a.choices for a in sub._actions if option in a.option_strings)


@pytest.mark.parametrize("command, option, mode", [
    ("build", "--paper", modes.Paper), ("build", "--backs", modes.BackMode), ("build", "--marks", modes.MarkMode),
    ("build", "--color", modes.ColorMode), ("calibrate", "--paper", modes.CalibrationPaper),
    ("calibrate", "--backs", modes.DuplexMode),
])
def test_the_command_line_offers_exactly_the_modes(command, option, mode):
    assert option_choices(command, option) == list(typing.get_args(mode))


@pytest.mark.parametrize("key, mode", [("paper", modes.Paper), ("backs", modes.BackMode), ("cut", modes.CutMode)])
def test_game_yaml_takes_exactly_the_modes(key, mode):
    annotation = PrintSettings.model_fields[key].annotation
    assert typing.get_args(annotation) == typing.get_args(mode)


def test_every_paper_mode_has_a_size_and_every_size_a_mode():
    assert set(typing.get_args(modes.Paper)) == set(PAPER_SIZES)
    assert set(typing.get_args(modes.CalibrationPaper)) <= set(PAPER_SIZES)
    assert set(typing.get_args(modes.DuplexMode)) < set(typing.get_args(modes.BackMode))


SETTINGS = dict(paper=(210.0, 297.0), bleed=3, margin=4, cut="shared", gutter=0, backs="duplex-long", back_offset=(0, 0))


@pytest.mark.parametrize("field, value", [("backs", "duplex"), ("marks", "crops"), ("cut", "gutters")])
def test_sheet_settings_refuse_an_unknown_mode(field, value):
    with pytest.raises(ValueError, match=f"unknown .*'{value}': expected one of"):
        SheetSettings(**{**SETTINGS, field: value})


@pytest.mark.parametrize("field, value", [("paper", "a5"), ("backs", "duplex"), ("marks", "crops"), ("color", "cymk")])
def test_build_options_refuse_an_unknown_mode(field, value):
    with pytest.raises(ValueError, match=f"'{value}': expected one of"):
        BuildOptions(**{field: value})


def test_the_calibration_page_and_the_mirror_refuse_an_unknown_duplex_mode():
    with pytest.raises(ValueError, match="'duplex-wide'"):
        calibration_pdf("a4", "duplex-wide")
    with pytest.raises(ValueError):
        mirror(Slot(0, 0, 10, 10, 63, 88, (7, 7, 69, 94)), (210.0, 297.0), "fold")


def test_every_known_mode_is_accepted():
    for backs in typing.get_args(modes.BackMode):
        for marks in typing.get_args(modes.MarkMode):
            for cut in typing.get_args(modes.CutMode):
                SheetSettings(**{**SETTINGS, "backs": backs, "marks": marks, "cut": cut})
