"""`spellpress tune`: a search over rules and card values for a balanced game, its proposals verified (docs/tune.md)."""
