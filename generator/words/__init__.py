"""Words: the lexicon, syllable counts, and the word finder.

Names are imported lazily so `python -m spellpress.words.<module>` runs cleanly.
"""

from importlib import import_module

_EXPORTS = {
    "Lexicon": "lexicon",
    "Match": "finder",
    "WordFinder": "finder",
    "syllables": "syllables",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(import_module(f"{__name__}.{_EXPORTS[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
