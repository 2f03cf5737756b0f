# Each target sets up its own virtual environment, from nothing but Python 3.11+.
PYTHON ?= python3
VENV ?= .venv
# A CPU build of torch: on a machine without a GPU an unpinned torch pulls several GB of CUDA.
TORCH ?= torch==2.13.0
BIN := $(VENV)/bin
STAMP := $(VENV)/.ecwidth-installed
export HF_HUB_OFFLINE := 1

.PHONY: setup survey test tables bench browser

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit("ecwidth needs Python 3.11 or newer" if sys.version_info < (3, 11) else 0)'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet "$(TORCH)"
	$(BIN)/python -m pip install --quiet -e ".[notebook,test]"
	touch $(STAMP)

setup: $(STAMP)

# The main job: survey every catalog model on this machine (CPU by default).
survey: $(STAMP)
	$(BIN)/ecwidth survey -o build/survey

test: $(STAMP) browser
	$(BIN)/python -m pytest

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

# The cost of measuring, minimal item against profile item; writes benchmarks/measure_cost.json.
bench: $(STAMP)
	$(BIN)/python benchmarks/measure_cost.py --survey
