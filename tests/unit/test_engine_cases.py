"""The shared engine cases (tests/shared/engine_cases.json) hold for the Python engine; the browser suite runs the
same file through the phone's engine.js (tests/unit/test_javascript.py, under Node)."""

import pytest

from judgeapp.infractions import load_catalog
from tests.conftest import CATALOG
from tests.shared.engine_cases import CASES, expected_part, python_answer


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOG)


def test_the_shared_file_has_cases_for_every_policy_and_both_repeat_scopes():
    assert {c["policy"] for c in CASES} == {"bushiroad-afr", "transformers-tcg", "wot-ccg"}
    assert any(c.get("repeat_scope") == "day" for c in CASES) and len(CASES) >= 20


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_python_engine_gives_the_shared_expected_suggestion(catalog, case):
    assert expected_part(case, python_answer(catalog, case)) == case["expect"]
