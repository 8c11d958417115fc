"""Letter analysis: is a game's letter mix playable, how far from English, are the points fair."""
