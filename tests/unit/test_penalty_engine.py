"""The penalty engine: defaults per level and repeat upgrades by sub-section."""

from datetime import date

import pytest

from judgeapp.infractions import Prior, PriorStatus, load_catalog, suggest
from judgeapp.infractions.engine import expected_ranks
from tests.conftest import CATALOG


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(CATALOG)


@pytest.fixture(scope="module")
def afr(catalog):
    return catalog.policy("bushiroad-afr")


def test_first_offence_gets_the_minimum_of_the_default_range(afr):
    s = suggest(afr, 2, "3.2.2")
    assert (s.default.min.id, s.default.max.id, s.suggested.id, s.upgraded) == (
        "warning",
        "loss_of_match",
        "warning",
        False,
    )


def test_second_warning_in_same_subsection_upgrades_to_loss_of_game(afr):
    first = Prior("3.5.1.1", "warning", ref=14, round=2)
    s = suggest(afr, 2, "3.5.3.2", [first])
    assert s.suggested.id == "loss_of_game" and s.upgraded
    assert s.because == (first,)
    assert s.explanation() == (
        "Upgraded: 2nd penalty in 3.5 at this event (Penalty Guide §2): Loss of Game — after incident #14, round 2"
    )
    assert [r.id for r in expected_ranks(afr, s)] == ["loss_of_game", "loss_of_match", "disqualification"]


def test_same_rank_in_another_subsection_does_not_upgrade(afr):
    s = suggest(afr, 2, "3.9.1", [Prior("3.4", "warning")])
    assert s.suggested.id == "warning" and not s.upgraded and s.because == ()


@pytest.mark.parametrize("status", [PriorStatus.VOIDED, PriorStatus.OVERTURNED])
def test_voided_and_overturned_priors_do_not_count(afr, status):
    s = suggest(afr, 2, "3.5.2", [Prior("3.5.4", "loss_of_game", status=status)])
    assert s.suggested.id == "warning" and not s.upgraded


def test_upgrade_stops_at_the_top_rank(afr):
    s = suggest(afr, 1, "4.1", [Prior("4.1", "disqualification")])
    assert s.suggested.id == "disqualification" and not s.upgraded


def test_an_earlier_caution_upgrades_only_a_caution_so_a_heavier_default_stands(afr):
    s = suggest(afr, 3, "3.3.3", [Prior("3.3.1", "caution")])  # §2: cautions become warnings, warnings go further
    assert s.suggested.id == "loss_of_game" and not s.upgraded


def test_a_caution_after_a_warning_in_the_subsection_is_the_players_second_warning_so_a_loss_of_game(afr):
    s = suggest(afr, 1, "3.6.1.1", [Prior("3.6.2", "warning")])
    assert (s.suggested.id, s.rule.id) == ("loss_of_game", "warning-again")


def test_each_further_repeat_goes_one_rank_above_the_highest_earlier_penalty_up_to_disqualification(afr):
    priors = [Prior("3.5.2", "warning", ref=1), Prior("3.5.4", "loss_of_game", ref=2)]
    assert suggest(afr, 2, "3.5.2", priors).suggested.id == "loss_of_match"
    s = suggest(afr, 2, "3.5.2", [*priors, Prior("3.5.3.1", "loss_of_match", ref=3)])
    assert s.suggested.id == "disqualification" and s.head_judge_only


def test_caution_repeated_in_same_subsection_suggests_a_warning(afr):
    s = suggest(afr, 1, "3.6.1.1", [Prior("3.6.2", "caution")])
    assert s.suggested.id == "warning" and s.upgraded


def test_different_unsportsmanlike_acts_upgrade_above_the_earlier_penalty(afr):
    s = suggest(afr, 2, "3.8.1", [Prior("3.8.2", "loss_of_game")])
    assert s.suggested.id == "loss_of_match" and s.upgraded


def test_several_priors_are_all_named_and_counted(afr):
    priors = [Prior("3.5.2", "warning", ref=3, round=1), Prior("3.5.5", "warning", ref=9, round=3)]
    s = suggest(afr, 2, "3.5.2", priors)
    assert s.because == tuple(priors)
    assert s.explanation().startswith("Upgraded: 3rd penalty in 3.5")


def test_disqualification_is_head_judge_only(afr):
    assert suggest(afr, 2, "4.1").head_judge_only
    assert not suggest(afr, 2, "3.5.4").head_judge_only
    assert suggest(afr, 2, "3.5.4").report_to_head_judge


def test_discretion_infraction_has_no_suggestion(afr):
    s = suggest(afr, 2, "3.24", [Prior("3.24", "warning")])
    assert s.suggested is None and s.default is None and not s.upgraded
    assert "judge decides" in s.explanation()


def test_alternatives_are_offered_only_at_their_levels(afr):
    assert [a.penalty.min.id for a in suggest(afr, 2, "3.5.4").alternatives] == ["warning"]
    assert suggest(afr, 3, "3.5.4").alternatives == ()


def test_priors_from_another_day_do_not_count_when_the_policy_resets_daily(catalog):
    from judgeapp.infractions import RepeatScope

    daily = catalog.policy("bushiroad-afr").with_window(RepeatScope.DAY)
    yesterday = Prior("3.5.2", "warning", day=date(2026, 11, 20))
    assert not suggest(daily, 2, "3.5.2", [yesterday], today=date(2026, 11, 21)).upgraded
    assert suggest(daily, 2, "3.5.2", [yesterday], today=date(2026, 11, 20)).upgraded


def test_a_prior_whose_code_left_the_catalog_is_matched_by_its_recorded_subsection(afr):
    assert suggest(afr, 2, "3.5.2", [Prior("3.5.9", "warning", subsection="3.5")]).upgraded
    assert not suggest(afr, 2, "3.5.2", [Prior("3.5.9", "warning")]).upgraded


def test_wheel_of_time_states_no_upgrade_so_a_repeated_warning_stays_a_warning(catalog):
    wot = catalog.policy("wot-ccg")
    s = suggest(wot, 1, "FR3", [Prior("FR3", "warning")])
    assert s.suggested.id == "warning" and not s.upgraded and wot.repeat_rules == ()


def test_unknown_level_names_the_valid_ones(afr):
    with pytest.raises(LookupError, match=r"unknown level '4'; valid choices: 1, 2, 3"):
        suggest(afr, 4, "3.5.2")
