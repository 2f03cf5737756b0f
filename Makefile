# Each target sets up its own virtual environment, from nothing but Python 3.11+.
PYTHON ?= python3
VENV ?= .venv
# A CPU build of torch: on a machine without a GPU an unpinned torch pulls several GB of CUDA.
TORCH ?= torch==2.13.0
# The transformers ecwidth is developed against; the `measure` extra accepts every release an engine declares.
TRANSFORMERS ?= transformers>=5.24.0,<6
BIN := $(VENV)/bin
STAMP := $(VENV)/.ecwidth-installed
# The transformers an engine pins (SGLang 0.5.23's, within vLLM 0.32's and 0.33's ranges): `make test` runs the
# family contract again under it, in an environment of its own with ecwidth's `measure` extra on top.
ENGINE_TRANSFORMERS ?= transformers==5.19.0
ENGINE_VENV ?= .venv-engine
ENGINE_STAMP := $(ENGINE_VENV)/.ecwidth-installed
export HF_HUB_OFFLINE := 1

.PHONY: setup survey test lint engine-contract tables bench browser docs

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit("ecwidth needs Python 3.11 or newer" if sys.version_info < (3, 11) else 0)'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet "$(TORCH)" "$(TRANSFORMERS)"
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $(STAMP)

setup: $(STAMP)

# The main job: survey every catalog model on this machine (CPU by default).
survey: $(STAMP)
	$(BIN)/ecwidth survey -o build/survey

test: lint browser engine-contract
	$(BIN)/python -m pytest

$(ENGINE_STAMP): pyproject.toml
	$(PYTHON) -m venv $(ENGINE_VENV)
	$(ENGINE_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(ENGINE_VENV)/bin/python -m pip install --quiet "$(TORCH)" "$(ENGINE_TRANSFORMERS)" "pytest>=8.0"
	$(ENGINE_VENV)/bin/python -m pip install --quiet -e ".[measure]"
	$(ENGINE_VENV)/bin/python -c 'import transformers as t; assert "$(ENGINE_TRANSFORMERS)".endswith(t.__version__), t.__version__'
	touch $(ENGINE_STAMP)

# The family contract under the engine's transformers: each family measures, or says in one line which
# transformers it needs.
engine-contract: $(ENGINE_STAMP)
	$(ENGINE_VENV)/bin/python -m pytest -q -p no:cacheprovider tests/families/test_family_contract.py

# ruff, as pyproject.toml configures it: lint and the format check. Part of `make test`.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# The browser test drives Debian's chromium (`playwright install` cannot fetch a browser here): installed
# when missing, which needs root (CI runs as root); instant once it is there. ECWIDTH_SKIP_BROWSER=1 skips it.
browser:
	@if [ -n "$$ECWIDTH_SKIP_BROWSER" ] || command -v chromium >/dev/null 2>&1; then :; \
	else apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; fi

# Regenerate the committed survey tables in tables/, through notebook 01 as they were made.
tables: $(STAMP)
	mkdir -p build/notebooks/01_width_survey
	$(BIN)/papermill notebooks/01_width_survey.ipynb build/notebooks/01_width_survey/01_width_survey.ipynb \
		-p table_dir tables

# Regenerate docs/families.md, docs/catalog.md and docs/coverage.md from the records and the catalog (tests/test_docs.py
# fails when the committed pages differ from what this writes).
docs: $(STAMP)
	$(BIN)/python docs/generate.py

# The cost of measuring, minimal item against profile item; writes benchmarks/measure_cost.json.
bench: $(STAMP)
	$(BIN)/python benchmarks/measure_cost.py --survey
