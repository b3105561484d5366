# judgeapp: `make run` serves the demo, `make serve` the production shape (gunicorn, Redis, SQLite or DATABASE_URL),
# `make test` runs every test. All set everything up first, the venv from the lock file (requirements.lock).
SHELL := /bin/bash
# Python writes each module's bytecode (.pyc, git-ignored) the first time a process imports it, and every later process
# reads it. This machine's image sets PYTHONDONTWRITEBYTECODE, with which nothing is ever written: each of the suite's
# Python processes (pytest's workers, gunicorn's masters, the CLI's and the renders' subprocesses) compiled judgeapp,
# WeasyPrint, SQLAlchemy and pytest's rewritten tests again, ~3.5 CPU s for `import judgeapp, weasyprint` alone
# (docs/contributing/suite-history.md, 28 Nov).
unexport PYTHONDONTWRITEBYTECODE
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOCK := requirements.lock
UV_LOCK := requirements-uv.lock
UV := uv==0.13.8

.PHONY: run serve test setup lock system-deps lint docs bundles test-sqlite test-postgres test-loaded bench clean catalogs \
	i18n help-shots test-units test-requests test-browser test-load test-postgres-requests test-postgres-load test-computing \
	test-lanes test-waiting

# The job worker (imports, renders, mail: judgeapp/jobs.py) runs beside the development server and stops with it.
run: setup
	$(BIN)/flask --app wsgi init-db
	$(BIN)/flask --app wsgi demo --sample-cases
	$(BIN)/flask --app wsgi jobs worker & worker=$$!; \
	trap 'kill -TERM $$worker 2>/dev/null; wait $$worker' EXIT INT TERM; \
	$(BIN)/flask --app wsgi run --host 127.0.0.1 --port 5000

# The production shape on this machine (docs/operators/production.md): gunicorn with gunicorn.conf.py on 127.0.0.1:8000,
# the database migrated first, login limits in Redis (REDIS_URL or RATELIMIT_STORAGE_URI, else a throw-away local one),
# and the job worker beside gunicorn (scripts/serve.sh), stopped with it.
serve: setup
	JUDGEAPP_PYTHON=$(BIN)/python scripts/serve.sh

# Two lanes, side by side (-j 2), each one's tiers in turn, so that both lanes end at about the same time: the tiers
# that wait (test-waiting: the code's checks and the docs, then Chromium and its live servers, then gunicorn's workers
# and their simulated judges on SQLite and on PostgreSQL) beside the tiers that compute (test-computing: the SQLite
# unit, service and ten request files with coverage, the other request and the security tests, the PostgreSQL request
# pass). The lanes share no port, database, Redis or file. --output-sync=target prints each tier's output whole when
# it ends; a failing tier fails its lane (the rest of that lane is not run) and `make test` (the other lane runs to
# its end first). What each tier costs, and how the suite came to this shape, measured:
# docs/contributing/suite-history.md.
test: setup
	$(MAKE) --no-print-directory test-lanes

# The lanes' shape checked in ~30 s, with stand-ins for pytest (scripts/lanes-check; Redis and PostgreSQL started as
# for real): `make test-lanes BIN=scripts/lanes-check` exits 0, and with FAIL_TIER=tests/browser (or tests/load, or
# "db and not load") exits 2, the failing lane stopped at that tier, the other run to its end (27 Nov).
test-lanes:
	$(MAKE) --no-print-directory -j 2 --output-sync=target test-waiting test-computing

# -j 1: in turn, whatever -j the caller gave. The code's checks and the documentation's build (~30 s on a fresh clone,
# mypy with no cache) come first here, beside the computing lane, rather than before both lanes.
test-waiting:
	$(MAKE) --no-print-directory -j 1 lint docs test-browser test-load test-postgres-load

# -j 1: in turn, whatever -j the caller gave (they share the cores, and with-redis.sh's throw-away servers).
test-computing:
	$(MAKE) --no-print-directory -j 1 test-units test-requests test-postgres-requests

# The documentation site (docs/, mkdocs.yml) into site/ (git-ignored), in seconds. --strict: a broken link, a missing
# page or an anchor that is not there fails the build (mkdocs.yml, validation). Read it with `.venv/bin/mkdocs serve`.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

# The code's own checks, in seconds: ruff's lint rules and its formatting, then mypy (strict for the pure domain and
# the access rules; see [tool.ruff] and [tool.mypy] in pyproject.toml).
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The load tests of both passes run beside a throw-away redis-server (scripts/with-redis.sh sets TEST_REDIS_URL): the
# login limits are checked shared across 4 gunicorn workers (tests/load/test_shared_limits.py).
# The SQLite pass measures the branch coverage of the pure domain (judgeapp/infractions) and the access rules
# (permissions.py), only those files ([tool.coverage.run] include), over the unit and service tests and
# MEASURED_REQUEST_TESTS, prints it and fails when either is under COVERAGE_FLOOR %; the other request tests run after
# it, unmeasured (the floors are all it enforces; docs/contributing/tests.md says how to measure the whole app).
# The form fuzzer sends 250 payloads per form here (100 on PostgreSQL; set JUDGEAPP_FUZZ_EXAMPLES for more), one test
# per form, so the workers share its forms.
# Coverage costs ~1.5x the CPU time of the Python it measures, so the security, browser and load tests (fuzzing,
# Chromium, gunicorn workers) run after it, unmeasured.
# pytest-xdist spreads the unit, service, request and security tests over TEST_WORKERS processes (one per core by
# default); each worker has its own database files, mail sink and (on PostgreSQL) database (tests/conftest.py).
# The browser tests run in one process unless BROWSER_WORKERS says more (each worker then has its own live servers
# and Chromium; `--dist loadscope` keeps a module's shared demo server on one worker); 2 workers failed under load.
# The load tests run one at a time after the browser tier: each starts gunicorn (four workers forked from the app
# preloaded in its master) and 40 simulated judges; they assert what the server keeps (nothing lost or stored twice,
# limits across workers, a consistent backup), not how fast it answers (bench/ measures that).
COVERAGE_JSON := tests/artifacts/coverage.json
COVERAGE_FLOOR ?= 95
# The request tests measured with the unit and service tests: the view side of permissions.py (its decorators, `can`,
# `may`, `event_and_roles`) is reached only through requests. The other request tests run after, unmeasured.
MEASURED_REQUEST_TESTS := $(addprefix tests/integration/,test_appeals.py test_removed_staff.py \
	test_assistant_head_judge.py test_calls.py test_startup_and_errors.py test_account_findings.py test_jobs.py \
	test_events.py test_round_days.py test_investigations.py)
TEST_WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
# worksteal: a worker with nothing left takes tests still queued for the other, so a tier does not end on one worker
# working through its queue while the other idles (the PostgreSQL pass ended so for ~45 s, one core idle, 27 Nov).
XDIST := -n $(TEST_WORKERS) --dist worksteal
BROWSER_WORKERS ?= 0
test-sqlite: test-units test-requests test-browser test-load

# Where the time of these tiers goes, per test, and what was cut: docs/contributing/suite-history.md.
test-units:
	$(BIN)/pytest tests/unit tests/services $(MEASURED_REQUEST_TESTS) $(XDIST) --cov --cov-report=json:$(COVERAGE_JSON) --cov-report=
	$(BIN)/python scripts/coverage_by_package.py $(COVERAGE_JSON) \
		--floor judgeapp/infractions=$(COVERAGE_FLOOR) --floor judgeapp/permissions.py=$(COVERAGE_FLOOR)

# The other request tests and the security tests, unmeasured, in one pytest run: one set of xdist workers started
# (each imports judgeapp and WeasyPrint and collects its tests) and one tail where a worker waits for the other, not two.
test-requests:
	JUDGEAPP_FUZZ_EXAMPLES=$${JUDGEAPP_FUZZ_EXAMPLES:-250} \
		$(BIN)/pytest tests/integration $(addprefix --ignore=,$(MEASURED_REQUEST_TESTS)) tests/security $(XDIST)

test-browser:
	$(BIN)/pytest tests/browser -n $(BROWSER_WORKERS) --dist loadscope

test-load:
	scripts/with-redis.sh $(BIN)/pytest tests/load

# The PostgreSQL pass runs only the tests marked `db`: those whose outcome rests on what PostgreSQL does differently
# from SQLite (docs/contributing/tests.md: locks and two clients at once, unique indexes, types and a column's bounds, migrations,
# ordering, the imports' bulk writes, the services that lock rows, the load tests), not every request test again.
test-postgres: test-postgres-requests test-postgres-load

test-postgres-requests:
	JUDGEAPP_FUZZ_EXAMPLES=$${JUDGEAPP_FUZZ_EXAMPLES:-100} scripts/with-redis.sh scripts/with-postgres.sh \
		$(BIN)/pytest -m "db and not load" -p no:cacheprovider $(XDIST)

test-postgres-load:
	scripts/with-redis.sh scripts/with-postgres.sh $(BIN)/pytest -m "db and load" -p no:cacheprovider

# The suite while stress-ng keeps one core busy (as another job on a shared CI machine would): it must pass like this.
# LOADED_TARGET picks what runs (`make test-loaded LOADED_TARGET=test-sqlite`); stress-ng stops with it.
LOADED_TARGET ?= test
test-loaded: setup
	stress-ng --cpu 1 --timeout 0 --quiet & stress=$$!; \
	trap 'kill -TERM $$stress 2>/dev/null; wait $$stress 2>/dev/null' EXIT INT TERM; \
	$(MAKE) --no-print-directory $(LOADED_TARGET)

setup: system-deps $(STAMP) catalogs bundles

# The translations Flask-Babel reads (.mo) and the phone scripts' JSON catalogs, from the .po files (scripts/i18n.py).
catalogs: $(STAMP)
	$(BIN)/python scripts/i18n.py compile

# The phone's two script bundles (judgeapp/static/js/bundle/, git-ignored), from the modules in static/js/; the app
# also makes them at its start when a source changed (judgeapp/offline/bundles.py).
bundles: $(STAMP)
	$(BIN)/python -c 'from judgeapp.offline.bundles import write_bundles; write_bundles()'

# After changing user-facing strings: extract them all and bring every language's .po up to date (then translate).
i18n: $(STAMP)
	$(BIN)/python scripts/i18n.py update

# The judge's guide's screenshots (judgeapp/static/help/<lang>/), taken again by the browser tests from the real pages
# at 390x844 in English and Japanese (tests/browser/test_help.py); commit them with the guide's text that shows them.
help-shots: setup
	JUDGEAPP_HELP_SHOTS=$(CURDIR)/judgeapp/static/help $(BIN)/pytest tests/browser/test_help.py -k screenshots -q -p no:cacheprovider

system-deps:
	@scripts/system-deps.sh

# Exactly the versions (and file hashes) in the lock file, then judgeapp itself without resolving anything again;
# pip check fails when pyproject.toml asks for a version the lock does not have (run `make lock`). uv installs them
# (itself pinned with its hashes in UV_LOCK, installed by the venv's own pip): the lock's 115 packages in ~20 s from
# PyPI with no cache, where pip took 3 min 30 s from local wheels at load 11 (27 Nov); no .pyc compiled ahead (pip did
# it for every module): Python writes them for the modules a run imports, once (PYTHONDONTWRITEBYTECODE, above).
$(STAMP): pyproject.toml $(LOCK) $(UV_LOCK)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --require-hashes -r $(UV_LOCK)
	$(BIN)/uv pip install --quiet --python $(BIN)/python --require-hashes -r $(LOCK)
	$(BIN)/uv pip install --quiet --python $(BIN)/python --no-deps -e .
	$(BIN)/pip check
	touch $(STAMP)

# Regenerate the lock from pyproject.toml (dependencies and the test extra) after changing a pin there: every package
# pinned with the hashes of all its files on PyPI, for every platform and Python >= 3.11 (uv's universal resolution);
# and uv's own pin (UV) with its hashes in UV_LOCK.
lock:
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet '$(UV)'
	$(BIN)/uv pip compile --quiet --universal --python-version 3.11 --generate-hashes --extra test \
		--output-file $(LOCK) pyproject.toml
	echo '$(UV)' | $(BIN)/uv pip compile --quiet --universal --python-version 3.11 --generate-hashes \
		--output-file $(UV_LOCK) -

bench: setup
	$(BIN)/python bench/all.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache tests/artifacts site
