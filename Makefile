# One command sets up and runs; one sets up and tests. The venv is made on first use.
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
STAMP   = $(VENV)/.installed

.PHONY: run app cli lint test docs bench species zones sample clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: app

app: $(STAMP)
	$(PY) -m streamlit run app.py --server.headless true

cli: $(STAMP)
	$(VENV)/bin/treecalc assess data/examples/sample_survey.xlsx

# Lint and types (config in pyproject.toml: [tool.ruff], [tool.mypy] with files = ["treecalc"], the app included).
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# What CI runs (.ci/run): lint and types first, then the tests.
# pytest-xdist: one worker per core (at most 4: each worker runs its own Chromium and app servers for the browser tests).
# treecalc's bytecode is compiled once first, as pip compiles an installed copy: the tests start hundreds of
# treecalc processes (the command line, app servers), and where PYTHONDONTWRITEBYTECODE is set each compiled the
# modules it imports again (~0.3 s of CPU a command).
test: lint
	$(PY) -m compileall -q treecalc
	$(PY) -m pytest -q -n auto --maxprocesses 4 --dist worksteal

# The documentation site (mkdocs.yml): every warning, broken link or missing anchor is an error (--strict).
# The law pages and the command line reference are generated while it builds (tools/docs_hooks.py).
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir site

bench: $(STAMP)
	$(PY) benchmarks/benefits.py
	$(PY) benchmarks/ingest.py
	$(PY) benchmarks/excavation_grid.py
	$(PY) benchmarks/app_permit_update.py
	$(PY) benchmarks/end_to_end.py
	$(PY) benchmarks/scaling.py
	$(PY) benchmarks/hostile.py

species:
	$(PYTHON) tools/build_species.py

# The 16 climate zones from checkouts of OpenTreeMap's otm-ecoservice and otm-core (git clone them first)
ECOSERVICE ?= ../otm-ecoservice
OTM_CORE   ?= ../otm-core
zones:
	$(PYTHON) tools/build_zones.py --ecoservice $(ECOSERVICE) --otm-core $(OTM_CORE)

sample: $(STAMP)
	$(PY) tools/make_sample_survey.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis site
