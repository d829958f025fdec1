# Weir — the two commands a new user needs are `make run` and `make test`.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
UV := $(VENV)/bin/uv
STAMP := .state/install.stamp

.PHONY: install run test lint typecheck test-python test-frontend test-corpus frontend openapi lock clean-state bench

## install: everything Weir needs, into the repo (idempotent)
install: $(STAMP)

$(STAMP): requirements.lock pyproject.toml frontend/package-lock.json scripts/install.sh
	bash scripts/install.sh
	@mkdir -p .state && touch $(STAMP)

## run: serve Weir with the demo pipeline (Ctrl-C stops everything)
run: install
	$(PY) -m backend.devstack run

## test: lint, type checks, unit, integration and browser tests
test: install lint typecheck test-frontend test-python

lint:
	$(VENV)/bin/ruff check backend worker tests bench
	$(VENV)/bin/ruff format --check backend worker tests bench

typecheck:
	$(VENV)/bin/mypy

test-frontend:
	cd frontend && npm run --silent lint && npm run --silent typecheck && npm run --silent test

# Two test processes: much of a test's time is spent waiting on Spark and on processes
# starting. Each takes whole files and runs its own stack; the tests on the in-process
# Spark session all run in one of them (tests/conftest.py: WholeFiles).
TEST_WORKERS ?= 2
test-python:
	$(PY) -m backend.devstack test -- -n $(TEST_WORKERS) $(PYTEST_ARGS)

## test-corpus: the runtime oracle corpus (tests/integration/runtime/corpus), apart: it
## takes longer than CI allows
test-corpus: install
	$(PY) -m backend.devstack test -- -m corpus tests/integration/runtime/test_corpus.py

## openapi: regenerate the OpenAPI schema and the front end's API types from it
openapi: install
	$(PY) -m backend.devstack manage spectacular --file frontend/openapi.json --format openapi-json
	cd frontend && npx openapi-typescript openapi.json -o src/api/schema.d.ts

## lock: re-pin the Python dependencies
lock:
	$(UV) pip compile pyproject.toml --extra dev --python-version 3.11 -o requirements.lock

## bench: run every benchmark and write the figures into docs/benchmarks.md
bench: install
	PYTHONPATH=. $(PY) -m bench
