"""`spellpress play`: a card table in the browser where a designer plays against the bots."""
