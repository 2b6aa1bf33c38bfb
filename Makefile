# irtables — `make help` lists the targets.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# One install stamp per set of dependencies, each redone when pyproject.toml changes:
# `make tables` needs irtables' runtime dependencies only, `make test` adds the dev extra,
# `make docs` the docs extra (all into the same .venv).
RUNTIME := $(VENV)/.installed-runtime
DEV     := $(VENV)/.installed-dev
DOCS    := $(VENV)/.installed-docs

.DEFAULT_GOAL := help
.PHONY: help install lint typecheck pytest test test-fast golden tables supplement example-data docs bench clean

help:  ## show this help
	@grep -E '^[a-zA-Z_-]+:.*?## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*?## "}; {printf "  %-14s %s\n", $$1, $$2}'

# pip compiles every module it installs, one at a time, the packages' own test suites
# included; instead the modules are compiled on every core, test suites left out. Bytecode
# is a cache: a module that does not compile here (a package's Python 2 example) is
# compiled, or reports its error, when it is imported, so compileall's status is ignored.
PIP     := $(BIN)/python -m pip install --quiet --disable-pip-version-check --no-compile
COMPILE := $(BIN)/python -m compileall -qq -j 0 -x '/tests?/|/testing/' $(VENV)/lib >/dev/null || true

$(RUNTIME): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) -e .
	@$(COMPILE)
	@touch $@

$(DEV): pyproject.toml $(RUNTIME)
	$(PIP) -e '.[dev]'
	@$(COMPILE)
	@touch $@

$(DOCS): pyproject.toml $(RUNTIME)
	$(PIP) -e '.[docs]'
	@$(COMPILE)
	@touch $@

install: $(DEV) $(DOCS)  ## create .venv and install irtables with its test and documentation dependencies

lint: $(DEV)  ## ruff check and format check
	$(BIN)/ruff check src tests bench results docs
	$(BIN)/ruff format --check src tests bench results docs

typecheck: $(DEV)  ## mypy --strict on src/
	$(BIN)/mypy

# Tests run on every core (pytest-xdist), in an order shuffled anew each run (pytest-randomly):
# a test that leaks process-wide state into another fails in some orders. The seed is
# printed first; `make test SEED=N` repeats an order.
ifndef SEED
SEED := $(shell $(PYTHON) -c 'import random; print(random.randrange(10**9))')
endif
# One BLAS thread per worker: the workers already take every core, and OpenBLAS threads
# beyond them spin while they wait (about a sixth of the suite's CPU time, measured on 2 cores).
PYTEST := OPENBLAS_NUM_THREADS=1 $(BIN)/pytest -q -n auto -p randomly --randomly-seed=$(SEED)

# The suite builds the documentation site too (tests/test_docs_site.py): it needs the docs extra.
pytest: $(DEV) $(DOCS)  ## run the test suite only (every test, in parallel, random order)
	@echo "test order: random, seed $(SEED) (make test SEED=$(SEED) repeats it)"
	$(PYTEST)

test-fast: $(DEV) $(DOCS)  ## the tests without those marked slow (end-to-end, simulations): for the edit-test loop
	@echo "test order: random, seed $(SEED)"
	$(PYTEST) -m "not slow"

test: lint typecheck pytest  ## lint + typecheck + tests (what CI runs)

golden: $(DEV)  ## rewrite the golden files from the current code (review the diff!)
	$(BIN)/pytest -q -p no:randomly tests/golden --update-golden

tables: $(RUNTIME)  ## render the example in results/ into results/tables/
	$(BIN)/irtables tables results/ -o results/tables

supplement: $(RUNTIME)  ## the example's supplementary material (tables, tests, figures, methods, PDF) in results/supplement/
	$(BIN)/irtables supplement results/ -o results/supplement

example-data: $(DEV)  ## regenerate results/ per-query files from the fixtures (pytrec_eval)
	$(BIN)/python results/make_example.py

docs: $(DOCS)  ## build the documentation site into site/ (mkdocs --strict; references generated from the code)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

bench: $(DEV)  ## run the benchmarks in bench/ (start-up, trec_eval, scaling, incremental, reruns, tables, evaluate, stats, supplement; slow)
	$(BIN)/python bench/bench_startup.py
	$(BIN)/python bench/bench_trec.py
	$(BIN)/python bench/bench_scaling.py
	$(BIN)/python bench/bench_incremental.py
	$(BIN)/python bench/bench_rerun.py
	$(BIN)/python bench/bench_rerun_changed.py
	$(BIN)/python bench/bench_tables.py
	$(BIN)/python bench/bench_evaluate.py
	$(BIN)/python bench/bench_stats.py
	$(BIN)/python bench/bench_supplement.py

clean:  ## remove the virtual environment and caches
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build dist site
