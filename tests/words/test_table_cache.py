"""Word tables kept on disk (generator/disk_cache.py): a fresh index reads what an earlier one
built, a changed word list never reads another list's table, and a damaged or unwritable cache
only costs a rebuild."""

from __future__ import annotations

import pytest

from spellpress.disk_cache import cache_folder
from spellpress.words.index import LetterIndex

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


def test_skeleton_tables_are_kept_as_flat_strings_and_unpacked_key_by_key(cache):
    import marshal

    table = LetterIndex(WORDS).skeleton(frozenset("aeiou"))
    (kept,) = (path for path in cache.iterdir() if path.name.startswith("skeleton-"))
    packed = marshal.loads(kept.read_bytes())
    assert packed["nst"] == "stone\nnotes" and all(isinstance(v, str) for v in packed.values())
    assert table.get("pst") == (("pots", frozenset("o")), ("stop", frozenset("o")), ("tops", frozenset("o")))
    assert set(table.entries) == {"pst"}  # only what was asked is unpacked
    assert "nst" in table and "xyz" not in table and table.get("xyz", ()) == ()
    with pytest.raises(KeyError):
        _ = table["xyz"]
    assert len(table) == len(packed) and sorted(table) == sorted(packed)


@pytest.mark.parametrize("letters_kept", [True, False])
def test_one_short_answers_key_by_key_before_it_builds_its_table(cache, monkeypatch, letters_kept):
    """A first game asks a few thousand keys: each is worked out alone (from the letters kept on disk that
    complete it, or by trying every letter); the whole table comes only after SHORT_KEYS_BEFORE_TABLE keys,
    and all give the same entries."""
    import random

    from spellpress.words import index as index_module
    from spellpress.words import lazy_tables
    from spellpress.words.lexicon import Lexicon

    if not letters_kept:  # as for a list of more letters than a mask holds
        monkeypatch.setattr(lazy_tables, "MASK_BITS", 3)
    monkeypatch.setattr(index_module, "_settled", False)  # as in a fresh process (a simulation settles them)

    words = Lexicon().words[::20]
    eager = LetterIndex(words).one_short_table(9)
    lazy_index = LetterIndex(words)
    rng = random.Random(5)
    near = ["".join(sorted(k[:-1] + rng.choice("abcdefghijklmnopqrstuvwxyz"))) for k in rng.sample(sorted(eager), 300) if k]
    asked = sorted(eager) + near + ["qqq", "", "aeinrst", "abcdefghij", "zzzzzzzz", "a"]  # every key, and keys between
    lazy = lazy_index.one_short(9)
    for k in asked:
        assert lazy.get(k, ()) == eager.get(k, ()), k
        assert (k in lazy) == (k in eager) and (lazy[k] == eager[k] if k in eager else True)
    assert lazy_index._one_short_upto == 0  # no pass over the list yet
    kept = [path.name for path in cache.iterdir() if path.name.startswith("one-short-letters-")]
    assert (lazy_index.short_letters is not None) == letters_kept and len(kept) == 1
    monkeypatch.setattr(index_module, "SHORT_KEYS_BEFORE_TABLE", len(lazy_index._short_entries) / len(lazy_index.by_key))
    assert lazy_index.one_short(9) is lazy_index._one_short and lazy_index._one_short_upto == 9
    assert lazy_index.one_short(9) == eager


def test_settled_tables_are_whole_plain_dicts(cache, monkeypatch):
    """After a process's first game (the runner calls settle()), one_short gives its whole table, as fast to
    look up as a dict can be, whatever was asked before."""
    from spellpress.words import index as index_module

    monkeypatch.setattr(index_module, "_settled", False)
    index = LetterIndex(WORDS)
    assert type(index.one_short(6)) is not dict and index.one_short(6).get("nost")
    index_module.settle()
    table = index.one_short(6)
    assert type(table) is dict and table["nost"] == (("e", ("stone", "notes")),) and index._one_short_upto == 6


def test_the_runner_settles_the_tables_after_a_first_game(monkeypatch):
    from spellpress.simulate.runner import RunSpec, run
    from spellpress.words import index as index_module
    from tests.conftest import ROOT

    monkeypatch.setattr(index_module, "_settled", False)
    run(RunSpec(str(ROOT / "cards" / "lost-words"), 2, 1, seed=3), workers=1)
    assert index_module._settled


def _file_lexicon(path, **settings):
    from spellpress.words.lexicon import Lexicon

    return Lexicon(min_length=2, source=str(path), **settings)


def test_a_lexicon_finds_its_tables_on_disk_without_reading_its_words(cache, tmp_path, monkeypatch):
    """A fresh process (a new Lexicon) finds the tables an earlier one kept by a digest of the word file's
    bytes and its settings: the words are never read (A Word to the Wise's cold start)."""
    from spellpress.disk_cache import words_digest
    from spellpress.words.lexicon import Lexicon

    listed = tmp_path / "words.txt"
    listed.write_text("\n".join(WORDS) + "\na\n")
    first = _file_lexicon(listed)
    assert first.digest == words_digest(first.words) == LetterIndex(first.words).digest
    table = dict(LetterIndex(lexicon=first).skeleton(frozenset("aeiou")))
    monkeypatch.setattr(Lexicon, "words", property(lambda self: pytest.fail("the words were read")))
    again = LetterIndex(lexicon=_file_lexicon(listed))
    assert dict(again.skeleton(frozenset("aeiou"))) == table
    words = again.skeleton_words(frozenset("aeiou"))
    assert "stone" in words and "tea" in words and "a" not in words and "tae" not in words and 3 not in words
    assert words == frozenset(WORDS) and len(words) == len(WORDS)


def test_an_edited_word_file_or_other_settings_get_their_own_digest(cache, tmp_path):
    from spellpress.disk_cache import words_digest

    listed = tmp_path / "words.txt"
    listed.write_text("\n".join(WORDS) + "\n")
    before = _file_lexicon(listed).digest
    listed.write_text("\n".join(WORDS[:-1]) + "\nsea\n")  # the same size: only the bytes tell
    edited = _file_lexicon(listed)
    assert edited.digest != before and edited.digest == words_digest(edited.words)
    longer = _file_lexicon(listed, deny=["stop"])
    assert longer.digest == words_digest(longer.words) and "stop" not in longer.words


def test_a_damaged_words_digest_is_worked_out_again(cache, tmp_path):
    import marshal

    from spellpress.disk_cache import words_digest

    listed = tmp_path / "words.txt"
    listed.write_text("\n".join(WORDS) + "\n")
    right = _file_lexicon(listed).digest
    (kept,) = (path for path in cache.iterdir() if path.name.startswith("words-digest-"))
    for damage in (marshal.dumps("0" * 31 + "g"), marshal.dumps(("not", "a digest")), b"\xff"):
        kept.write_bytes(damage)
        assert _file_lexicon(listed).digest == right == words_digest(sorted(WORDS))
        assert marshal.loads(kept.read_bytes()) == right  # written again


def test_short_letters_find_a_key_at_its_own_record_only():
    """The records of one width are one string: a key found across two records ("abbb" holds "bb" at 1, not
    a record) is looked for again, and one that only lies across records is not there."""
    from spellpress.words.lazy_tables import ShortLetters, pack_short_letters

    letters = ShortLetters(pack_short_letters(["abb"], "ab"))  # short keys "ab" (b completes), "bb" (a does)
    assert letters.packed[2][0] == "abbb"
    assert letters.completing("bb") == "a" and letters.completing("ab") == "b"
    across = ShortLetters(pack_short_letters(["acd", "abd"], "abcd"))  # ... "ad", "bd" ...: "db" lies across
    assert "db" in across.packed[2][0] and across.completing("db") == "" and across.completing("bd") == "a"


def test_skeleton_words_make_one_set_only_once_a_run_is_under_way(cache, monkeypatch):
    """A first game looks its words up key by key; after settle() (or as many words asked as the table has
    keys) every word is one set, and the answers never change."""
    from spellpress.words import index as index_module

    monkeypatch.setattr(index_module, "_settled", False)
    listed = WORDS + tuple(f"{a}{b}{c}" for a in "bcdfg" for b in "aeiou" for c in "lmnpr")  # 25 more keys
    words = LetterIndex(listed).skeleton_words(frozenset("aeiou"))
    asked = ["stone", "tones", "tea", "pots", "spot", "", "st", 7]
    first = [word in words for word in asked]
    assert first == [True, False, True, True, False, False, False, False] and words.whole is None
    assert set(words.by_key) <= {"nst", "t", "pst"}  # only the keys asked
    index_module.settle()
    assert [word in words for word in asked] == first and words.whole == frozenset(listed)
    many = LetterIndex(WORDS).skeleton_words(frozenset("aeiou"))
    monkeypatch.setattr(index_module, "_settled", False)
    for _ in range(len(many.packed) + 1):
        assert "notes" in many
    assert many.whole == frozenset(WORDS)


def test_the_folder_is_kept_under_its_size_least_recently_used_first(cache, monkeypatch):
    import os

    from spellpress.disk_cache import PRUNE_TO, limit_bytes

    _ = LetterIndex(WORDS).by_key  # table A
    (table_a,) = cache.iterdir()
    fillers = [cache / f"filler-{i}" for i in range(4)]
    for age, filler in enumerate(fillers):
        filler.write_bytes(b"x" * 600)
        os.utime(filler, (1000 + age, 1000 + age))  # long unused, filler-0 the longest
    os.utime(table_a, (500, 500))  # older than every filler...
    _ = LetterIndex(WORDS).by_key  # ...until read: now the most recently used
    limit = table_a.stat().st_size + 2000
    monkeypatch.setenv("SPELLPRESS_WORD_CACHE_MB", str(limit / 1_000_000))
    assert limit_bytes() == limit
    _ = LetterIndex(WORDS + ("post",)).by_key  # table B: over the size, so the oldest go
    left = set(cache.iterdir())
    assert table_a in left and len(left - set(fillers)) == 2  # A and B kept
    assert fillers[0] not in left and fillers[1] not in left and fillers[3] in left  # the least recently used first
    assert sum(path.stat().st_size for path in left) <= limit * PRUNE_TO


def test_a_size_that_is_not_a_number_keeps_the_default(monkeypatch):
    from spellpress.disk_cache import LIMIT_MB, limit_bytes

    monkeypatch.setenv("SPELLPRESS_WORD_CACHE_MB", "lots")
    assert limit_bytes() == LIMIT_MB * 1_000_000
