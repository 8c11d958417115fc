"""`spellpress new`: start a game folder that checks and builds at once."""
