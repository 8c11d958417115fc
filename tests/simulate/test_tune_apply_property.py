"""`tune --apply` on random layouts of the same cards: exactly the value changed differs afterwards.

Each example writes a toy game's cards in a drawn layout (YAML: flow or block lists and cards, several flow
cards on a line, comments ending in U+2028 or U+0085, quoting, CRLF, a BOM; CSV: quoted cells with line
breaks, blank lines, a blank first line, `;` columns, CRLF, a BOM), changes one value through the apply path,
and checks that the game re-loads with only that value changed and every character outside that value's
span in the file is as it was.
"""

from __future__ import annotations

import json
import re
import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spellpress.load.game import load_game
from spellpress.tune.apply import apply
from tests.conftest import FIXTURES

HEAD = "name: Number cards\ntemplate: text-card\nfields: {title: str, body: str, value: int}\n"
GAME = "name: Toy Draw\nplayers: {min: 2, max: 4}\ncomponents: [numbers.yaml]\n"
FIELDS = ("title", "body", "value", "count")
PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9]*(?: [A-Za-z0-9]+)*")
NOT_PLAIN = {"true", "false", "yes", "no", "on", "off", "null", "y", "n"}

ICON = re.compile(r":[^\s:]+:")  # an inline icon's name, which `check` looks up
words = st.text(alphabet="Abz9 '\",:#é€-", min_size=1, max_size=12).filter(
    lambda s: s.strip() == s and s.strip() and not ICON.search(s))
bodies = st.one_of(words, st.builds(lambda a, b: f"{a}\n{b}", words, words))
cards_drawn = st.lists(st.fixed_dictionaries({"title": words, "body": bodies, "value": st.integers(-50, 999),
                                              "count": st.none() | st.integers(1, 9)}), min_size=2, max_size=4)
new_values = {"title": words, "body": bodies, "value": st.integers(-50, 999), "count": st.integers(1, 9)}


class Text:
    """A file's text built piece by piece, remembering where each value was written."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.spans: dict[tuple[int, str], tuple[int, int]] = {}

    def add(self, piece: str, span: tuple[int, str] | None = None) -> None:
        if span is not None:
            self.spans[span] = (self.size, self.size + len(piece))
        self.parts.append(piece)
        self.size += len(piece)

    def __str__(self) -> str:
        return "".join(self.parts)


def yaml_scalar(draw, value) -> str:
    if isinstance(value, int):
        return str(value)
    styles = ["double"] + (["single"] if "\n" not in value else []) + (
        ["plain"] if PLAIN.fullmatch(value) and value.lower() not in NOT_PLAIN else [])
    style = draw(st.sampled_from(styles))
    if style == "plain":
        return value
    if style == "single":
        return "'" + value.replace("'", "''") + "'"
    return json.dumps(value)


@st.composite
def yaml_games(draw):
    cards = draw(cards_drawn)
    nl = draw(st.sampled_from(["\n", "\r\n"]))
    comment_end = draw(st.sampled_from(["", "\u2028", "\x85"]))
    flow_list = draw(st.booleans())
    text = Text()
    if draw(st.booleans()):
        text.add("\ufeff")
    text.add(HEAD.replace("\n", nl).replace("fields:", f"# the numbers{comment_end}{nl}fields:"))
    text.add(f"cards: [{nl}" if flow_list else f"cards:{nl}")
    card_spans = []
    for index, card in enumerate(cards):
        if draw(st.booleans()):
            text.add(f"  # card {index}{comment_end}{nl}")
        fields = [("id", f"c{index}"), *((k, card[k]) for k in FIELDS if card[k] is not None)]
        block = not flow_list and draw(st.booleans())
        start = text.size
        text.add("  " if flow_list else "  - ")
        if not block:
            text.add("{")
        for number, (name, value) in enumerate(fields):
            if number:
                text.add(", " if not block else f"{nl}    ")
            text.add(f"{name}: ")
            text.add(yaml_scalar(draw, value), (index, name))
            if block and draw(st.booleans()):
                text.add(f"  # about {name}{comment_end}")
        if not block:
            text.add("}")
        card_spans.append((start, text.size))
        last = index == len(cards) - 1
        if flow_list:
            text.add("," if not last or draw(st.booleans()) else "")
            text.add(" " if not last and draw(st.booleans()) else nl)
        else:
            text.add(nl)
    if flow_list:
        text.add(f"]{nl}")
    return cards, str(text), text.spans, card_spans


def csv_cell(draw, value, separator: str) -> str:
    text = "" if value is None else str(value)
    needs = any(c in text for c in (separator, '"', "\n", "\r")) or text != text.strip()
    if needs or draw(st.booleans()):
        return '"' + text.replace('"', '""') + '"'
    return text


@st.composite
def csv_games(draw):
    cards = draw(cards_drawn)
    nl = draw(st.sampled_from(["\n", "\r\n"]))
    separator = draw(st.sampled_from([",", ";"]))
    columns = draw(st.permutations(["id", *FIELDS]))
    text = Text()
    if draw(st.booleans()):
        text.add("\ufeff")
    if draw(st.booleans()):
        text.add(nl)  # a blank first line
    text.add(separator.join(csv_cell(draw, name, separator) for name in columns) + nl)
    for index, card in enumerate(cards):
        if draw(st.booleans()):
            text.add(nl)
        values = {"id": f"c{index}", **card}
        for number, name in enumerate(columns):
            if number:
                text.add(separator)
            value = values[name]
            text.add(csv_cell(draw, value.replace("\n", nl) if isinstance(value, str) else value, separator), (index, name))
        if index < len(cards) - 1 or draw(st.booleans()):
            text.add(nl)
    return cards, str(text), text.spans, None


def written_as_loaded(cards: list[dict]) -> dict:
    return {f"c{i}": {"title": c["title"], "body": c["body"], "value": c["value"], "count": c["count"] or 1}
            for i, c in enumerate(cards)}


def check_one_change(tmp_path, drawn, change, csv: bool) -> None:
    cards, source, spans, card_spans = drawn
    index, field, new = change
    index %= len(cards)
    folder = tmp_path / "toy"
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(FIXTURES / "toy-game", folder, ignore=shutil.ignore_patterns("*.py"))
    (folder / "game.yaml").write_text(GAME)  # no engine: each example is checked as `check` does, and quickly
    numbers = folder / ("numbers.csv" if csv else "numbers.yaml")
    if csv:
        (folder / "numbers.yaml").write_text(HEAD + "cards_from: numbers.csv\n")
    numbers.write_bytes(source.encode())
    before = written_as_loaded(cards)  # the loader reads a cell's CRLF as \n
    assert loaded(folder) == before

    apply(load_game(folder), ((f"cards.numbers.c{index}.{field}", new),))

    expected = {k: dict(v) for k, v in before.items()}
    expected[f"c{index}"][field] = new
    assert loaded(folder) == expected
    after = numbers.read_bytes().decode()
    start, end = spans.get((index, field)) or card_spans[index]
    assert after[:start] == source[:start] and after[len(after) - (len(source) - end):] == source[end:]


def loaded(folder) -> dict:
    return {c.id: {"title": c["title"], "body": c["body"], "value": c["value"], "count": c.count}
            for c in load_game(folder).component("numbers").cards}


changes = st.tuples(st.integers(0, 3), st.sampled_from(FIELDS)).flatmap(
    lambda pair: st.tuples(st.just(pair[0]), st.just(pair[1]), new_values[pair[1]]))


@pytest.mark.slow
@settings(max_examples=50, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(drawn=yaml_games(), change=changes)
def test_one_yaml_value_changed_in_any_layout_changes_only_it(tmp_path, drawn, change):
    check_one_change(tmp_path, drawn, change, csv=False)


@pytest.mark.slow
@settings(max_examples=50, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(drawn=csv_games(), change=changes)
def test_one_csv_cell_changed_in_any_layout_changes_only_it(tmp_path, drawn, change):
    check_one_change(tmp_path, drawn, change, csv=True)
