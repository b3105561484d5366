"""The finder names a Bushiroad infraction first by its Japanese name, its kana reading (hiragana or katakana, full- or
half-width) or its code: the shared cases (tests/shared/search_cases.json) hold for the server's `rank`, as
tests/js/search.test.mjs checks they hold for the phone's."""

import json
from pathlib import Path

import pytest

from judgeapp.infractions import load_catalog
from judgeapp.infractions.search import fold, rank
from tests.conftest import CATALOG

CASES = json.loads((Path(__file__).parents[1] / "shared" / "search_cases.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def bushiroad():
    return load_catalog(CATALOG).policy("bushiroad-afr")


@pytest.mark.parametrize(("text", "folded"), CASES["fold"])
def test_search_compares_katakana_half_width_and_full_width_text_as_hiragana_and_ascii(text, folded):
    assert fold(text) == folded


@pytest.mark.parametrize("case", CASES["first"], ids=[c["query"] for c in CASES["first"]])
def test_the_finder_names_first_the_infractions_a_japanese_name_reading_or_code_means(bushiroad, case):
    first = [hit.code for hit in rank(bushiroad, case["query"])][: len(case["codes"])]
    assert sorted(first) == sorted(case["codes"])


def test_a_reading_in_katakana_ranks_as_its_hiragana_does(bushiroad):
    assert rank(bushiroad, "イカサマ") == rank(bushiroad, "いかさま")
    assert rank(bushiroad, "イカサマ")[0].code == "4.1"
