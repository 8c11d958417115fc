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
