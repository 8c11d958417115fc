"""Every PDF of a game says what it is (name, designer, description) and when its sources were last
changed, the same on every rebuild: SOURCE_DATE_EPOCH when set, else the newest source file's time."""

from __future__ import annotations

import os
import shutil

import pikepdf
import pytest

from spellpress.build import BuildOptions, build
from spellpress.cli import main
from tests.conftest import DUPLEX

NEWEST = 1_700_000_000  # 2023-11-14 22:13:20 UTC


@pytest.fixture
def described(tmp_path):
    game = tmp_path / "described"
    shutil.copytree(DUPLEX, game)
    yaml = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(yaml.replace("name: Duplex Test\n", "name: Duplex Test\ndesigner: Ada Lovelace\n"
                                                 "description: Solid faces for duplex checks.\n"))
    for number, path in enumerate(sorted(p for p in game.rglob("*") if p.is_file())):
        os.utime(path, (NEWEST - 1000 - number, NEWEST - 1000 - number))
    os.utime(game / "cards.yaml", (NEWEST, NEWEST))
    return game


def info(path):
    with pikepdf.open(path) as pdf:
        return {key: str(value) for key, value in pdf.docinfo.items()}


@pytest.mark.slow
def test_the_pdfs_carry_the_game_and_the_newest_source_date(described, tmp_path, monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    result = build(described, BuildOptions(out=tmp_path / "out", print_shop=True, cache=False))
    pdfs = [p for p in result.files if p.suffix == ".pdf"]
    assert len(pdfs) == 2
    for pdf in pdfs:
        fields = info(pdf)
        assert fields["/Title"] == "Duplex Test"
        assert fields["/Author"] == "Ada Lovelace"
        assert fields["/Subject"] == "Solid faces for duplex checks."
        assert fields["/CreationDate"] == fields["/ModDate"] == "D:20231114221320+00'00'"


@pytest.mark.slow
def test_source_date_epoch_sets_the_date_and_cmyk_files_keep_it(described, tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1234567890")  # 2009-02-13 23:31:30 UTC
    result = build(described, BuildOptions(out=tmp_path / "out", color="cmyk", cache=False))
    fields = info(next(p for p in result.files if p.suffix == ".pdf"))
    assert fields["/CreationDate"] == "D:20090213233130+00'00'"
    assert fields["/Author"] == "Ada Lovelace" and fields["/GTS_PDFXVersion"] == "PDF/X-1a:2003"


@pytest.mark.slow
def test_a_rebuild_is_byte_identical(described, tmp_path, monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    first = build(described, BuildOptions(out=tmp_path / "one", print_shop=True, cache=False))
    second = build(described, BuildOptions(out=tmp_path / "two", print_shop=True, cache=False))
    again = build(described, BuildOptions(out=tmp_path / "one", print_shop=True, cache=True))  # through the cache
    for a, b, c in zip(first.files, second.files, again.files, strict=True):
        assert a.read_bytes() == b.read_bytes() == c.read_bytes(), a.name


def test_a_bad_source_date_epoch_is_refused(described, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    assert main(["check", str(described)]) == 0  # check writes nothing: no date needed
    assert main(["build", str(described), "--out", str(tmp_path / "out"), "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert "SOURCE_DATE_EPOCH" in err and "whole number of seconds" in err and "Traceback" not in err
    assert not (tmp_path / "out" / "described").exists() or not any((tmp_path / "out" / "described").glob("*.pdf"))


@pytest.mark.parametrize("epoch", ["253402300800", "99999999999999", "\u0661\u0662\u0663"])
def test_an_epoch_no_pdf_date_can_hold_is_refused(epoch, described, tmp_path, monkeypatch, capsys):
    """A PDF date has four digits for the year (9999-12-31 23:59:59 UTC is 253402300799), and only ASCII digits."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    assert main(["build", str(described), "--out", str(tmp_path / "out"), "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert "SOURCE_DATE_EPOCH" in err and "Traceback" not in err


@pytest.mark.slow
def test_a_new_epoch_is_a_new_build_and_a_bad_one_touches_nothing(described, tmp_path, monkeypatch, capsys):
    """SOURCE_DATE_EPOCH is an input of the build: an unchanged game built with another epoch is not
    'up to date' with the old date, and a bad epoch is refused before anything is removed."""
    out = tmp_path / "out"
    pdf = out / "described" / "described-a4.pdf"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1234567890")
    assert main(["build", str(described), "--out", str(out)]) == 0
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(NEWEST))
    assert main(["build", str(described), "--out", str(out)]) == 0
    assert info(pdf)["/CreationDate"] == "D:20231114221320+00'00'"
    before = {path: path.read_bytes() for path in (out / "described").iterdir()}
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    assert main(["build", str(described), "--out", str(out)]) == 2
    assert "SOURCE_DATE_EPOCH" in capsys.readouterr().err
    assert {path: path.read_bytes() for path in (out / "described").iterdir()} == before


def test_hidden_folders_do_not_date_the_game(described, monkeypatch):
    """A game kept in its own git repository: .git/ changes on every commit or fetch, its sources do not."""
    from spellpress.write.metadata import source_date

    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    hidden = described / ".git" / "refs" / "heads" / "main"
    hidden.parent.mkdir(parents=True)
    hidden.write_text("0" * 40)
    os.utime(hidden, (NEWEST + 86400, NEWEST + 86400))
    assert source_date(described).timestamp() == NEWEST
