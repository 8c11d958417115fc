"""The design check: what a prepress reviewer looks for on every face of a game (collisions, contrast,
small or shrunk type, a turned 6 or 9, a border the cutter cannot hold), as warnings at the template's
file and line (`spellpress check`; `--strict` makes them errors)."""
