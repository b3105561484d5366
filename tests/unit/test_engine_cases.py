"""The shared engine cases (tests/shared/engine_cases.json) hold for the Python engine; the browser suite runs the
same file through the phone's engine.js (tests/unit/test_javascript.py, under Node)."""

import pytest

from judgeapp.infractions import load_catalog
from tests.conftest import CATALOG
from tests.shared.engine_cases import CASES, RULES_CATALOG, expected_part, python_answer


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOG)


def test_the_shared_file_has_cases_for_every_policy_every_window_and_every_form_of_repeat_rule():
    catalog, rules = load_catalog(CATALOG), load_catalog(RULES_CATALOG)
    assert {c["policy"] for c in CASES} == set(catalog.policies) | set(rules.policies)
    assert any(c.get("window") == "day" for c in CASES) and len(CASES) >= 30
    upgraded_by = (
        {c["expect"].get("rule") for c in CASES}
        | {python_answer(catalog, c)["rule"] for c in CASES if python_answer(catalog, c)["upgraded"]}
        | {o["rule"] for c in CASES for o in python_answer(catalog, c)["offered"]}
    )  # an offered rule: offered by one
    every_rule = {r.id for p in [*catalog.policies.values(), *rules.policies.values()] for r in p.repeat_rules}
    assert every_rule <= upgraded_by, f"no case upgrades by (or offers) {every_rule - upgraded_by}"
    policies = [*catalog.policies.values(), *rules.policies.values()]
    offered = {r.id for p in policies for r in p.repeat_rules if r.offered}
    assert offered and not offered & {c["expect"].get("rule") for c in CASES}, "an offered rule never upgrades"
    assert any(python_answer(catalog, c)["confirm"] for c in CASES), "a case needs a confirmation"


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_python_engine_gives_the_shared_expected_suggestion(catalog, case):
    assert expected_part(case, python_answer(catalog, case)) == case["expect"]
