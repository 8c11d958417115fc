"""The small web kit behind `spellpress serve` and `spellpress play`: app classes, templates, static files, server push."""
