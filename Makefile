# judgeapp: `make run` serves the demo, `make test` runs every test. Both set everything up first.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test setup system-deps lint test-sqlite test-postgres bench clean

run: setup
	$(BIN)/flask --app wsgi init-db
	$(BIN)/flask --app wsgi demo --sample-cases
	$(BIN)/flask --app wsgi run --host 127.0.0.1 --port 5000

test: setup lint test-sqlite test-postgres

# The code's own checks, in seconds: ruff's lint rules and its formatting, then mypy (strict for the pure domain and
# the access rules; see [tool.ruff] and [tool.mypy] in pyproject.toml).
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The load tests of both passes run beside a throw-away redis-server (scripts/with-redis.sh sets TEST_REDIS_URL): the
# login limits are checked shared across 4 gunicorn workers (tests/load/test_shared_limits.py).
# The SQLite pass measures branch coverage of judgeapp/ over the unit and request tests, prints it per package and
# fails when the pure domain (judgeapp/infractions) or the access rules (permissions.py) are under COVERAGE_FLOOR %.
# Coverage costs ~1.5x the CPU time of the Python it measures, so the security, browser and load tests (fuzzing,
# Chromium, gunicorn workers) run after it, unmeasured.
COVERAGE_JSON := tests/artifacts/coverage.json
COVERAGE_FLOOR ?= 95
test-sqlite:
	$(BIN)/pytest tests/unit tests/integration --cov --cov-report=json:$(COVERAGE_JSON) --cov-report=
	$(BIN)/python scripts/coverage_by_package.py $(COVERAGE_JSON) \
		--floor judgeapp/infractions=$(COVERAGE_FLOOR) --floor judgeapp/permissions.py=$(COVERAGE_FLOOR)
	scripts/with-redis.sh $(BIN)/pytest tests --ignore=tests/unit --ignore=tests/integration

test-postgres:
	JUDGEAPP_FUZZ_EXAMPLES=$${JUDGEAPP_FUZZ_EXAMPLES:-150} scripts/with-redis.sh scripts/with-postgres.sh $(BIN)/pytest -m db -p no:cacheprovider

setup: system-deps $(STAMP)

system-deps:
	@scripts/system-deps.sh

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

bench: setup
	$(BIN)/python bench/all.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache tests/artifacts
