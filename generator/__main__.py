from spellpress.cli import run

run()
