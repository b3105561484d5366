"""judgeapp/names.py: the search key judges' typing is compared by, and the gojūon order of a Japanese list.

The search-key and match cases are shared with the phone's names.js (tests/shared/name_cases.json, run under Node by
tests/unit/test_javascript.py): a name found on the server is found on the phone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judgeapp.names import equals, gojuon_key, matches, search_key, sort_key

SHARED = json.loads((Path(__file__).resolve().parents[1] / "shared" / "name_cases.json").read_text("utf-8"))


@pytest.mark.parametrize("case", SHARED["keys"], ids=lambda c: c["text"] or "(empty)")
def test_every_shared_text_has_the_search_key_the_phone_gives_it_too(case):
    assert search_key(case["text"]) == case["key"]


@pytest.mark.parametrize("case", SHARED["matches"], ids=lambda c: c["query"])
def test_a_query_matches_a_player_written_any_width_or_kana_as_the_shared_cases_say(case):
    assert matches(case["query"], *case["fields"]) is case["match"]


def test_half_width_katakana_hiragana_and_katakana_are_one_search():
    assert search_key("ﾔﾏﾀﾞ") == search_key("やまだ") == search_key("ヤマダ")
    assert matches("ﾔﾏﾀﾞ", "山田 太郎", "やまだ たろう")


def test_a_full_width_id_equals_the_id_as_stored():
    assert equals("ＤＥＭＯ－００１", "DEMO-001")
    assert not equals("ＤＥＭＯ－００", "DEMO-001")
    assert not equals("", "")


def test_the_first_level_folds_voiced_marks_and_small_kana():
    assert gojuon_key("ガッコウ") == gojuon_key("かつこう") == "かつこう"
    assert gojuon_key("ぱーぷる") == "はーふる"


def sort_names(people):
    return [name for name, reading in sorted(people, key=lambda p: sort_key(*p))]


def test_readings_sort_in_gojuon_order_not_in_the_order_of_the_names_characters():
    people = [("渡辺 一郎", "わたなべ いちろう"), ("青木 花子", "あおき はなこ"), ("佐藤 健", "さとう けん")]
    assert sort_names(people) == ["青木 花子", "佐藤 健", "渡辺 一郎"]


def test_ka_and_ga_sort_together_and_ka_comes_first_when_the_rest_is_equal():
    people = [
        ("後藤 誠", "ごとう まこと"),
        ("加藤 優", "かとう ゆう"),
        ("近藤 誠", "こんどう まこと"),
        ("河野 誠", "かわの まこと"),
    ]
    # かとう, かわの; こ and ご share the first level: ごとう (ことう) before こんどう (こんとう): と before ん
    assert sort_names(people) == ["加藤 優", "河野 誠", "後藤 誠", "近藤 誠"]
    assert sort_names([("がき", "がき"), ("かき", "かき")]) == ["かき", "がき"]


def test_katakana_half_width_and_hiragana_readings_sort_as_one_kana():
    people = [("B", "ｲｼｲ"), ("A", "アサダ"), ("C", "うえだ")]
    assert sort_names(people) == ["A", "B", "C"]


def test_the_family_name_sorts_before_the_given_name():
    people = [("山田太一", "やまだい ち"), ("山田太郎", "やまだ たろう")]
    assert sort_names(people) == ["山田太郎", "山田太一"]


def test_names_without_a_reading_come_after_those_with_one_by_name():
    people = [("Zoe Martin", None), ("山田 太郎", "やまだ たろう"), ("Anna Berg", ""), ("青木 花子", "あおき はなこ")]
    assert sort_names(people) == ["青木 花子", "山田 太郎", "Anna Berg", "Zoe Martin"]
