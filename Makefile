# Two commands do all the set-up on a fresh machine (README):
#   make demo   - the bundled default, end to end, offline
#   make test   - the whole suite
# Each creates and fills .venv when it is missing or pyproject.toml changed.
# pip's cache stays on: the llama-cpp-python wheel it builds once is reused.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
export CMAKE_BUILD_PARALLEL_LEVEL ?= 2

.PHONY: demo test bench app clean-venv

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip

$(VENV)/.installed-core: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e '.[reader]'
	touch $@

$(VENV)/.installed-all: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e '.[reader,export,test]'
	touch $@ $(VENV)/.installed-core

$(VENV)/.installed-bench: pyproject.toml $(VENV)/.installed-all
	$(BIN)/python -m pip install -e '.[reader,export,test,bench]'
	touch $@

demo: $(VENV)/.installed-core
	$(BIN)/rawrag demo

test: $(VENV)/.installed-all
	$(BIN)/python -m pytest -q

bench: $(VENV)/.installed-bench
	$(BIN)/python bench/run_all.py

app: $(VENV)/.installed-core
	$(BIN)/rawrag

clean-venv:
	rm -rf $(VENV)
