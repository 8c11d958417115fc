"""`spellpress edition`: a game's letter deck redesigned for another language, to play like the original."""
