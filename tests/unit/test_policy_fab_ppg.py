"""Flesh and Blood Procedure and Penalty Guide (policy `fab-ppg`), checked against the guide's text.

The tables below are typed from the guide (rules.fabtcg.com/en/ppg, the copy last modified 10 June 2026), not read
back from the catalog: each infraction's section heading gives its penalty, the same at Competitive and
Professional REL; the per-REL differences (2.7, 3.9) are upgrades and downgrades with a condition, so they are
alternatives, not defaults. Repeat rules: §2 and §3 introductions (capped at Game Loss by 1.4), 3.3, 4.1.1, 4.9.
"""

import json
from datetime import date

import pytest

from judgeapp.infractions import Prior, load_catalog, suggest
from judgeapp.infractions.search import rank
from tests.conftest import CATALOG

C, W, IP, GL, DQ = "caution", "warning", "intellect_penalty", "game_loss", "disqualification"
COMPETITIVE, PROFESSIONAL = 1, 2
BOTH = (COMPETITIVE, PROFESSIONAL)

# code: (name in the guide, penalty under the section heading); the same at both RELs the guide covers
SOURCE = {
    "2.1": ("Game Rules Violation", W),
    "2.2": ("Failure to Maintain Game State", W),
    "2.3": ("Missed Trigger", C),
    "2.4": ("Looking at Extra Cards", W),
    "2.5": ("Hidden Card Error", W),
    "2.6": ("Shuffling Error", IP),
    "2.7": ("Presenting Cards Error", W),
    "3.1": ("Tardiness", IP),
    "3.2": ("Note Taking and Outside Assistance", W),  # the section's text; A.1 says Game Loss (see below)
    "3.3": ("Slow Play", C),
    "3.4": ("Decklist Error", IP),
    "3.5": ("Card-Pool Contents Error", IP),
    "3.6.1": ("Draft Procedure Violation — Minor", W),
    "3.6.2": ("Draft Procedure Violation — Major", GL),
    "3.7": ("Marked Cards", W),
    "3.8": ("Insufficient Shuffling", W),
    "3.9": ("Communicating Incorrect Game Information", W),
    "4.1.1": ("Unsporting Conduct — Minor", W),
    "4.1.2": ("Unsporting Conduct — Major", DQ),
    "4.2": ("Cheating", DQ),
    "4.3": ("Aggressive Behavior", DQ),
    "4.4": ("Improperly Determining a Winner", GL),
    "4.5": ("Bribery", DQ),
    "4.6": ("Betting", DQ),
    "4.7": ("Theft", DQ),
    "4.8": ("Stalling", DQ),
    "4.9": ("Improper Concession", GL),
    "4.10": ("Rules Sharking", W),
    "4.11": ("Fraud", DQ),
}

# Appendix A.1, the quick-reference table, as printed
A1 = {
    "2.1": W, "2.2": W, "2.3": C, "2.4": W, "2.5": W, "2.6": IP, "2.7": W,
    "3.1": IP, "3.2": GL, "3.3": C, "3.4": IP, "3.5": IP, "3.6.1": W, "3.6.2": GL, "3.7": W, "3.8": W, "3.9": W,
    "4.1.1": W, "4.1.2": DQ, "4.2": DQ, "4.3": DQ, "4.4": GL, "4.5": DQ, "4.6": DQ, "4.7": DQ, "4.8": DQ, "4.9": GL,
    "4.10": W, "4.11": DQ,
}  # fmt: skip

# code: [(condition words, levels, penalty)], the upgrades and downgrades each section names
ALTERNATIVES = {
    "2.1": [("rewound", BOTH, IP)],
    "2.3": [("helped the player", BOTH, W)],
    "2.4": [("five or more", BOTH, IP)],
    "2.5": [("cannot be sorted", BOTH, IP)],
    "2.7": [
        ("flip card", BOTH, C), ("transcend", BOTH, IP), ("double-sided", (PROFESSIONAL,), IP),
        ("two or more", BOTH, GL),
    ],
    "3.1": [("less than one minute", BOTH, W), ("more than ten minutes", BOTH, GL)],
    "3.2": [("strategic advantage", BOTH, GL), ("spectator", BOTH, GL)],
    "3.4": [
        ("minor", BOTH, W), ("hero is missing", BOTH, W), ("differs significantly", BOTH, GL),
        ("illegal cards", BOTH, GL),
    ],
    "3.5": [
        ("only missing", BOTH, C), ("could not have given", BOTH, W), ("reported them", BOTH, W),
        ("differs significantly", BOTH, GL),
    ],
    "3.7": [("head judge believes", BOTH, GL)],
    "3.9": [("marker", (COMPETITIVE,), C)],
    "4.5": [("ignorance", BOTH, GL)],
    "4.6": [("ignorance", BOTH, GL)],
    "4.7": [("returned", BOTH, W)],
    "4.9": [("ignorance", BOTH, W)],
    "4.10": [("speculation", BOTH, C), ("pattern", BOTH, GL)],
}  # fmt: skip


@pytest.fixture(scope="module")
def policy():
    return load_catalog(CATALOG).policy("fab-ppg")


def p(code, rank, ref=None, round=None, day=None, game=None):
    return Prior(code, rank, ref=ref, round=round, day=day, game=game)


DAY1, DAY2 = date(2026, 11, 21), date(2026, 11, 22)


# ---- what the guide is -------------------------------------------------------------------


def test_the_policy_names_the_guide_its_date_and_where_it_is_published(policy):
    assert policy.name == "Flesh and Blood Procedure and Penalty Guide"
    assert policy.version == "2026-06-10"
    assert "Legend Story Studios" in policy.source and "https://rules.fabtcg.com/en/ppg/" in policy.source


def test_ranks_are_the_guides_five_penalties_in_order_of_severity_1_4(policy):
    assert [r.id for r in policy.ranks] == [C, W, IP, GL, DQ]
    assert [r.name for r in policy.ranks][2] == "Intellect Penalty (IP2)"


def test_levels_are_the_two_rules_enforcement_levels_the_guide_covers_1_1(policy):
    assert [(lv.number, lv.id, lv.name) for lv in policy.levels] == [
        (1, "competitive", "Competitive"),
        (2, "professional", "Professional"),
    ]


def test_sub_sections_are_the_guides_three_kinds_of_infraction(policy):
    assert [(s.code, s.name) for s in policy.subsections] == [
        ("2", "Gameplay Infractions"),
        ("3", "Tournament Infractions"),
        ("4", "Conduct Infractions"),
    ]


def test_a_disqualification_is_the_head_judges_and_ip2_or_more_is_reported_to_them_1_2(policy):
    assert policy.head_judge_only == {DQ}
    assert policy.report_to_head_judge == {IP, GL, DQ}


# ---- defaults ----------------------------------------------------------------------------


def test_catalog_lists_exactly_the_numbered_infractions_of_sections_2_to_4(policy):
    assert {i.code for i in policy.infractions} == set(SOURCE)
    assert {i.code: i.name for i in policy.infractions} == {code: name for code, (name, _) in SOURCE.items()}


@pytest.mark.parametrize("level", BOTH, ids=["competitive", "professional"])
@pytest.mark.parametrize("code", list(SOURCE))
def test_every_infraction_has_its_sections_penalty_at_each_rel(policy, code, level):
    rank = SOURCE[code][1]
    default = policy.infraction(code).default_at(level)
    assert (default.min.id, default.max.id) == (rank, rank)
    assert policy.infraction(code).subsection == code.split(".")[0]


def test_the_sections_and_the_quick_reference_table_a1_disagree_only_on_outside_assistance_3_2():
    assert {code for code in SOURCE if SOURCE[code][1] != A1[code]} == {"3.2"}
    assert (SOURCE["3.2"][1], A1["3.2"]) == (W, GL)


def test_outside_assistance_follows_the_sections_text_and_records_the_contradiction_with_a1(policy):
    oa = policy.infraction("3.2")
    assert oa.default_at(COMPETITIVE).min.id == W
    assert "A.1" in oa.section_note and "Game Loss" in oa.section_note
    assert any(a.penalty.min.id == GL and "strategic advantage" in a.condition for a in oa.alternatives)


@pytest.mark.parametrize("code", list(ALTERNATIVES))
def test_each_sections_upgrades_and_downgrades_are_alternatives_at_the_rels_it_names(policy, code):
    got = [(a.levels, a.penalty.min.id) for a in policy.infraction(code).alternatives]
    assert got == [(levels, rank) for _, levels, rank in ALTERNATIVES[code]]
    for (words, _, _), alt in zip(ALTERNATIVES[code], policy.infraction(code).alternatives, strict=True):
        assert words in alt.condition


def test_presenting_cards_error_at_professional_rel_offers_ip2_and_at_competitive_does_not_2_7(policy):
    pro = suggest(policy, PROFESSIONAL, "2.7")
    comp = suggest(policy, COMPETITIVE, "2.7")
    assert pro.suggested.id == comp.suggested.id == W
    assert "Intellect Penalty (IP2)" in [a.penalty.label() for a in pro.alternatives if a.levels == (PROFESSIONAL,)]
    assert not [a for a in comp.alternatives if "double-sided" in a.condition]


def test_a_stale_marker_may_be_a_caution_only_at_competitive_rel_3_9(policy):
    assert [a.penalty.min.id for a in suggest(policy, COMPETITIVE, "3.9").alternatives] == [C]
    assert suggest(policy, PROFESSIONAL, "3.9").alternatives == ()


@pytest.mark.parametrize(
    "query, found",
    [("tardy", ["3.1"]), ("outside assistance", ["3.2"]), ("sideboard notes", ["3.2"]), ("bet", ["4.6"])],
)
def test_the_infraction_search_finds_the_words_the_guide_uses(policy, query, found):
    assert [hit.code for hit in rank(policy, query)][: len(found)] == found  # the finder names it first


# ---- repeat rules ------------------------------------------------------------------------


def test_a_third_gameplay_infraction_of_the_same_type_in_a_day_goes_up_one_rank_s2(policy):
    s = suggest(policy, COMPETITIVE, "2.1", [p("2.1", W, 1, 1, DAY1), p("2.1", W, 2, 3, DAY1)], today=DAY1)
    assert (s.suggested.id, s.upgraded, s.rule.id) == (IP, True, "gameplay-third-same-type")
    assert s.explanation() == (
        "Upgraded: 3rd 2.1 Game Rules Violation today (PPG §2, 1.4): Intellect Penalty (IP2)"
        " — after incident #2, round 3"
    )


def test_a_second_gameplay_infraction_of_the_same_type_is_not_upgraded_s2(policy):
    s = suggest(policy, COMPETITIVE, "2.1", [p("2.1", W, 1, 1, DAY1)], today=DAY1)
    assert (s.suggested.id, s.upgraded) == (W, False)


def test_gameplay_infractions_of_other_types_do_not_count_towards_each_other_s2(policy):
    s = suggest(policy, PROFESSIONAL, "2.1", [p("2.4", W, 1), p("2.5", W, 2)])
    assert (s.suggested.id, s.upgraded) == (W, False)


def test_the_gameplay_count_resets_at_the_end_of_each_tournament_day_s2(policy):
    s = suggest(policy, COMPETITIVE, "2.4", [p("2.4", W, 1, 2, DAY1), p("2.4", W, 2, 3, DAY1)], today=DAY2)
    assert (s.suggested.id, s.upgraded) == (W, False)


def test_a_gameplay_repeat_upgrade_never_goes_beyond_a_game_loss_s2_1_4(policy):
    twice = [p("2.6", IP, 1), p("2.6", GL, 2), p("2.6", GL, 3)]
    s = suggest(policy, PROFESSIONAL, "2.6", twice)
    assert (s.suggested.id, s.upgraded) == (GL, True)


def test_failure_to_maintain_game_state_is_never_upgraded_for_repetition_2_2(policy):
    s = suggest(policy, COMPETITIVE, "2.2", [p("2.2", W, 1), p("2.2", W, 2), p("2.2", W, 3)])
    assert (s.suggested.id, s.upgraded) == (W, False)


def test_missed_triggers_given_only_a_caution_are_not_records_so_they_never_make_a_repeat_1_4_s2(policy):
    # Our choice, from 1.4: a Caution is not recorded in FaB; judgeapp logs it but the §2 count leaves it out.
    s = suggest(policy, COMPETITIVE, "2.3", [p("2.3", C, 1), p("2.3", C, 2), p("2.3", C, 3)])
    assert (s.suggested.id, s.upgraded) == (C, False)


def test_a_third_missed_trigger_after_two_recorded_warnings_becomes_a_warning_s2(policy):
    s = suggest(policy, COMPETITIVE, "2.3", [p("2.3", W, 1), p("2.3", C, 2), p("2.3", W, 3)])
    assert (s.suggested.id, s.upgraded, [b.ref for b in s.because]) == (W, True, [1, 3])


def test_a_second_tournament_infraction_of_the_same_type_in_a_day_goes_up_one_rank_s3(policy):
    s = suggest(policy, PROFESSIONAL, "3.8", [p("3.8", W, 4, 2, DAY1)], today=DAY1)
    assert (s.suggested.id, s.upgraded, s.rule.id) == (IP, True, "tournament-second-same-type")
    assert s.explanation() == (
        "Upgraded: 2nd 3.8 Insufficient Shuffling today (PPG §3, 1.4): Intellect Penalty (IP2)"
        " — after incident #4, round 2"
    )


def test_a_first_tournament_infraction_of_its_type_that_day_is_not_upgraded_s3(policy):
    assert not suggest(policy, PROFESSIONAL, "3.8", [p("3.7", W, 1)]).upgraded
    s = suggest(policy, PROFESSIONAL, "3.8", [p("3.8", W, 1, 5, DAY1)], today=DAY2)
    assert (s.suggested.id, s.upgraded) == (W, False)


def test_a_tournament_repeat_upgrade_stops_at_a_game_loss_s3_1_4(policy):
    s = suggest(policy, COMPETITIVE, "3.6.2", [p("3.6.2", GL, 1)])
    assert (s.suggested.id, s.upgraded) == (GL, False)
    assert suggest(policy, COMPETITIVE, "3.4", [p("3.4", IP, 1)]).suggested.id == GL


def test_a_cautioned_card_pool_error_does_not_make_the_next_one_a_repeat_1_4_s3(policy):
    s = suggest(policy, COMPETITIVE, "3.5", [p("3.5", C, 1)])
    assert (s.suggested.id, s.upgraded) == (IP, False)


def test_tardiness_is_left_out_of_the_tournament_repeat_rule_s3(policy):
    s = suggest(policy, COMPETITIVE, "3.1", [p("3.1", IP, 1), p("3.1", IP, 2)])
    assert (s.suggested.id, s.upgraded) == (IP, False)


# 3.3 counts the Caution "in the same game": (earlier caution's round and game, this one's) -> suggested, upgraded
SLOW_PLAY_AFTER_CAUTION = [
    ((4, 2), (4, 2), W, True),  # the same game of the same match: the threshold
    ((4, 1), (4, 2), C, False),  # the game before, in the same match: just below it
    ((4, 2), (4, 1), C, False),
    ((3, 2), (4, 2), C, False),  # game 2 of an earlier round
    ((4, None), (4, 2), C, False),  # an earlier caution without its game cannot be told apart
    ((4, 2), (4, None), C, False),  # nor can this one without its game
]


@pytest.mark.parametrize("earlier, now, expected, upgraded", SLOW_PLAY_AFTER_CAUTION)
def test_slow_play_after_a_caution_in_the_same_game_is_a_warning_and_not_after_one_in_another_game_3_3(
    policy, earlier, now, expected, upgraded
):
    s = suggest(
        policy, COMPETITIVE, "3.3", [p("3.3", C, 7, earlier[0], game=earlier[1])], this_round=now[0], this_game=now[1]
    )
    assert (s.suggested.id, s.upgraded) == (expected, upgraded)
    assert s.rule is None or s.rule.id == "slow-play-after-caution"
    assert s.asks_game  # the form asks which game of the match


def test_only_slow_play_asks_for_the_game_of_the_match_3_3(policy):
    asked = [i.code for i in policy.infractions if suggest(policy, COMPETITIVE, i.code).asks_game]
    assert asked == ["3.3"]


def test_slow_play_is_left_out_of_the_tournament_repeat_rule_one_warning_is_not_enough_s3_3_3(policy):
    s = suggest(policy, COMPETITIVE, "3.3", [p("3.3", W, 1, 1)], this_round=4)
    assert (s.suggested.id, s.upgraded) == (C, False)


def test_slow_play_after_two_slow_play_warnings_in_the_tournament_is_a_game_loss_even_across_days_3_3(policy):
    two = [p("3.3", W, 1, 2, DAY1), p("3.3", W, 2, 9, DAY2)]
    s = suggest(policy, PROFESSIONAL, "3.3", two, today=DAY2, this_round=11)
    assert (s.suggested.id, s.upgraded, s.rule.id) == (GL, True, "slow-play-third-warning")


def test_minor_unsporting_conduct_repeated_even_for_another_reason_is_an_ip2_then_a_game_loss_4_1_1(policy):
    assert policy.infraction("4.1.1").repeat_any_action
    assert suggest(policy, COMPETITIVE, "4.1.1").suggested.id == W
    second = suggest(policy, COMPETITIVE, "4.1.1", [p("4.1.1", W, 1)])
    assert (second.suggested.id, second.rule.id) == (IP, "unsporting-minor-ladder")
    third = suggest(policy, COMPETITIVE, "4.1.1", [p("4.1.1", W, 1), p("4.1.1", IP, 2)])
    assert third.suggested.id == GL


def test_other_conduct_does_not_climb_the_minor_unsporting_ladder_4_1_1(policy):
    s = suggest(policy, COMPETITIVE, "4.1.1", [p("4.10", W, 1)])
    assert (s.suggested.id, s.upgraded) == (W, False)


def test_a_repeated_improper_concession_is_a_disqualification_for_the_head_judge_4_9(policy):
    assert suggest(policy, PROFESSIONAL, "4.9").suggested.id == GL
    s = suggest(policy, PROFESSIONAL, "4.9", [p("4.9", GL, 3, 2)])
    assert (s.suggested.id, s.upgraded, s.head_judge_only) == (DQ, True, True)


# ---- through the command line ------------------------------------------------------------


@pytest.fixture
def cli(app):
    runner = app.test_cli_runner()
    return lambda *args: runner.invoke(args=list(args))


def test_penalty_suggest_for_fab_ppg_prints_the_upgrade_as_json(cli):
    result = cli(
        "penalty", "suggest", "--policy", "fab-ppg", "--level", "professional", "--infraction", "3.4",
        "--prior", "3.4:warning",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["policy"] == "fab-ppg" and out["level"] == 2
    assert out["default"] == {"min": IP, "max": IP}
    assert (out["suggested"], out["upgraded"], out["head_judge_only"]) == (GL, True, False)
    assert out["explanation"] == "Upgraded: 2nd 3.4 Decklist Error today (PPG §3, 1.4): Game Loss — after incident #1"


def test_penalty_suggest_for_fab_ppg_counts_a_slow_play_caution_of_the_same_game_only_3_3(cli):
    args = ["penalty", "suggest", "--policy", "fab-ppg", "--level", "competitive", "--infraction", "3.3", "--game", "2"]
    same = json.loads(cli(*args, "--prior", "3.3:caution:g2").output)
    other = json.loads(cli(*args, "--prior", "3.3:caution:g1").output)
    assert (same["suggested"], same["upgraded"], same["asks_game"], same["game"]) == (W, True, True, 2)
    assert (
        same["explanation"]
        == "Upgraded: 2nd 3.3 Slow Play in this game (PPG 3.3): Warning — after incident #1, round 1, game 2"
    )
    assert (other["suggested"], other["upgraded"]) == (C, False)
    refused = cli(
        "penalty", "suggest", "--policy", "fab-ppg", "--level", "1", "--infraction", "3.3", "--prior", "3.3:caution:g1"
    )
    assert refused.exit_code == 2 and "--game" in refused.output


def test_penalty_suggest_for_fab_ppg_takes_the_level_by_number_and_shows_a_default(cli):
    out = json.loads(cli("penalty", "suggest", "--policy", "fab-ppg", "--level", "1", "--infraction", "2.3").output)
    assert (out["default"], out["suggested"], out["upgraded"]) == ({"min": C, "max": C}, C, False)
    assert out["explanation"] == "Default at Competitive: Caution."


# ---- the quick reference -----------------------------------------------------------------


def test_the_quick_reference_shows_fab_ppg_at_professional_rel_with_its_upgrades(client, make_user, login_as):
    _, email = make_user()
    login_as(email)
    response = client.get("/reference/fab-ppg?level=2")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "Flesh and Blood Procedure and Penalty Guide" in page and "Version 2026-06-10" in page
    assert "Presenting Cards Error" in page and "Intellect Penalty (IP2)" in page
    assert page.count('class="infraction"') == len(SOURCE)
    assert "PPG §2, 1.4" in page and "PPG 3.3" in page and "PPG 4.9" in page  # the repeat rules, with sections
    assert "A.1" in page  # the Outside Assistance contradiction, in 3.2's section note
