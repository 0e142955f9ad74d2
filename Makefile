# lease_parser — `make help` lists targets. Everything runs from the project's .venv.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
LEASE := $(VENV)/bin/lease-parser
CORPUS ?= ../shared/corpus/dev
# Where `make run` and `make serve` keep their data (Redis AOF, objects, SQLite store, logs,
# the reviewer token); a bare `lease-parser` in this checkout uses it too (its default
# LEASE_DATA_DIR). `make clean` removes it, so `make clean && make run` starts fresh.
DATA_DIR := $(CURDIR)/.lease_data
# pip runs only when pyproject.toml is newer than this stamp (or .venv is new).
INSTALLED := $(VENV)/.installed

.DEFAULT_GOAL := help
.PHONY: help install run serve test unit integration lint format docs worker eval calibrate bench soak recovery flower samples clean measure-parsing measure-web image image-test measure-dates bench-xlsx

help: ## list targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F ':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

$(PY):
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

install: $(INSTALLED) ## create .venv and install the project with its dev extra, once per change of pyproject.toml

$(INSTALLED): pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[dev]'
	@command -v redis-server >/dev/null || echo "warning: redis-server missing: apt-get install redis-server"
	@command -v tesseract >/dev/null || echo "warning: tesseract missing: apt-get install tesseract-ocr tesseract-ocr-eng"
	@touch $@

run: install ## the whole pipeline on the sample leases, data in .lease_data (own redis-server + workers)
	LEASE_DATA_DIR=$(DATA_DIR) $(LEASE) run samples/

serve: install ## the workspace and API on http://127.0.0.1:8000/ over make run's data (own redis-server + workers; Ctrl-C stops)
	LEASE_DATA_DIR=$(DATA_DIR) $(LEASE) serve --local $(SERVE_ARGS)

# Tests run in TEST_JOBS processes (pytest-xdist; a process that runs out of tests takes some
# of another's): the integration tests mostly wait on servers they started, so two run at
# once on two cores. TEST_JOBS=0 runs them in this process (a debugger, -x, -s).
TEST_JOBS ?= 2
XDIST = $(if $(filter 0,$(TEST_JOBS)),-p no:xdist,-n $(TEST_JOBS) --dist worksteal)

test: install ## unit + integration tests (starts its own redis-server, workers, moto; uses local PostgreSQL)
	$(PY) -m pytest $(XDIST) -m "not slow and not image" $(PYTEST_ARGS)

unit: install ## unit tests only (no servers)
	$(PY) -m pytest $(XDIST) tests/unit $(PYTEST_ARGS)

integration: install ## integration tests only
	$(PY) -m pytest $(XDIST) tests/integration -m "not slow and not image" $(PYTEST_ARGS)

image: install ## container image lease-parser:VERSION (buildah; Debian base built locally by mmdebstrap, cached)
	scripts/build_image.sh

image-test: install ## build the image, then run lease-parser inside it (--version, a PDF, a scan through OCR)
	$(PY) -m pytest -m image $(PYTEST_ARGS)

lint: install ## ruff (lint + format check) and mypy --strict
	$(VENV)/bin/ruff check lease_parser tests scripts
	$(VENV)/bin/ruff format --check lease_parser tests scripts
	$(VENV)/bin/mypy

# NO_MKDOCS_2_WARNING: mkdocs-material's banner about MkDocs 2.0 is not a problem of ours.
docs: install ## the documentation site from docs/ into site/ (mkdocs build --strict: a broken link or a page missing from the nav fails)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir site

format: install ## apply ruff fixes and formatting
	$(VENV)/bin/ruff check --fix lease_parser tests scripts
	$(VENV)/bin/ruff format lease_parser tests scripts

worker: install ## one worker consuming every queue, against LEASE_BROKER_URL
	$(LEASE) worker --queues lease_extraction,lease_ocr,lease_normalization --concurrency 2

flower: install ## Flower on 127.0.0.1:5555 against LEASE_BROKER_URL; needs LEASE_FLOWER_BASIC_AUTH=user:password
	$(LEASE) flower

# The labelled dev corpus is real leases: it sits beside the checkout (../shared), never
# in a clone. Targets that need its labels say so in one line instead of a usage error.
NEED_CORPUS = @test -f $(CORPUS)/labels.json || { echo "error: no labelled corpus at $(CORPUS) (the dev corpus is not part of a clone): give its directory, make $@ CORPUS=DIR" >&2; exit 2; }

# Recipes whose output a script may read (--json) are silent: stdout is the JSON alone.
eval: install ## score extraction on the labelled dev corpus, cross-validated by source (parse cache in .lease_data/eval-cache)
	$(NEED_CORPUS)
	@$(LEASE) eval $(CORPUS) --labels $(CORPUS)/labels.json --cache-dir $(DATA_DIR)/eval-cache --subset config/eval/newest-dev-documents.txt
	@echo; cat config/eval/first-contact.txt

calibrate: install ## refit the confidence model from the labelled dev corpus (and reviews in the store)
	$(NEED_CORPUS)
	@$(LEASE) calibrate $(CORPUS) --labels $(CORPUS)/labels.json --cache-dir .lease_data/eval-cache --no-reviews

measure-dates: install ## critical dates on the dev corpus: every expiration and option window the labels give, none wrong at the gate
	@$(PY) scripts/measure_dates.py $(CORPUS) $(DATES_ARGS)

bench-xlsx: install ## Excel abstract of a 1,000-lease portfolio: seconds against the 10 s target (XLSX_ARGS="--leases 5000")
	@$(PY) scripts/bench_xlsx.py $(XLSX_ARGS)

bench: install ## benchmark: in-process baselines vs the pipeline at -c 1 and 2 (BENCH_ARGS="--json", "--docs 20")
	@$(LEASE) bench $(BENCH_ARGS)

soak: install ## 500 leases through a local cluster while worker children are SIGKILLed; nothing lost or committed twice
	$(PY) scripts/soak.py --documents $(or $(DOCUMENTS),500)

recovery: install ## time from a worker SIGKILL (whole worker, main process, child) until the lease is final; TRIALS=10
	$(PY) scripts/recovery.py --trials $(or $(TRIALS),10)

samples: install ## regenerate the sample leases in samples/ (checked in)
	$(PY) scripts/make_samples.py samples

clean: ## remove caches, the built site and the embedded data directory of `make run`
	rm -rf .pytest_cache .mypy_cache .ruff_cache .hypothesis site $(DATA_DIR)

measure-parsing: install ## parsing speed (ms/page vs pdfplumber), OCR s/page, peak memory on hostile files
	$(PY) scripts/measure_parsing.py --corpus $(CORPUS)

measure-web: install ## page render ms/page (PDF, scan), API latency p50/p95 (submit, status), item page and decision round trip p50/p95 (DOCX, PDF, scan) against a real server
	$(PY) scripts/measure_web.py
