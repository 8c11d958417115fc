from spellpress.entry import run

run()
