# Two commands do all the set-up on a fresh machine (README):
#   make demo   - the bundled default, end to end, offline
#   make test   - ruff and mypy (make lint), then the whole suite
# Each creates and fills .venv when it is missing or pyproject.toml changed.
# The reader's llama-cpp-python is built once, portably (x86-64-v3, no AMX,
# never -march=native), by rawrag_tui/models/reader_build.py into its own
# folder (~/.cache/rawrag/wheels), and installed only from there: pip is told
# never to compile its own (native) copy, whichever package asks for it.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
export CMAKE_BUILD_PARALLEL_LEVEL ?= 2
comma := ,

.PHONY: demo lint test bench app package clean-venv screenshot

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip

READER_BUILD := $(BIN)/python rawrag_tui/models/reader_build.py
# Installs the portable wheel over any llama-cpp-python already there, then the extras.
# A venv made before the encrypted store has plain apsw, whose files apsw-sqlite3mc
# (the same module, with the cipher) shares: plain apsw goes, and the cipher build is
# put back whole, so neither one's uninstall leaves the other half-removed.
define install_with_reader
	if $(BIN)/python -m pip show -q apsw >/dev/null 2>&1; then \
	    $(BIN)/python -m pip uninstall -y -q apsw && \
	    $(BIN)/python -m pip install -q --force-reinstall --no-deps "$$(grep -o 'apsw-sqlite3mc==[0-9.]*' pyproject.toml)"; \
	fi && \
	wheels="$$($(READER_BUILD) wheel)" && \
	$(BIN)/python -m pip install --force-reinstall --no-deps --only-binary llama-cpp-python \
	    --find-links "$$wheels" "$$($(READER_BUILD) requirement)" && \
	$(BIN)/python -m pip install --only-binary llama-cpp-python --find-links "$$wheels" -e '.[$(1)]'
endef

$(VENV)/.installed-core: pyproject.toml rawrag_tui/models/reader_build.py | $(BIN)/python
	$(call install_with_reader,reader)
	touch $@

$(VENV)/.installed-all: pyproject.toml rawrag_tui/models/reader_build.py | $(BIN)/python
	$(call install_with_reader,reader$(comma)export$(comma)test)
	touch $@ $(VENV)/.installed-core

$(VENV)/.installed-bench: pyproject.toml $(VENV)/.installed-all
	$(call install_with_reader,reader$(comma)export$(comma)test$(comma)bench)
	touch $@

demo: $(VENV)/.installed-core
	$(BIN)/rawrag demo

# Lint and type checks first: seconds, against minutes of tests.
lint: $(VENV)/.installed-all
	$(BIN)/ruff check rawrag_tui tests bench
	$(BIN)/mypy rawrag_tui

test: lint
	$(BIN)/python -m pytest -q

bench: $(VENV)/.installed-bench
	$(BIN)/python bench/run_all.py

app: $(VENV)/.installed-core
	$(BIN)/rawrag

# docs/app.svg, the README's picture: the app searching the shipped demo history,
# drawn by docs/screenshot.py as the snapshot tests build the app.
screenshot: $(VENV)/.installed-core
	$(BIN)/python docs/screenshot.py

# The standalone one-folder build, dist/rawrag/ (runs without Python), made
# from the wheel in a venv of its own: packaging/README.md.
package:
	PYTHON=$(PYTHON) bash packaging/pyinstaller/build.sh

clean-venv:
	rm -rf $(VENV)
