# Spellpress: `make` sets up .venv and builds every game into output/; `make test` runs the tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SPELLPRESS := $(BIN)/spellpress

.PHONY: all build test check proof lexicon bench clean distclean

all: build

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

build: $(STAMP)
	$(SPELLPRESS) build

test: $(STAMP)
	$(BIN)/python -m pytest

check: $(STAMP)
	$(SPELLPRESS) check

# Rasterize every built PDF to PNG pages (output/proof/) for a person to look at.
proof: build
	$(BIN)/python -m generator.tools.proof output

bench: $(STAMP)
	$(BIN)/python bench/render.py

clean:
	rm -rf output

distclean: clean
	rm -rf $(VENV) *.egg-info .pytest_cache .hypothesis
