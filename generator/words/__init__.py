"""Words: the lexicon, syllable counts, and the word finder (import each from its module)."""
