"""Word tables kept on disk (generator/words/table_cache.py): a fresh index reads what an earlier one
built, a changed word list never reads another list's table, and a damaged or unwritable cache
only costs a rebuild."""

from __future__ import annotations

import pytest

from spellpress.words.index import LetterIndex
from spellpress.words.table_cache import cache_folder

WORDS = ("pots", "stop", "tops", "stone", "notes", "tea")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SPELLPRESS_WORD_CACHE", str(tmp_path / "tables"))
    return tmp_path / "tables"


def test_a_fresh_index_reads_the_table_an_earlier_one_built(cache, monkeypatch):
    built = LetterIndex(WORDS).by_key
    assert built["opst"] == ("pots", "stop", "tops") and len(list(cache.iterdir())) == 1
    monkeypatch.setattr(LetterIndex, "_by_key", lambda self: pytest.fail("built again"))
    assert LetterIndex(WORDS).by_key == built


def test_another_word_list_gets_its_own_table(cache):
    _ = LetterIndex(WORDS).by_key  # built, so the cache holds a table
    assert LetterIndex(WORDS + ("post",)).by_key["opst"] == ("pots", "stop", "tops", "post")
    assert LetterIndex(WORDS[1:]).by_key["opst"] == ("stop", "tops")
    assert len(list(cache.iterdir())) == 3


def test_skeleton_tables_are_kept_per_set_of_free_letters(cache):
    vowels = LetterIndex(WORDS).skeleton(frozenset("aeiou"))
    assert LetterIndex(WORDS).skeleton(frozenset("aeiou")) == vowels
    assert dict(vowels["nst"]) == {"stone": frozenset("eo"), "notes": frozenset("eo")}
    assert LetterIndex(WORDS).skeleton(frozenset("o"))["enst"] == (("stone", frozenset("o")), ("notes", frozenset("o")))


def test_a_damaged_file_is_built_again(cache):
    _ = LetterIndex(WORDS).by_key  # built, so the cache holds a table
    (table,) = cache.iterdir()
    whole = table.read_bytes()
    table.write_bytes(whole[:40])
    assert LetterIndex(WORDS).by_key["opst"] == ("pots", "stop", "tops")
    assert table.read_bytes() == whole  # written again, whole


def test_an_unwritable_folder_only_costs_a_rebuild(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("SPELLPRESS_WORD_CACHE", str(blocker / "tables"))
    assert LetterIndex(WORDS).by_key["aet"] == ("tea",)


def test_off_keeps_nothing_and_the_default_is_the_user_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SPELLPRESS_WORD_CACHE", "off")
    assert cache_folder() is None
    assert LetterIndex(WORDS).by_key["aet"] == ("tea",)
    monkeypatch.delenv("SPELLPRESS_WORD_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_folder() == tmp_path / "spellpress" / "word-tables"
