# judgeapp: `make run` serves the demo, `make serve` the production shape (gunicorn, Redis, SQLite or DATABASE_URL),
# `make test` runs every test. All set everything up first, the venv from the lock file (requirements.lock).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOCK := requirements.lock
UV_LOCK := requirements-uv.lock
UV := uv==0.13.8

.PHONY: run serve test setup lock system-deps lint docs bundles test-sqlite test-postgres test-loaded bench clean catalogs \
	i18n help-shots test-units test-security test-browser test-load test-postgres-requests test-postgres-load test-computing \
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
# that wait (test-waiting: Chromium and its live servers, then gunicorn's workers and their simulated judges on SQLite
# and on PostgreSQL) beside the tiers that compute (test-computing: the SQLite unit, service and request tests with
# coverage, the security tests, the PostgreSQL request pass). The lanes share no port, database, Redis or file.
# --output-sync=target prints each tier's output whole when it ends; a failing tier fails its lane (the rest of that
# lane is not run) and `make test` (the other lane runs to its end first). History: until 27 Nov the tiers ran one
# after the other; then browser beside computing with the load tiers alone at the end (~6.5 min in series: they
# "measured the server", but they assert properties: nothing lost or stored twice, limits across workers, a
# consistent backup; speed is measured in bench/); since i36-lanes the load tiers run last in the waiting lane, and
# their killing runs kill only workers that are answering (12 kills, not a minute of posting; tests/load/conftest.py).
# (Beside the PostgreSQL pass, test_offline's sign-out test once failed under load, explained since: Playwright's
# context.route let a POST through from a page the service worker controls; the test now asserts that floor2's
# session adds nothing to what the server held at sign-out.)
test: setup lint docs
	$(MAKE) --no-print-directory test-lanes

# The lanes' shape checked in ~30 s, with stand-ins for pytest (scripts/lanes-check; Redis and PostgreSQL started as
# for real): `make test-lanes BIN=scripts/lanes-check` exits 0, and with FAIL_TIER=tests/browser (or tests/load, or
# "db and not load") exits 2, the failing lane stopped at that tier, the other run to its end (27 Nov).
test-lanes:
	$(MAKE) --no-print-directory -j 2 --output-sync=target test-waiting test-computing

# -j 1: in turn, whatever -j the caller gave.
test-waiting:
	$(MAKE) --no-print-directory -j 1 test-browser test-load test-postgres-load

# -j 1: in turn, whatever -j the caller gave (they share the cores, and with-redis.sh's throw-away servers).
test-computing:
	$(MAKE) --no-print-directory -j 1 test-units test-security test-postgres-requests

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
# The SQLite pass measures branch coverage of judgeapp/ over the unit and service tests and MEASURED_REQUEST_TESTS, prints
# it per package and fails when the pure domain (judgeapp/infractions) or the access rules (permissions.py) are under
# COVERAGE_FLOOR %; the other request tests run after it, unmeasured (i36-cpu, 27 Nov: the floors are all it enforces).
# The form fuzzer sends 250 payloads per form here (100 on PostgreSQL; set JUDGEAPP_FUZZ_EXAMPLES for more), one test
# per form, so the workers share its forms.
# Coverage costs ~1.5x the CPU time of the Python it measures, so the security, browser and load tests (fuzzing,
# Chromium, gunicorn workers) run after it, unmeasured.
# pytest-xdist spreads the unit, service, request and security tests over TEST_WORKERS processes (one per core by
# default); each worker has its own database files, mail sink and (on PostgreSQL) database (tests/conftest.py).
# The browser tests run in one process unless BROWSER_WORKERS says more (each worker then has its own live servers
# and Chromium; `--dist loadscope` keeps a module's shared demo server on one worker). The tier mostly waits (576 s of
# CPU, Chromium included, in 2,035 s of wall at 2 workers under load), so `make test` runs it beside test-computing
# (the unit, security and PostgreSQL request tiers, in turn), in another process: coverage does not measure it. 2 workers are not the default while they fail under load. History: at load 15, one
# failed that passes alone; at load 13-17, 14 of 99, 8 waiting for "Saved: incident #…" (an app race then fixed,
# tests/browser/test_save_during_a_send.py). 27 Nov, 2 workers, at load 12-17 from other sessions: alone, 2 of 105
# failed in 20 min 28 s (test_japanese_judge: the save answered 201, `.confirm` never shown; test_round_days: the event
# page never showed "Round 2 is on" though /events/1 was answered twice); beside the PostgreSQL pass, 6 of 105 in
# 22 min 24 s, 4 of them waiting 30 s for "Saved: incident #1" after the server had answered the POST 201
# (test_calls, test_guards x3), 1 for the event page's "Start next round", 1 test_offline_draft's wait_for_url:
# the cause found for the 4 (and test_japanese_judge's): page.js waits SAVE_WAIT_MS (3 s, static/js/outbox.js) for the
# server's answer, then by design stays on the form ("The network is slow: it is sent in the background"); these tests
# wait for the confirmation page, so they pass only when the POST is answered within 3 s (logs: tapped ~05:27:00,
# answered 201 at 05:27:05). The tests, not yet the app, are to change (wait for what the phone shows either way).
# Since then the live servers wait up to a minute (tests/browser/conftest.py SAVE_WAIT_MS). 27 Nov, alone at load ~8-10
# from other sessions: 1 of 109 failed, test_policy_language's wait_for_function on a bare expression (EvalError: a
# bare expression is polled by eval, which the pages' CSP refuses, so it passed only when true at the first look);
# every wait_for_function now waits on a function (tests/browser/test_waits.py checks it). The player's call page
# polls every second on the tests' servers (JUDGEAPP_CALL_STATUS_EVERY_MS, 10 s deployed), not 10 s per look.
# Then, i36-browser, with `stress-ng --cpu 1` and other sessions (1-min load 10.3 on average, 14.8 at most), the
# first 16 min beside test-computing: 110 of 110 passed in 29 min 32 s, 517 s of CPU (alone before, at load ~8: 19 min
# 31 s, 455 s of CPU, 1 failed). The wall goes to the test calls (1,481 s; setup 188 s, of which the first Chromium
# and the 130,000 players' server; ~100 live servers, each with its own demo, 0.2-0.3 s each), above all the four
# accessibility walks (axe-core in Chromium: 560 s under that load, 275 s at load ~8) and the import job (94 s).
# i36-lanes, 27 Nov (1-min load 18-27 from other sessions, so CPU seconds compare): a mode's walk of the 44 screens
# went to loading them (goto 48 s, networkidle 30 s, injecting axe-core 21 s, signing in 8 s) as much as to axe-core
# (95 s; its colour-contrast rules half of that), tap targets 2 s, the 200 % zoom checks 10 s. Each screen is now
# loaded and given axe-core once and checked in the four modes switched in place (emulate_media; the checks and
# findings the same): the module 1,048 s wall, 88.9 CPU s -> 742 s, 56.1 CPU s, run side by side (again, load ~17-22:
# 508 s, 48.6 CPU s). Under that load the service worker showed its offline page for a screen the server took over
# 6 s to answer (its NETWORK_WAIT_MS), and the walk checked "No network" instead: such a page is now asked for again
# (tests/browser/screens.py). The rest of the tier at that load: 106 of 109 passed in 2,210 s, 354 CPU s (the 3: test_guards
# x2 and test_head_judge, 30 s waits for "Saved: incident #1", "Start next round", "Appeals", as in the history
# above); its longest: the 130,000 players' setup 182 s, the import job 76 s, the report PDF 49 s, WebKit 43 s.
# Not done: a demo built once and copied (_serve's docstring says why not), shared servers per module, 2 workers.
# The load tests run one at a time, after the browser tier in the waiting lane: each one starts gunicorn's four workers
# and 40 simulated judges; they assert what the server keeps (nothing lost or doubled), not how fast it answers.
# i36-lanes, 27 Nov, load 20-27 from other sessions: main's test-load did not get through its 1,000-incident test in
# 11.5 min: a worker was killed every 4 s whatever it was doing, and at 4 % of a core a worker takes ~60 s to boot
# again, so the server was mostly booting. Now a kill takes only a worker that has answered and waits for the posting
# to move on; 40 x 10 incidents (400) and 20 shared keys: test-load 11 passed in 835 s wall, 86.8 CPU s (the 400 in
# 96 s, the 12 kills in 190 s; quiet, on CI before: 210 s alone). test_concurrent_judges.py, main's beside this one
# (load 9-17): 699 s wall, 293.6 CPU s (the 1,000: 493 s, 121 workers killed, p99 200 s) -> 463 s, 84.7 CPU s (-71 %).
# PostgreSQL load pass (load 9-16): 6 passed in 378 s wall, 137.5 CPU s (CI before: 187 s alone). Much of the rest
# is gunicorn's workers booting (a server of 4 per test, plus each killed one): a server shared per module is not done. Same-keys with 50 keys once answered 500s at
# load ~25 (the 32 writers' SQLite lock waits beyond its 15 s busy timeout?): not looked into further.
COVERAGE_JSON := tests/artifacts/coverage.json
COVERAGE_FLOOR ?= 95
# The request tests measured with the unit and service tests: the view side of permissions.py (its decorators, `can`,
# `may`, `event_and_roles`) is reached only through requests. The other request tests run after, unmeasured.
MEASURED_REQUEST_TESTS := $(addprefix tests/integration/,test_appeals.py test_removed_staff.py \
	test_assistant_head_judge.py test_calls.py test_startup_and_errors.py test_account_findings.py test_jobs.py \
	test_events.py test_round_days.py test_investigations.py)
TEST_WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
XDIST := -n $(TEST_WORKERS)
BROWSER_WORKERS ?= 0
test-sqlite: test-units test-security test-browser test-load

# Where the time of test-units, test-security and test-postgres-requests goes (i36-fast, 27 Nov, load 6-10 from other
# sessions on this 2-core machine, so CPU seconds are the figures to compare; `--durations`, cProfile on CPU time):
# - per test, on top of its own requests: its app (~10 ms of CPU: the catalog, the URL builders and the SQLite schema
#   are already made once per process), the `floor` event (~0.1 s), and until now every template it renders compiled
#   again by its app's own Jinja environment (the login page 40-60 ms the first time, 6 ms after). Templates are now
#   compiled once per process (Jinja's bytecode cache, tests/conftest.py): 33 request tests at -n 2, three interleaved
#   pairs at load 4-6, 67.3/69.0/67.1 -> 59.2/64.4/65.9 CPU s (-7 % on average). Each
#   app's SQL statements are compiled again too (SQLAlchemy caches them per engine: ~9 % of a request test's CPU), not
#   shared. A test that starts a job worker (tests.job_worker) pays a fresh interpreter with judgeapp and WeasyPrint.
# - the form fuzzer: one request per payload through the app (the form page rendered again with its errors, ~0.1 s);
#   already one app and one world per form, the 250 (100) payloads kept. On PostgreSQL its 49 forms were ~1/3 of the
#   pass's worker time, imports, jobs and renders (real workers, PDFs) most of the rest.
# - coverage: +42 % of CPU on a mix of unit, service and request tests (32.0 -> 45.4 s, interleaved runs); Python 3.11
#   has no sys.monitoring tracer. i36-cpu (27 Nov, load 15-25 from other sessions): on 110 request tests
#   (test_appeals, test_calls, test_incidents, -n 2) 93.2 CPU s unmeasured, 111.8 measured (+20 %: their job workers'
#   and renders' subprocesses are not measured). tests/unit + tests/services alone (2,879 tests, 427 CPU s with
#   coverage) keep judgeapp/infractions at 97.7 % but leave permissions.py at 73.6 % (its decorators, `can`, `may` and
#   `event_and_roles` are reached only through requests), so the measured run takes ten request files as well
#   (MEASURED_REQUEST_TESTS: 165 tests; with them permissions.py is at 95.2 %, infractions 97.9 %, the union of the
#   three runs' JSON reports that together ran exactly these tests; the whole target was not run in time) and the
#   other ~540 request tests run unmeasured. The margin over the floor is thin (96.4 % with every request test):
#   a new access rule reached only by requests needs its request file in MEASURED_REQUEST_TESTS, or a service test. Measuring only the floors' files
#   (`--cov=judgeapp.infractions --cov=judgeapp.permissions` over every tier) was tried: SQLAlchemy's compiled cache
#   keys failed under it ("'InternalTraversal' object is not callable"), so it is not used.
# - test-postgres-requests before: 513 tests, 1,778 s wall, 739 CPU s (load 8-10); 37 request tests that rest on
#   nothing the database decides now run once (docs/contributing/tests.md): 476 tests; those 37 took 77 s of wall
#   (41 CPU s) on PostgreSQL at -n 2 (load 6).
#   On PostgreSQL the service tests spend more in set-up than in their calls (193 tests at load 7: set-up 1.06 s,
#   call 0.40 s each): the `floor` event's users, event, staff, round and players, written in 8 transactions
#   (~0.5 s), the app (~0.1 s) and the digest and TRUNCATE (~0.13 s).
# - `floor` now (i36-cpu) is built through the services by the first test of a process, read back as rows, and
#   inserted into each later test's own empty database in one transaction (same ids, PostgreSQL's sequences set after
#   them, timestamps moved to now; tests/integration/test_floor_fixture.py), on SQLite and PostgreSQL alike.
#   tests/services (193 tests, -n 2, load ~20, CPU s of the pytest tree): 71.7 -> 51.6; set-up CPU per test
#   0.158 -> 0.071 s (summed over the workers: 30.6 -> 13.7 s), the calls unchanged (14.4 -> 13.7 s).
# - i36-cpu's before/after of test-units, by parts (27 Nov, 2 cores, other sessions' suites beside: compare CPU s):
#     before (the lead's last fresh run): 3,578 tests, 17 min 9 s wall beside the browser tier, ~1,620 CPU s (est.)
#     after, measured run: tests/unit + tests/services 2,879 tests, 427 CPU s, 1,804 s wall at load 20-25 (with the
#       old `floor`, ~20 s more than now); the ten measured request files 165 tests, 307 CPU s (load 15-19)
#     after, unmeasured run: 542 request tests (538 ran, 4 skipped on SQLite), 499 CPU s, 448 s wall, load 8-13;
#       in the workers' own CPU only 43.5 s of set-up (0.081 s a test) and 103 s of calls: the rest is job workers',
#       renders' and CLI subprocesses (a fresh interpreter with judgeapp and WeasyPrint each) and start-up.
#     sum of the parts ~1,210 CPU s (-25 %, not the halving aimed at); test-security and test-postgres-requests
#     not measured again (PostgreSQL's `floor` is now one transaction of inserts instead of eight of services).
#   Next, by that profile: the job worker per test (one per process, emptied between tests), then the login round
#   trip (a GET and a POST per signed-in client) and SQLAlchemy's compiled-SQL cache per engine (~40 % of
#   statements compiled again in each test's app) - not done.
# - i36-jobs (27 Nov): the tests' job worker (tests/conftest.py `Worker`) is forked from the test's process, where
#   judgeapp, WeasyPrint and the task modules are imported, not a fresh interpreter (~7 s of CPU each, ~40 tests here);
#   the same consumer (tests.job_worker.main) on its own app; `fresh=True` / JUDGEAPP_TEST_WORKER=fresh keep the old
#   way. Unmeasured run, -n 2, back to back: 568 passed + 4 skipped, 554 CPU s, 1,307 s wall (load 2-14) -> 570 + 4,
#   294 CPU s (-47 %), 910 s wall (load 15-8), again 286 CPU s, 395 s wall (load 7-9); 36 job tests side by side
#   (load ~10): fresh interpreters 140 -> forked 46 CPU s.
#   Renders already fork (jobs, sandbox). One compiled-SQL cache for all engines gives no hits: SQLAlchemy keys it by
#   the engine's own dialect object; not done.
test-units:
	$(BIN)/pytest tests/unit tests/services $(MEASURED_REQUEST_TESTS) $(XDIST) --cov --cov-report=json:$(COVERAGE_JSON) --cov-report=
	$(BIN)/python scripts/coverage_by_package.py $(COVERAGE_JSON) \
		--floor judgeapp/infractions=$(COVERAGE_FLOOR) --floor judgeapp/permissions.py=$(COVERAGE_FLOOR)
	$(BIN)/pytest tests/integration $(addprefix --ignore=,$(MEASURED_REQUEST_TESTS)) $(XDIST)

test-security:
	JUDGEAPP_FUZZ_EXAMPLES=$${JUDGEAPP_FUZZ_EXAMPLES:-250} scripts/with-redis.sh $(BIN)/pytest tests/security $(XDIST)

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
# it for every module): Python writes them for the modules a run imports, once.
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
