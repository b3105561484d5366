"""Infraction search finds a Bushiroad infraction by its Japanese name, its kana reading (hiragana or katakana, full- or
half-width) or its code: the shared cases (tests/shared/search_cases.json) hold for the server's search, as
tests/js/search.test.mjs checks they hold for the phone's."""

import json
from pathlib import Path

import pytest

from judgeapp.infractions import load_catalog
from judgeapp.infractions.search import fold, search
from tests.conftest import CATALOG

CASES = json.loads((Path(__file__).parents[1] / "shared" / "search_cases.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def bushiroad():
    return load_catalog(CATALOG).policy("bushiroad-afr")


@pytest.mark.parametrize(("text", "folded"), CASES["fold"])
def test_search_compares_katakana_half_width_and_full_width_text_as_hiragana_and_ascii(text, folded):
    assert fold(text) == folded


@pytest.mark.parametrize("case", CASES["search"], ids=[c["query"] for c in CASES["search"]])
def test_a_query_finds_the_infractions_by_japanese_name_reading_or_code(bushiroad, case):
    assert [i.code for i in search(bushiroad, case["query"])] == case["codes"]


def test_a_reading_in_katakana_finds_what_its_hiragana_finds_and_an_unknown_word_finds_nothing(bushiroad):
    assert search(bushiroad, "イカサマ") == search(bushiroad, "いかさま") == [bushiroad.infraction("4.1")]
    assert search(bushiroad, "ちこくしない") == []
