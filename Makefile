# pyradice_lab — `make report` and `make test` work on a fresh machine with only python3 and pip.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
QUICK  ?=
REPORT_OUT ?= reports/pyradice_lab_report.pdf
REPORT_ARGS ?=
PYTEST_ARGS ?=
MUTATE_ARGS ?=
JOBS ?= 2

.PHONY: report test bench bench-first-use lint venv clean mutate docs docs-test compile

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# re-install when pyproject.toml changes (editable install: code changes need no re-install)
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

venv: $(VENV)/.installed

# build ahead of time what each game's first simulate_games and advise compile (pyradice_lab/_aot/): about a minute
# after the sources changed, a second when they did not; without a C compiler the first calls compile as before
compile: $(VENV)/.installed
	-$(BIN)/pyradice-lab compile

report: $(VENV)/.installed compile
	$(BIN)/pyradice-lab report --out $(REPORT_OUT) $(if $(QUICK),--quick) --jobs $(JOBS) $(REPORT_ARGS)

# the 15 slowest tests are listed at the end (CI keeps under ~20 minutes on 2 cores: the list says where it goes)
test: $(VENV)/.installed-dev compile
	$(BIN)/python -m pytest -n $(JOBS) --durations=15 $(PYTEST_ARGS)

bench: $(VENV)/.installed
	$(BIN)/pyradice-lab bench

# issue 16's first-use targets only (import, CLI, sweep pool, each game's first call with an empty numba cache)
bench-first-use: $(VENV)/.installed
	$(BIN)/pyradice-lab bench --first-use

# the documentation site: docs/_build/html/index.html; first the gallery's quick-run results (docs/results/, committed):
# only the experiments whose code changed run again (none on a fresh clone of main: a test of `make test`,
# tests/test_docs_results.py, fails when the stored results do not match the code; all of them: about 5 min)
docs: $(VENV)/.installed-dev
	$(BIN)/python docs/results.py
	$(BIN)/python -m sphinx -b html -W --keep-going -j 1 docs docs/_build/html

# the same build from the stored results (nothing executed; what CI checks; about a minute): every experiment
# page must show an image and a table
docs-test: $(VENV)/.installed-dev
	$(BIN)/python -m pytest -m docs -p no:xdist $(PYTEST_ARGS) tests/test_docs_build.py

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) pyradice_lab/_aot reports/*.pdf reports/bench.csv .pytest_cache docs/_build docs/api/generated docs/gallery docs/gallery_src docs/notebooks/pages docs/sg_execution_times.rst

# realistic bugs introduced one at a time into a temporary copy must each make the relevant tests fail
# (tests/mutate.py; tens of minutes, not part of `make test`): MUTATE_ARGS="--only sweep-seeding" for one
mutate: $(VENV)/.installed-dev
	$(BIN)/python tests/mutate.py $(MUTATE_ARGS)
