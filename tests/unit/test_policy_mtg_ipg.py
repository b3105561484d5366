"""The Magic Infraction Procedure Guide (effective 23 September 2024) as encoded in policy `mtg-ipg`: every
infraction's default at Competitive and Professional REL, the per-infraction up- and downgrades the judge chooses,
and the four repeat rules of sections 2, 3, 4.1 and 4.2, each with a case that triggers it and one just below.

The tables are typed from the guide (sections and Appendix A), not read back from the catalog. The guide gives the
same penalties at both levels, so every default is checked at both.
"""

import json
from datetime import date

import pytest

from judgeapp.infractions import Prior, PriorStatus, load_catalog, suggest
from tests.conftest import CATALOG

W, GL, ML, DQ = "warning", "game_loss", "match_loss", "disqualification"
LEVELS = ("competitive", "professional")
DAY1, DAY2 = date(2026, 5, 16), date(2026, 5, 17)

# code: (name in the guide, section that gives the default, default penalty)
DEFAULTS = {
    "2.2": ("Looking at Extra Cards", "IPG 2.2", W),
    "2.3": ("Hidden Card Error", "IPG 2.3", W),
    "2.4": ("Mulligan Procedure Error", "IPG 2.4", W),
    "2.5": ("Game Rule Violation", "IPG 2.5", W),
    "2.6": ("Failure to Maintain Game State", "IPG 2.6", W),
    "3.1": ("Tardiness", "IPG 3.1", GL),
    "3.2": ("Outside Assistance", "IPG 3.2", ML),
    "3.3": ("Slow Play", "IPG 3.3", W),
    "3.4": ("Decklist Problem", "IPG 3.4", GL),
    "3.5": ("Deck Problem", "IPG 3.5", W),
    "3.6": ("Limited Procedure Violation", "IPG 3.6", W),
    "3.7": ("Communication Policy Violation", "IPG 3.7", W),
    "3.8": ("Marked Cards", "IPG 3.8", W),
    "3.9": ("Insufficient Shuffling", "IPG 3.9", W),
    "4.1": ("Unsporting Conduct — Minor", "IPG 4.1", W),
    "4.2": ("Unsporting Conduct — Major", "IPG 4.2", ML),
    "4.3": ("Improperly Determining a Winner", "IPG 4.3", ML),
    "4.4": ("Bribery and Wagering", "IPG 4.4", ML),
    "4.5": ("Aggressive Behavior", "IPG 4.5", DQ),
    "4.6": ("Theft of Tournament Material", "IPG 4.6", DQ),
    "4.7": ("Stalling", "IPG 4.7", DQ),
    "4.8": ("Cheating", "IPG 4.8", DQ),
}
NO_PENALTY = {"2.1": "Missed Trigger"}  # IPG 2.1, Appendix A: "None"

# code: (section, the penalty the guide allows instead when its condition holds)
ALTERNATIVES = {
    "2.1": ("IPG 2.1 Upgrade", [W]),
    "2.3": ("IPG 2.3 Upgrade", [GL]),
    "3.1": ("IPG 3.1 Downgrade and Upgrade", [W, ML]),
    "3.2": ("IPG 3.2 Downgrade", [GL]),
    "3.5": ("IPG 3.5 Upgrades", [GL]),
    "3.8": ("IPG 3.8 Upgrades", [GL]),
    "4.2": ("IPG 4.2 Upgrade (malice, no remorse)", [DQ]),
}


@pytest.fixture(scope="module")
def policy():
    return load_catalog(CATALOG).policy("mtg-ipg")


def prior(code, rank, ref, day=DAY1, rnd=1, status=PriorStatus.STANDING):
    return Prior(code, rank, ref=ref, round=rnd, day=day, status=status)


def ask(policy, code, priors=(), level="competitive", today=DAY1):
    return suggest(policy, policy.level(level).number, code, priors, today=today)


# ---- the catalog against the guide ---------------------------------------------------------------------------------


def test_catalog_lists_exactly_the_infractions_of_sections_2_to_4_with_their_names(policy):
    assert {i.code: i.name for i in policy.infractions} == {
        **{code: name for code, (name, _, _) in DEFAULTS.items()},
        **NO_PENALTY,
    }


def test_categories_are_the_three_sections_and_each_infraction_sits_in_its_own(policy):
    assert [(s.code, s.name) for s in policy.subsections] == [
        ("2", "Game Play Errors"),
        ("3", "Tournament Errors"),
        ("4", "Unsporting Conduct"),
    ]
    assert all(i.subsection == i.code.split(".")[0] for i in policy.infractions)


def test_version_and_source_name_the_september_2024_guide_and_its_url(policy):
    assert policy.version == "2024-09-23"
    assert "MTG_IPG_2024Sep23_EN.pdf" in policy.source and "Wizards of the Coast" in policy.source


def test_levels_are_competitive_and_professional_rel_in_increasing_strictness(policy):
    assert [(lv.number, lv.id, lv.name) for lv in policy.levels] == [
        (1, "competitive", "Competitive REL"),
        (2, "professional", "Professional REL"),
    ]


@pytest.mark.parametrize("code", sorted(DEFAULTS))
@pytest.mark.parametrize("level", LEVELS)
def test_default_penalty_matches_the_guide_at_both_levels(policy, code, level):
    _, section, rank = DEFAULTS[code]
    rng = policy.infraction(code).default_at(policy.level(level).number)
    assert (rng.min.id, rng.max.id) == (rank, rank), section


def test_missed_trigger_carries_no_penalty_unless_its_upgrade_applies_ipg_2_1(policy):
    inf = policy.infraction("2.1")
    assert not inf.penalized and inf.defaults is None
    s = ask(policy, "2.1")
    assert s.suggested is None and not s.upgraded


@pytest.mark.parametrize("code", sorted(ALTERNATIVES))
@pytest.mark.parametrize("level", LEVELS)
def test_per_infraction_up_and_downgrades_are_alternatives_for_the_judge(policy, code, level):
    section, ranks = ALTERNATIVES[code]
    alts = policy.infraction(code).alternatives_at(policy.level(level).number)
    assert [(a.penalty.min.id, a.penalty.max.id) for a in alts] == [(r, r) for r in ranks], section


def test_no_other_infraction_has_an_alternative(policy):
    assert {i.code for i in policy.infractions if i.alternatives} == set(ALTERNATIVES)


def test_ranks_head_judge_and_reporting_ipg_1_1_and_1_2(policy):
    assert [r.id for r in policy.ranks] == [W, GL, ML, DQ]
    assert policy.head_judge_only == {DQ}
    assert policy.report_to_head_judge == {GL, ML, DQ}


def test_time_extensions_ruling_over_a_minute_and_deck_check_plus_three_minutes(policy):
    by_reason = {t.reason.value: t for t in policy.time_rules}
    assert (by_reason["ruling"].over_minutes, by_reason["ruling"].plus_minutes) == (1, 0)
    assert (by_reason["deck_check"].over_minutes, by_reason["deck_check"].plus_minutes) == (0, 3)
    assert "MTR 2.6" in by_reason["deck_check"].section


def test_every_rule_cites_its_section(policy):
    assert {r.id: r.section for r in policy.repeat_rules} == {
        "gpe-third-warning": "IPG 2, introduction",
        "te-second-warning": "IPG 3, introduction",
        "usc-minor-again": "IPG 4.1",
        "usc-major-again": "IPG 4.2",
    }


# ---- IPG 2 introduction: the third Warning for the same Game Play Error is a Game Loss ------------------------------


def test_ipg_2_third_warning_for_the_same_game_play_error_the_same_day_is_a_game_loss(policy):
    s = ask(policy, "2.5", [prior("2.5", W, 1), prior("2.5", W, 2, rnd=3)])
    assert (s.suggested.id, s.upgraded, s.rule.id) == (GL, True, "gpe-third-warning")
    assert [p.ref for p in s.because] == [1, 2]


def test_ipg_2_second_warning_is_just_below_the_threshold(policy):
    s = ask(policy, "2.5", [prior("2.5", W, 1)])
    assert (s.suggested.id, s.upgraded) == (W, False)


def test_ipg_2_upgrade_applies_alike_at_professional_rel(policy):
    s = ask(policy, "2.2", [prior("2.2", W, 1), prior("2.2", W, 2)], level="professional")
    assert s.suggested.id == GL


def test_ipg_2_same_category_is_read_as_the_same_infraction(policy):
    s = ask(policy, "2.5", [prior("2.2", W, 1), prior("2.4", W, 2)])
    assert (s.suggested.id, s.upgraded) == (W, False)


def test_ipg_2_count_resets_between_days_of_a_multi_day_event(policy):
    s = ask(policy, "2.5", [prior("2.5", W, 1, day=DAY1), prior("2.5", W, 2, day=DAY1)], today=DAY2)
    assert (s.suggested.id, s.upgraded) == (W, False)


def test_ipg_2_only_warnings_count_not_a_hidden_card_error_already_upgraded_to_a_game_loss(policy):
    s = ask(policy, "2.3", [prior("2.3", W, 1), prior("2.3", GL, 2)])
    assert (s.suggested.id, s.upgraded) == (W, False)


def test_ipg_2_failure_to_maintain_game_state_is_never_upgraded(policy):
    s = ask(policy, "2.6", [prior("2.6", W, n) for n in (1, 2, 3)])
    assert (s.suggested.id, s.upgraded) == (W, False)


def test_ipg_2_voided_warnings_do_not_count(policy):
    s = ask(policy, "2.5", [prior("2.5", W, 1), prior("2.5", W, 2, status=PriorStatus.VOIDED)])
    assert not s.upgraded


def test_upgrade_explanation_names_the_rule_its_section_the_count_and_the_last_incident(policy):
    s = ask(policy, "2.5", [prior("2.5", W, 4, rnd=2), prior("2.5", W, 9, rnd=5)])
    assert s.explanation() == (
        "Upgraded: 3rd Warning for the same Game Play Error today (IPG 2, introduction): Game Loss"
        " — after incident #9, round 5"
    )


# ---- IPG 3 introduction: a second Warning for the same Tournament Error is a Game Loss ------------------------------


def test_ipg_3_second_warning_for_the_same_tournament_error_the_same_day_is_a_game_loss(policy):
    s = ask(policy, "3.3", [prior("3.3", W, 7)])
    assert (s.suggested.id, s.upgraded, s.rule.id) == (GL, True, "te-second-warning")


def test_ipg_3_first_warning_is_just_below_the_threshold(policy):
    assert ask(policy, "3.3").suggested.id == W


def test_ipg_3_a_warning_for_another_tournament_error_does_not_count(policy):
    s = ask(policy, "3.3", [prior("3.5", W, 1), prior("3.8", W, 2)])
    assert (s.suggested.id, s.upgraded) == (W, False)


def test_ipg_3_count_resets_between_days(policy):
    s = ask(policy, "3.8", [prior("3.8", W, 1, day=DAY1)], today=DAY2)
    assert (s.suggested.id, s.upgraded) == (W, False)


def test_ipg_3_infractions_whose_default_is_a_game_loss_or_more_are_not_changed(policy):
    assert ask(policy, "3.1", [prior("3.1", W, 1)]).suggested.id == GL
    assert ask(policy, "3.2", [prior("3.2", W, 1)]).suggested.id == ML


# ---- IPG 4.1 and 4.2 ------------------------------------------------------------------------------------------------


def test_ipg_4_1_a_second_minor_unsporting_conduct_is_a_game_loss_even_on_a_later_day(policy):
    s = ask(policy, "4.1", [prior("4.1", W, 3, day=DAY1)], today=DAY2)
    assert (s.suggested.id, s.upgraded, s.rule.id) == (GL, True, "usc-minor-again")
    assert policy.infraction("4.1").repeat_any_action  # "even for different offenses"


def test_ipg_4_1_first_minor_unsporting_conduct_is_a_warning(policy):
    s = ask(policy, "4.1", [prior("4.3", ML, 1)])
    assert (s.suggested.id, s.upgraded) == (W, False)


def test_ipg_4_2_major_unsporting_conduct_repeated_later_is_a_disqualification_for_the_head_judge(policy):
    s = ask(policy, "4.2", [prior("4.2", ML, 2)])
    assert (s.suggested.id, s.upgraded, s.rule.id, s.head_judge_only) == (DQ, True, "usc-major-again", True)


def test_ipg_4_2_first_major_unsporting_conduct_is_a_match_loss(policy):
    s = ask(policy, "4.2", [prior("4.1", W, 1)])
    assert (s.suggested.id, s.upgraded, s.head_judge_only) == (ML, False, False)


# ---- the command line -----------------------------------------------------------------------------------------------


@pytest.fixture
def cli(app):
    runner = app.test_cli_runner()
    return lambda *args: runner.invoke(args=["penalty", "suggest", "--policy", "mtg-ipg", *args])


def test_cli_suggests_the_ipg_2_upgrade_at_competitive_rel(cli):
    result = cli("--level", "competitive", "--infraction", "2.5", "--prior", "2.5:warning", "--prior", "2.5:warning")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["policy"] == "mtg-ipg" and out["level"] == 1
    assert out["default"] == {"min": W, "max": W}
    assert (out["suggested"], out["upgraded"], out["head_judge_only"]) == (GL, True, False)
    assert out["explanation"].startswith("Upgraded: 3rd Warning for the same Game Play Error")


def test_cli_gives_the_default_at_professional_rel_by_its_name(cli):
    out = json.loads(cli("--level", "professional", "--infraction", "3.2").output)
    assert out["level"] == 2 and out["default"] == {"min": ML, "max": ML}
    assert (out["suggested"], out["upgraded"]) == (ML, False)
    assert out["explanation"] == "Default at Professional REL: Match Loss."


def test_cli_flags_the_ipg_4_2_disqualification_for_the_head_judge(cli):
    out = json.loads(cli("--level", "2", "--infraction", "4.2", "--prior", "4.2:match_loss").output)
    assert (out["suggested"], out["upgraded"], out["head_judge_only"]) == (DQ, True, True)


# ---- IPG 1.2: one penalty for infractions of one root cause ---------------------------------------------------------

# (this error, the earlier record it is linked to as the same cause: code and rank) -> the sentence's tail about the
# more severe penalty ("" when the earlier penalty is at least this error's default)
RELATED = [
    ("2.5", ("2.2", W), ""),  # a Game Rule Violation caused by the same slip as a Looking at Extra Cards
    (
        "3.4",
        ("3.3", W),
        " This error's default (Game Loss) is more severe: correct the penalty of incident #4, round 2 instead.",
    ),
    ("3.3", ("3.4", GL), ""),
]


@pytest.mark.parametrize("code, linked, more_severe", RELATED)
def test_an_error_linked_to_one_of_the_same_cause_carries_no_second_penalty_and_names_the_more_severe_ipg_1_2(
    policy, code, linked, more_severe
):
    earlier = Prior(linked[0], linked[1], ref=4, round=2)
    s = suggest(policy, 1, code, [], this_round=2, related_to=earlier)
    assert (s.suggested, s.upgraded, s.because) == (None, False, ())
    assert s.default is not None  # this error's own default stays shown
    rank = {W: "Warning", GL: "Game Loss"}[linked[1]]
    assert s.explanation() == (
        f"One penalty for related errors (IPG 1.2): the same cause as incident #4, round 2, whose {rank} stands for "
        "both; no second penalty." + more_severe
    )
    assert s.as_dict()["related_to"] == 4 and s.as_dict()["related_allowed"] is True


def test_without_the_link_the_same_error_of_the_same_round_is_suggested_its_own_penalty_ipg_1_2(policy):
    s = suggest(policy, 1, "2.5", [Prior("2.2", W, ref=4, round=2)], this_round=2)
    assert (s.suggested.id, s.related) == (W, None)


def test_a_policy_whose_text_gives_every_error_its_own_penalty_refuses_a_link():
    fab = load_catalog(CATALOG).policy("fab-ppg")
    assert fab.related_errors is None
    with pytest.raises(ValueError, match="its own penalty"):
        suggest(fab, 1, "2.1", [], related_to=Prior("2.2", W, ref=1))


def test_penalty_suggest_for_mtg_ipg_prints_a_linked_error_without_a_penalty_ipg_1_2(cli):
    result = cli("--level", "competitive", "--infraction", "2.5", "--related-to", "2.2:warning")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert (out["suggested"], out["related_to"], out["default"]) == (None, 1, {"min": W, "max": W})
    assert out["explanation"].startswith("One penalty for related errors (IPG 1.2): the same cause as incident #1,")


# the texts read for a rule of one penalty for related errors that name none (or give each error its own penalty):
# Pokémon Penalty Guidelines (2026: no "Multiple Infractions" section any more; 4.2.1 weighs a chain of events in the
# one error's penalty), Lorcana Play Correction Guidelines 1-4, Yu-Gi-Oh! III.C (two infractions at once: both
# penalties)
@pytest.mark.parametrize("policy_id, code", [("pokemon", "5.5.1-minor"), ("lorcana", "2.1"), ("yugioh", "PE-minor")])
def test_the_texts_that_name_no_one_penalty_rule_refuse_a_link(policy_id, code):
    other = load_catalog(CATALOG).policy(policy_id)
    assert other.related_errors is None
    with pytest.raises(ValueError, match="its own penalty"):
        suggest(other, 1, code, [], related_to=Prior(code, W, ref=1))


def test_riftbound_gives_one_penalty_for_related_errors_as_its_701_3_d_says():
    assert load_catalog(CATALOG).policy("riftbound").related_errors.section == "701.3.d"
