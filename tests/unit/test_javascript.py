"""The phone script's pure modules under Node's built-in test runner (tests/js/*.test.mjs): the outbox's rules, and the
penalty engine against the Python engine's answers on the shared cases and on a sweep of every infraction, level and
history shape, written here for tests/js/engine.test.mjs to read."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from judgeapp.infractions import load_catalog
from judgeapp.infractions.export import policy_as_json, policy_file
from judgeapp.infractions.search import finder_entries
from tests.conftest import CATALOG
from tests.shared.engine_cases import CASES, RULES_CATALOG, policy_json_of, python_answer

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")


def engine_fixture() -> dict:
    """The shared cases and the sweep, each with the Python engine's answer."""
    catalog = load_catalog(CATALOG)
    cases = [
        {
            "name": c["name"],
            "policy": policy_json_of(catalog, c),
            "level": c["level"],
            "infraction": c["infraction"],
            "priors": c["priors"],
            "today": c.get("today"),
            "round": c.get("round"),
            "lang": c.get("lang"),
            "minutes_late": c.get("minutes_late"),
            "game": c.get("game"),
            "related_to": c.get("related_to"),
            "expect": c["expect"],
            "python": python_answer(catalog, c),
        }
        for c in CASES
    ]
    sweep = []
    rules = load_catalog(RULES_CATALOG)  # every form of the repeat-rule language, beside the shipped policies
    for policy in [*catalog.policies.values(), *rules.policies.values()]:
        for level in policy.levels:
            for inf in policy.infractions:
                other = next((i for i in policy.infractions if i.subsection != inf.subsection), inf)
                # a policy that names no rank (WARS TCG) still meets records holding a rank id of another time
                lowest, highest = (policy.ranks[0].id, policy.ranks[-1].id) if policy.ranks else ("warning", "warning")
                for priors in (
                    [],
                    [{"infraction": inf.code, "rank": lowest, "ref": 1, "round": 1}],
                    [{"infraction": inf.code, "rank": lowest, "ref": 1, "round": 1, "status": "voided"}],
                    [
                        {"infraction": other.code, "rank": lowest, "ref": 2, "round": 1},
                        {"infraction": inf.code, "rank": highest, "ref": 3, "round": 2},
                    ],
                    [
                        {
                            "infraction": inf.code,
                            "rank": policy.ranks[min(1, len(policy.ranks) - 1)].id if policy.ranks else lowest,
                            "ref": 4,
                        },
                        {"infraction": other.code, "rank": lowest, "ref": 5, "round": 2},
                        {"infraction": inf.code, "rank": lowest, "ref": 6, "round": 2, "status": "overturned"},
                        {"infraction": inf.code, "rank": lowest, "ref": 7, "round": 1},
                    ],
                    [  # per game: the same round's game 1 counts for game 1 only (FaB PPG 3.3)
                        {"infraction": inf.code, "rank": lowest, "ref": 8, "round": 2, "game": 1},
                        {"infraction": inf.code, "rank": lowest, "ref": 9, "round": 2, "game": 2},
                        {"infraction": inf.code, "rank": lowest, "ref": 10, "round": 2},
                    ],
                ):
                    for lang in [None, *sorted(policy.languages)]:  # and in each language the policy is named in
                        case = {
                            "policy": policy.id,
                            "level": level.number,
                            "infraction": inf.code,
                            "priors": priors,
                            "round": 2,
                            "game": 1,
                            "lang": lang,
                            **({"catalog": "rules"} if policy.id in rules.policies else {}),
                        }
                        sweep.append({**case, "python": python_answer(catalog, case)})
    policies = [*catalog.policies.values(), *rules.policies.values()]
    return {
        "cases": cases,
        "sweep": sweep,
        "policies": {p.id: policy_as_json(p) for p in policies},
        "finder_entries": {p.id: finder_entries(p) for p in catalog.policies.values()},  # tests/js/search.test.mjs
        # the file the phone keeps per policy version, which search.js `entriesOf` reads the same entries from
        "policy_files": {p.id: policy_file(p) for p in catalog.policies.values()},
    }


@pytest.mark.skipif(NODE is None, reason="node is missing: scripts/system-deps.sh installs Debian's nodejs")
def test_the_phone_scripts_pure_modules_pass_their_node_tests_and_agree_with_the_python_engine(tmp_path):
    fixture = engine_fixture()
    assert len(fixture["cases"]) == len(CASES) >= 20 and len(fixture["sweep"]) > 500
    cases = tmp_path / "engine_cases.json"
    cases.write_text(json.dumps(fixture), encoding="utf-8")
    run = subprocess.run(
        [NODE, "--test", "--test-reporter=tap", "tests/js/"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "JUDGEAPP_ENGINE_CASES": str(cases)},
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    assert "# fail 0" in output and "# skipped 0" in output, output  # the engine tests ran, with the Python answers
