"""Letter analysis: is a game's letter mix playable, how far from its language, are the points fair."""
