# judgeapp: `make run` serves the demo, `make serve` the production shape (gunicorn, Redis, SQLite or DATABASE_URL),
# `make test` runs every test. All set everything up first, the venv from the lock file (requirements.lock).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOCK := requirements.lock
UV := uv==0.13.8

.PHONY: run serve test setup lock system-deps test-sqlite test-postgres bench clean

run: setup
	$(BIN)/flask --app wsgi init-db
	$(BIN)/flask --app wsgi demo --sample-cases
	$(BIN)/flask --app wsgi run --host 127.0.0.1 --port 5000

# The production shape on this machine (README, Production): gunicorn with gunicorn.conf.py on 127.0.0.1:8000,
# the database migrated first, login limits in Redis (REDIS_URL or RATELIMIT_STORAGE_URI, else a throw-away local one).
serve: setup
	JUDGEAPP_PYTHON=$(BIN)/python scripts/serve.sh

test: setup test-sqlite test-postgres

# Both passes run beside a throw-away redis-server (scripts/with-redis.sh sets TEST_REDIS_URL): the login limits
# are checked shared across 4 gunicorn workers (tests/load/test_shared_limits.py).
test-sqlite:
	scripts/with-redis.sh $(BIN)/pytest

test-postgres:
	JUDGEAPP_FUZZ_EXAMPLES=$${JUDGEAPP_FUZZ_EXAMPLES:-150} scripts/with-redis.sh scripts/with-postgres.sh $(BIN)/pytest -m db -p no:cacheprovider

setup: system-deps $(STAMP)

system-deps:
	@scripts/system-deps.sh

# Exactly the versions (and file hashes) in the lock file, then judgeapp itself without resolving anything again;
# pip check fails when pyproject.toml asks for a version the lock does not have (run `make lock`).
$(STAMP): pyproject.toml $(LOCK)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet --require-hashes -r $(LOCK)
	$(BIN)/pip install --quiet --no-deps -e .
	$(BIN)/pip check
	touch $(STAMP)

# Regenerate the lock from pyproject.toml (dependencies and the test extra) after changing a pin there: every package
# pinned with the hashes of all its files on PyPI, for every platform and Python >= 3.11 (uv's universal resolution).
lock:
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet '$(UV)'
	$(BIN)/uv pip compile --quiet --universal --python-version 3.11 --generate-hashes --extra test \
		--output-file $(LOCK) pyproject.toml

bench: setup
	$(BIN)/python bench/all.py

clean:
	rm -rf $(VENV) .pytest_cache tests/artifacts
