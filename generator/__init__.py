"""Spellpress: print-and-play decks, letter analysis and rules validation from YAML."""

__version__ = "0.1.0"
