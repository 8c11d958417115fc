"""`spellpress serve`: the live preview in the browser."""
