"""A policy's names in other languages: the loader refuses a policy named in Japanese for some entries but not all
(naming the file, the line and the field), readings that are not kana, and a language without its source; the names
API gives each entry's name in a language, else the English one."""

from pathlib import Path

import pytest

from judgeapp.infractions import CatalogError, load_catalog, parse_catalog, suggest
from judgeapp.infractions.catalog import base_language, name_in
from tests.conftest import CATALOG

FIX = Path(__file__).resolve().parent.parent / "fixtures" / "catalogs" / "names_ja.yaml"
TEXT = FIX.read_text(encoding="utf-8")


def problems_of(text: str) -> list[str]:
    with pytest.raises(CatalogError) as info:
        parse_catalog(text, "names.yaml")
    return info.value.problems


def without(old: str, new: str = "") -> str:
    assert TEXT.count(old) == 1, old
    return TEXT.replace(old, new)


def test_a_policy_named_in_japanese_throughout_loads_with_its_names_and_readings():
    policy = parse_catalog(TEXT).policy("house-rules")
    assert policy.languages == {"ja"}
    assert policy.name_in("ja") == "店舗ハウスルール" and policy.name_in("en") == "Shop House Rules"
    assert policy.infraction("2.1").names.reading("ja") == "ブレイナコウイ"
    assert dict(policy.name_sources) == {"ja": "the shop's own Japanese penalty sheet"}


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            ", names: {ja: 警告}",
            "",
            "names.yaml:15: policies.house-rules.ranks[1].names: rank 'warning' has no 'ja' name",
        ),
        (
            ", names: {ja: 競技}",
            "",
            "names.yaml:20: policies.house-rules.levels[1].names: level 2 has no 'ja' name",
        ),
        (
            ", names: {ja: 行為}",
            "",
            "names.yaml:25: policies.house-rules.subsections[1].names: sub-section 2 has no 'ja' name",
        ),
        (
            "        names: {ja: 無礼な行為}\n        readings: {ja: ブレイナコウイ}\n",
            "",
            "names.yaml:34: policies.house-rules.infractions[1].names: infraction 2.1 has no 'ja' name",
        ),
        (
            "    names: {ja: 店舗ハウスルール}\n",
            "",
            "names.yaml:5: policies.house-rules.names: the policy has no 'ja' name",
        ),
        (
            ", sections: {ja: 第1条}",
            "",
            "names.yaml:11: policies.house-rules.repeat_rules[0].sections: repeat rule 'same-section' has no 'ja' "
            "section",
        ),
        (
            "    name_sources: {ja: the shop's own Japanese penalty sheet}\n",
            "",
            "names.yaml:5: policies.house-rules.name_sources: say where the 'ja' names come from",
        ),
    ],
    ids=["rank", "level", "sub-section", "infraction", "policy", "repeat rule section", "source"],
)
def test_a_policy_with_japanese_names_for_some_entries_but_not_all_is_refused_at_the_line_and_field(old, new, expected):
    found = problems_of(without(old, new))
    assert len(found) == 1 and found[0].startswith(expected), found


def test_a_reading_must_be_kana_and_belong_to_a_name_in_its_language():
    [bad_kana] = problems_of(without("readings: {ja: ブレイナコウイ}", "readings: {ja: 無礼な行為}"))
    assert bad_kana.startswith(
        "names.yaml:37: policies.house-rules.infractions[1].readings.ja: Value error, a reading is"
    )
    [orphan] = problems_of(without("readings: {ja: ブレイナコウイ}", "readings: {ja: ぶれい, ko: ぶれい}"))
    assert orphan.startswith("names.yaml:37: policies.house-rules.infractions[1].readings.ko: a reading without")


def test_english_is_the_entries_own_name_not_a_names_entry():
    found = problems_of(without("names: {ja: 注意}", "names: {ja: 注意, en: Caution}"))
    assert any("English is the entries' own `name`" in p for p in found), found


def test_a_policy_with_no_names_in_other_languages_loads_as_before():
    policy = load_catalog(CATALOG).policy("mtg-ipg")
    assert policy.languages == frozenset()
    assert policy.rank("warning").name_in("ja") == "Warning"  # no Japanese name: the English one


def test_the_names_api_gives_the_name_in_a_language_or_english_for_every_kind_of_entry():
    policy = parse_catalog(TEXT).policy("house-rules")
    entries = [policy, policy.rank("warning"), policy.level(2), policy.subsection("2"), policy.infraction("2.1")]
    assert [name_in(e, "ja") for e in entries] == ["店舗ハウスルール", "警告", "競技", "行為", "無礼な行為"]
    assert [name_in(e, "ja_JP") for e in entries] == [name_in(e, "ja") for e in entries]
    assert [name_in(e, "fr") for e in entries] == [
        "Shop House Rules",
        "Warning",
        "Competitive",
        "Conduct",
        "Rudeness",
    ]
    assert [name_in(e, None) for e in entries] == [name_in(e, "fr") for e in entries]
    assert (base_language("ja-JP"), base_language(None), base_language("")) == ("ja", "en", "en")


def test_a_default_range_reads_in_japanese_with_a_wave_dash_and_in_english_as_before():
    policy = parse_catalog(TEXT).policy("house-rules")
    default = suggest(policy, 2, "1.1").default
    assert default.label() == "Warning ~ Loss of Game"
    assert default.label("ja") == "警告～ゲームの敗北"


def test_every_bushiroad_entry_has_a_japanese_name_and_every_infraction_a_kana_reading():
    policy = load_catalog(CATALOG).policy("bushiroad-afr")
    assert policy.languages == {"ja"}
    assert policy.rank("caution").name_in("ja") == "注意" and policy.level(3).name_in("ja") == "大会レベル3"
    assert (
        policy.infraction("3.9.1").name_in("ja") == "遅刻" and policy.subsection("3.8").name_in("ja") == "非紳士的行為"
    )
    assert all(i.names.reading("ja") for i in policy.infractions)
    assert "応用フロアルール" in dict(policy.name_sources)["ja"]
