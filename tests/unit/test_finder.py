"""The finder: infractions ranked from the words judges say (judgeapp/infractions/search.py `rank`), the same order
as the phone's judgeapp/static/js/search.js on the shared cases (tests/shared/finder_cases.json), and the judges'
words as policy data the loader checks."""

import json
import unicodedata
from pathlib import Path

import pytest

from judgeapp.infractions import CatalogError, load_catalog, parse_catalog
from judgeapp.infractions.search import finder_entries, one_edit, pieces, rank, rank_entries, stem, terms
from tests.conftest import CATALOG

SHARED = json.loads((Path(__file__).parents[1] / "shared" / "finder_cases.json").read_text(encoding="utf-8"))
VALID = (Path(__file__).parents[1] / "fixtures" / "catalogs" / "valid.yaml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOG)


@pytest.fixture(scope="module")
def bushiroad(catalog):
    return catalog.policy("bushiroad-afr")


def codes(policy, query, n=3, usage=None):
    return [h.code for h in rank(policy, query, usage)[:n]]


def test_the_shared_cases_are_at_least_200_over_both_languages_and_several_policies():
    cases = SHARED["cases"]
    assert len(cases) >= 200
    assert {c["lang"] for c in cases} == {"en", "ja"} and len({c["policy"] for c in cases}) >= 5


@pytest.fixture(scope="module")
def entries(catalog):
    return {pid: finder_entries(p) for pid, p in catalog.policies.items()}


@pytest.mark.parametrize("case", SHARED["pieces"], ids=[c["run"] for c in SHARED["pieces"]])
def test_the_server_cuts_each_shared_japanese_run_into_the_pieces_the_phone_gives(case):
    assert pieces(case["run"]) == case["pieces"]


@pytest.mark.parametrize("case", SHARED["cases"], ids=[f"{c['policy']}:{c['query']}" for c in SHARED["cases"]])
def test_the_server_ranks_each_shared_case_in_the_order_the_phone_gives(entries, case):
    hits = rank_entries(entries[case["policy"]], case["query"], case.get("usage"))
    assert [h.code for h in hits[:3]] == case["top"]
    if "first" in case:
        assert {"kind": hits[0].kind, "whole": hits[0].whole, "score": hits[0].score} == case["first"]


# ---- the failing examples (issue 33): each was "no result" or the wrong infraction before the finder


@pytest.mark.parametrize(
    ("query", "right"),
    [
        ("drew extra card", {"3.5.4"}),
        ("drew", {"3.5.4"}),
        ("looked at extra", {"3.5.3.1", "3.5.3.2"}),
        ("peek", {"3.5.3.1", "3.5.3.2"}),
        ("missed trigger", {"3.4"}),
        ("forgot", {"3.4"}),
        ("stalling", {"3.20.1", "3.20.2", "3.20.3"}),
        ("coaching", {"4.5"}),
        ("swearing", {"3.8.1", "3.8.2"}),
        ("stacking", {"3.13"}),
        ("mulligan", {"3.3.1", "3.3.2", "3.3.3", "3.5.3.1", "3.5.4"}),
        ("hand shuffle", {"3.21"}),
    ],
)
def test_a_judges_own_words_find_the_bushiroad_infraction_in_the_top_three(bushiroad, query, right):
    assert right & set(codes(bushiroad, query)), codes(bushiroad, query)


def test_shuffle_finds_shuffling_and_improper_shuffle_first(bushiroad):
    assert codes(bushiroad, "shuffle")[0] == "3.12"
    assert "3.21" in codes(bushiroad, "shuffle")  # Excessive Hand *Shuffling*: another form of the word


def test_eating_does_not_find_cheating_by_a_mid_word_substring(bushiroad):
    found = codes(bushiroad, "eating", n=100)
    assert found[0] == "3.16" and "4.1" not in found


def test_a_partial_prefix_lists_but_is_not_a_whole_word_match(bushiroad):
    hits = rank(bushiroad, "ph")
    assert "3.17" in [h.code for h in hits[:3]]
    assert not any(h.whole for h in hits)  # the picker selects only a whole-word (or exact-code) match
    assert rank(bushiroad, "phone")[0].code == "3.17" and rank(bushiroad, "phone")[0].whole


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("スロープレイ", "3.20.1"),
        ("マーク", "3.11.1"),
        ("ドロー", "3.5.4"),
        ("暴言", "3.8.1"),
        ("スリーブ", "3.11.1"),
        ("引きすぎ", "3.5.4"),
    ],
)
def test_the_japanese_words_players_use_find_their_infraction(bushiroad, query, code):
    family = code.rsplit(".", 1)[0] if code.count(".") > 1 else code
    top = codes(bushiroad, query)
    assert top and (top[0] == code or top[0].startswith(family + ".")), top


def test_shuffle_in_japanese_ranks_the_improper_shuffle_above_the_hand_shuffling(bushiroad):
    for query in ("シャッフル", "ｼｬｯﾌﾙ", "しゃっふる"):
        found = codes(bushiroad, query, n=100)
        assert found.index("3.12") < found.index("3.21"), query
    assert codes(bushiroad, "手札シャッフル")[0] == "3.21"


def test_kanji_okurigana_and_kana_forms_find_the_same_infraction(bushiroad):
    assert {codes(bushiroad, q)[0] for q in ("引きすぎ", "引き過ぎ", "ひきすぎ", "ヒキスギ")} == {"3.5.4"}
    assert {codes(bushiroad, q)[0] for q in ("スマホ", "ｽﾏﾎ", "すまほ")} == {"3.17"}


def test_an_exact_code_comes_first_then_the_start_of_a_code(bushiroad):
    hits = rank(bushiroad, "3.5.4")
    assert (hits[0].code, hits[0].kind, hits[0].whole) == ("3.5.4", "code", True)
    assert [h.code for h in rank(bushiroad, "fr4")][:1] == ["FR4.4"] and rank(bushiroad, "fr4")[0].kind == "code-prefix"
    assert codes(bushiroad, "３．１２")[0] == "3.12"  # full-width digits fold


def test_a_name_ranks_above_a_phrase_above_a_note(bushiroad):
    hit = rank(bushiroad, "tardiness")[0]
    assert hit.code in ("3.9.1", "3.9.2") and hit.kind == "name"
    assert rank(bushiroad, "overdraw")[0].kind == "phrase"


def test_a_tie_goes_to_what_the_event_uses_most(bushiroad):
    plain = codes(bushiroad, "slowplay")
    assert plain[0] == "3.20.1"
    assert codes(bushiroad, "slowplay", usage={"3.20.2": 4, "3.20.1": 1})[0] == "3.20.2"


def test_one_typo_is_forgiven_in_words_of_five_letters_or_more_only(bushiroad):
    assert codes(bushiroad, "shufle")[0] == "3.12"
    assert codes(bushiroad, "slow plya")[0].startswith("3.20")
    assert not rank(bushiroad, "fonx")  # four letters: no typo allowed, and no such word


def test_an_empty_query_or_only_little_words_find_nothing(bushiroad):
    assert rank(bushiroad, "") == rank(bushiroad, "   ") == rank(bushiroad, "the of") == []


def test_word_forms_meet_at_one_stem_and_one_edit_is_one_typo():
    assert {stem(w) for w in ("shuffle", "shuffled", "shuffling", "shuffles")} == {"shuffl"}
    assert {stem(w) for w in ("draw", "drew", "drawn", "drawing", "draws")} == {"draw"}
    assert stem("stopped") == "stop" and stem("stalling") == "stall" and stem("marked") == "mark"
    assert stem("penalties") == "penalty" and stem("slowly") == "slow" and stem("x1") == "x1"
    assert one_edit("shufle", "shuffle") and one_edit("mulligna", "mulligan") and one_edit("stallling", "stalling")
    assert one_edit("trigger", "triger") and one_edit("same", "same")
    assert not one_edit("eating", "cheating") and not one_edit("abcd", "abxy")


def test_text_splits_into_words_and_runs_of_japanese_script():
    assert terms("don't drew 2 引きすぎ！ すまほ") == [
        ("w", "dont"),
        ("w", "drew"),
        ("w", "2"),
        ("j", "引きすぎ"),
        ("j", "すまほ"),
    ]


# ---- Japanese word analysis: inflections meet at the stem the data's words share, particles are dropped


@pytest.mark.parametrize(
    ("forms", "expected"),
    [
        (("取った", "取る", "取り", "取って"), ["取"]),
        (("払ってない", "払わない", "払って"), ["払"]),
        (("書いた", "書く"), ["書"]),
        (("罵った", "罵る"), ["罵"]),
        (("引きすぎ", "引き過ぎ", "引きすぎた", "引き過ぎた"), ["引", "すぎ"]),
        (("山札から多めに取った", "山札から多く取る"), ["山札", "多", "取"]),
        (("デッキをシャッフルしてない", "デッキがシャッフルしてある", "ﾃﾞｯｷのｼｬｯﾌﾙ"), ["でっき", "しゃっふる"]),
        (("スマホをいじってた", "スマホいじってる"), ["すまほ", "いじ"]),
        (("ドローしすぎた",), ["どろー", "すぎ"]),
        (("見過ごした",), ["見過"]),  # 過 + ご is another word (overlook), not ～過ぎ
        (("カットしてもらってない", "カットしてもらった"), ["かっと"]),  # て + も is a verb going on, not the particle
    ],
)
def test_japanese_verb_forms_and_particles_reduce_to_the_pieces_the_data_shares(forms, expected):
    for form in forms:
        assert pieces(unicodedata.normalize("NFKC", form).lower()) == expected, form


@pytest.mark.parametrize(
    ("query", "right"),
    [
        ("相手を怒鳴りつけた", {"3.8.1", "3.8.2"}),
        ("山札をめくりすぎた", {"3.5.3.1", "3.5.3.2"}),
        ("手札を何度もシャッフルしてた", {"3.21"}),
        ("デッキを切ってない", {"3.12"}),
        ("勝敗を書き間違えた", {"3.19.1"}),
        ("ストックを払わずにアタックした", {"3.3.1", "3.3.2", "3.3.3"}),
    ],
)
def test_an_inflected_japanese_sentence_finds_its_infraction_first(bushiroad, query, right):
    assert codes(bushiroad, query)[0] in right, codes(bushiroad, query)


def test_a_verb_written_in_kana_meets_its_other_forms_but_a_different_word_does_not():
    entries = [{"code": "1", "fields": [[3, "山札をめくった"]]}, {"code": "2", "fields": [[3, "すとっぷ"]]}]
    for query in ("めくる", "めくり", "めくった", "めくって"):
        assert [(h.code, h.whole) for h in rank_entries(entries, query)] == [("1", True)], query
    assert rank_entries(entries, "すとっく") == []  # ストック is not a form of ストップ


# ---- the words as policy data


def test_the_shipped_policies_say_where_each_block_of_words_comes_from(bushiroad, catalog):
    for policy, langs in ((bushiroad, {"en", "ja"}), (catalog.policy("mtg-ipg"), {"en"})):
        for inf in policy.infractions:
            assert {b.lang for b in inf.phrases} == langs, inf.code
            assert all(b.source and b.words for b in inf.phrases)
    slips = {w for i in catalog.policy("mtg-ipg").infractions for b in i.phrases for w in b.words}
    assert {"GRV", "MT", "HCE", "LEC", "DEC", "D/DLP", "CPV", "FtMGS", "USC"} <= slips
    game = [b for i in bushiroad.infractions for b in i.phrases if "Weiß Schwarz" in b.source]
    assert game and any("climax" in w for b in game for w in b.words)


def test_a_policy_names_no_infraction_by_its_own_name_in_its_phrases(catalog):
    for policy in catalog.policies.values():
        for inf in policy.infractions:
            own = {inf.name.casefold(), *(n.casefold() for n in inf.names.search_words())}
            assert not own & {w.casefold() for b in inf.phrases for w in b.words}, inf.code


def with_phrases(block: str) -> str:
    """The README's example policy (as an organizer uploads it) with a `phrases` block on its first infraction."""
    return VALID.replace("        name: Drew an extra card\n", "        name: Drew an extra card\n" + block, 1)


def test_an_uploaded_policy_may_carry_phrases_and_the_finder_uses_them():
    block = '        phrases:\n          en: {source: "our floor staff", words: [overdraw, drew two]}\n'
    policy = next(iter(parse_catalog(with_phrases(block)).policies.values()))
    inf = policy.infraction("1.1")
    assert [(b.lang, b.source, b.words) for b in inf.phrases] == [("en", "our floor staff", ("overdraw", "drew two"))]
    assert [h.code for h in rank(policy, "overdraw")] == ["1.1"]


@pytest.mark.parametrize(
    ("block", "expected"),
    [
        (
            '        phrases:\n          en: {source: "x", words: [overdraw, Overdraw]}\n',
            "<catalog>:29: policies.house-rules.infractions[0].phrases.en[0].words[1]: phrase 'Overdraw' appears twice",
        ),
        (
            '        phrases:\n          en:\n            - {source: "x", words: [overdraw]}\n'
            '            - {source: "y", words: [ｏｖｅｒｄｒａｗ]}\n',
            "<catalog>:31: policies.house-rules.infractions[0].phrases.en[1].words[0]: "
            "phrase 'ｏｖｅｒｄｒａｗ' appears twice",
        ),
        (
            '        phrases:\n          ja: {source: "x", words: [引きすぎ]}\n',
            "<catalog>:29: policies.house-rules.infractions[0].phrases.ja: "
            "the policy is not named in 'ja': no phrases in it",
        ),
        (
            '        phrases:\n          en: {source: "x", words: []}\n',
            "<catalog>:29: policies.house-rules.infractions[0].phrases.en[0].words: List should have at least 1 item",
        ),
        (
            "        phrases:\n          en: {words: [overdraw]}\n",
            "<catalog>:29: policies.house-rules.infractions[0].phrases.en[0].source: Field required",
        ),
        (
            "        phrases:\n          en: [overdraw]\n",
            "<catalog>:29: policies.house-rules.infractions[0].phrases.en[0]: Input should be a valid dictionary",
        ),
    ],
)
def test_a_bad_phrases_block_is_refused_with_line_and_field(block, expected):
    with pytest.raises(CatalogError) as err:
        parse_catalog(with_phrases(block))
    assert any(p.startswith(expected) for p in err.value.problems), "\n".join(err.value.problems)


@pytest.mark.parametrize(
    ("policy_id", "query", "code"),
    [
        ("bushiroad-afr", "the list is wrong but the deck is fine", "3.1.2"),
        ("bushiroad-afr", "searched card not shown but we know which card", "3.5.1.1"),
        ("bushiroad-afr", "not revealed and nobody knows which card", "3.5.1.2"),
        ("bushiroad-afr", "two cards swapped on top of the deck", "3.6.1.1"),
        ("bushiroad-afr", "the deck fell and the order is lost", "3.6.1.2"),
        ("bushiroad-afr", "2 minutes late", "3.9.1"),
        ("bushiroad-afr", "15 minutes late", "3.9.2"),
        ("bushiroad-afr", "wrong opponent, result already entered", "3.10.2"),
        ("bushiroad-afr", "circled the wrong name on the slip", "3.19.1"),
        ("bushiroad-afr", "score sheet got wet", "3.19.2"),
        ("bushiroad-afr", "lost the score sheet", "3.19.3"),
        ("bushiroad-afr", "die knocked and nobody remembers the number", "3.23.3"),
        ("bushiroad-afr", "missed the error from his own card", "3.7.2"),
        ("bushiroad-afr", "スコアシートをなくした", "3.19.3"),
        ("bushiroad-afr", "ダイスが落ちた", "3.23.1"),
        ("bushiroad-afr", "10分遅れ", "3.9.2"),
    ],
)
def test_the_deciding_detail_ranks_the_right_sibling_of_a_family_first(catalog, policy_id, query, code):
    """Which card, how late, before or after the result, remembered or not: the detail a judge says outweighs the
    words the whole family shares."""
    assert codes(catalog.policy(policy_id), query, 1) == [code]


@pytest.mark.parametrize(
    ("policy_id", "query", "code"),
    [
        ("bushiroad-afr", "lied about the game state", "4.1"),
        ("bushiroad-afr", "kept quiet about the opponent's mistake", "4.1"),
        ("bushiroad-afr", "kicked the chair", "3.8.2"),
        ("bushiroad-afr", "bet money on the match", "3.8.3"),
        ("bushiroad-afr", "spectator told him what to play", "4.5"),
        ("bushiroad-afr", "相手のミスに気づいてたのに黙ってた", "4.1"),
        ("bushiroad-afr", "椅子を蹴った", "3.8.2"),
        ("mtg-ipg", "kicked the chair", "4.5"),
        ("mtg-ipg", "offered money to concede", "4.4"),
        ("mtg-ipg", "took a pack from the prize wall", "4.6"),
        ("mtg-ipg", "noticed the opponent's mistake and said nothing", "4.8"),
        ("mtg-ipg", "fetched and forgot to shuffle", "3.9"),
        ("mtg-ipg", "friend on the rail", "3.2"),
        ("mtg-ipg", "CHT", "4.8"),
    ],
)
def test_deliberate_acts_and_conduct_rank_their_own_infraction_above_the_accident_they_resemble(
    catalog, policy_id, query, code
):
    """Lying, keeping quiet about an error, aggression, bets, theft, spectators' help; Magic game words and slip short
    forms too."""
    assert codes(catalog.policy(policy_id), query, 1) == [code]


# ---- the phone's file per policy version (export.py `policy_file`; search.js `entriesOf` reads it the same way) ----


def test_each_policys_file_gives_back_the_very_finder_entries_the_server_searches(catalog, entries):
    from judgeapp.infractions.export import policy_file
    from judgeapp.infractions.search import entries_of_file

    for pid, policy in catalog.policies.items():
        data = json.loads(json.dumps(policy_file(policy), ensure_ascii=False))  # as the phone parses it
        assert entries_of_file(data) == entries[pid], pid


def test_a_policys_file_writes_each_note_the_reference_shows_once_the_finder_naming_it_by_index(bushiroad):
    from judgeapp.infractions.export import policy_file

    data = policy_file(bushiroad)
    text = json.dumps(data, ensure_ascii=False)
    tardiness = next(i for i, inf in enumerate(bushiroad.infractions) if inf.code == "3.9.1")
    ref = data["reference"]["infractions"][tardiness]
    assert set(ref["notes"]) == {"en", "ja"} and set(ref["remedy"]) <= {"en", "ja"}
    for note in [*ref["notes"].values(), *ref["remedy"].values()]:
        assert text.count(json.dumps(note, ensure_ascii=False)) == 1, note
    assert all(isinstance(t, int) for t in data["finder"][tardiness][2])  # its notes: each named, none written again
    assert data["policy"]["infractions"][tardiness]["code"] == "3.9.1" and "policies" not in data
