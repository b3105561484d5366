"""A policy's explanatory texts in other languages (`texts: {ja: {notes: …}}`): a judge reading the rules in Japanese
reads every note, remedy, description and summary in Japanese, or the loader says which one is missing (file, line,
field); an entry without a text in the language shows its English."""

from pathlib import Path

import pytest

from judgeapp.infractions import CatalogError, load_catalog, parse_catalog
from judgeapp.infractions.catalog import text_in
from tests.conftest import CATALOG

TEXT = (Path(__file__).resolve().parent.parent / "fixtures" / "catalogs" / "names_ja.yaml").read_text(encoding="utf-8")
WITH_TEXTS = (
    TEXT.replace(
        "    source: Our shop's own penalty sheet\n",
        "    source: Our shop's own penalty sheet\n    texts: {ja: {source: 当店の罰則表}}\n",
    )
    .replace("description: Friday nights.}", "description: Friday nights., texts: {ja: {description: 金曜の夜。}}}")
    .replace(
        "description: Store championships.}",
        "description: Store championships., texts: {ja: {description: 店舗大会。}}}",
    )
    .replace(
        "         description: Same section twice in a day upgrades.}",
        "         description: Same section twice in a day upgrades.,\n"
        "         texts: {ja: {description: 同じ日に同じ条で2回目は格上げ。}}}",
    )
    .replace(
        "        notes: One card too many reached the hand.\n",
        "        notes: One card too many reached the hand.\n        texts: {ja: {notes: 手札が1枚多くなった。}}\n",
    )
    .replace(
        "        notes: Rude to an opponent.\n",
        "        notes: Rude to an opponent.\n        texts: {ja: {notes: 相手に無礼な態度をとった。}}\n",
    )
)


def problems_of(text: str) -> list[str]:
    with pytest.raises(CatalogError) as info:
        parse_catalog(text, "texts.yaml")
    return info.value.problems


def test_a_policy_with_every_text_in_japanese_shows_each_in_japanese_and_english_still_in_english():
    policy = parse_catalog(WITH_TEXTS).policy("house-rules")
    rude = policy.infraction("2.1")
    assert text_in(rude, "notes", "ja") == "相手に無礼な態度をとった。"
    assert text_in(rude, "notes", "ja-JP") == "相手に無礼な態度をとった。"
    assert text_in(rude, "notes", "en") == "Rude to an opponent."
    assert text_in(policy.levels[1], "description", "ja") == "店舗大会。"
    assert text_in(policy.repeat_rules[0], "description", "ja") == "同じ日に同じ条で2回目は格上げ。"
    assert text_in(policy, "source", "ja") == "当店の罰則表"
    assert text_in(rude, "remedy", "ja") == ""  # no remedy in English, none in Japanese


def test_a_text_missing_in_a_language_the_policy_uses_is_refused_with_its_line_and_field():
    text = WITH_TEXTS.replace("        texts: {ja: {notes: 相手に無礼な態度をとった。}}\n", "")
    [problem] = problems_of(text)
    assert problem.startswith("texts.yaml:")
    assert "policies.house-rules.infractions[1].texts.ja: infraction 2.1 has no 'ja' notes" in problem


def test_a_translation_of_a_text_the_english_does_not_have_is_refused():
    text = WITH_TEXTS.replace(
        "{ja: {notes: 手札が1枚多くなった。}}", "{ja: {notes: 手札が1枚多くなった。, remedy: 戻す。}}"
    )
    [problem] = problems_of(text)
    assert "infractions[0].texts.ja.remedy: infraction 1.1 has no English remedy to translate" in problem


def test_an_unknown_text_field_is_refused_at_its_field():
    text = WITH_TEXTS.replace(
        "{ja: {notes: 手札が1枚多くなった。}}", "{ja: {notes: 手札が1枚多くなった。, tips: 注意。}}"
    )
    problems = problems_of(text)
    assert any("infractions[0].texts.ja.tips" in p for p in problems), problems


def test_the_shipped_bushiroad_policy_has_every_text_in_japanese():
    policy = load_catalog(CATALOG).policy("bushiroad-afr")
    for inf in policy.infractions:
        for name in ("notes", "remedy", "section_note"):
            if getattr(inf, name):
                assert inf.texts.get("ja", name), (inf.code, name)
    assert text_in(policy.infraction("3.9.2"), "notes", "ja") == "ラウンド開始から5分たっても席にいない。"
    assert all(text_in(lv, "description", "ja") != lv.description for lv in policy.levels)
    assert text_in(policy.appeals, "summary", "ja").startswith("ほかのジャッジの裁定に納得できないファイター")
