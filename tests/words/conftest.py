from collections import Counter

import pytest

from spellpress.words.finder import WordFinder
from spellpress.words.lexicon import Lexicon


@pytest.fixture(scope="session")
def lexicon():
    return Lexicon()


@pytest.fixture(scope="session")
def finder(lexicon):
    return WordFinder(lexicon)


@pytest.fixture(scope="session")
def word_counts(lexicon):
    return {w: Counter(w) for w in lexicon}


@pytest.fixture(scope="session")
def small(lexicon):
    """(lexicon, finder, word counts) of a small part of the lexicon, the brute-force checks' fast twin:
    every word of up to 4 letters (the ones short hands make) and every 40th longer one, about 5,100."""
    words = Lexicon(words=[w for w in lexicon.words if len(w) <= 4] + [w for w in lexicon.words if len(w) > 4][::40])
    return words, WordFinder(words), {w: Counter(w) for w in words}


@pytest.fixture(scope="session")
def full(lexicon, finder, word_counts):
    return lexicon, finder, word_counts
