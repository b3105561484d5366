"""Every Bushiroad AFR infraction's default penalty at levels 1-3, checked against the Penalty Guide text.

The table is typed from the source (Ver. 1.11): "L1" is the Level 1 line, "L2+" the "Level 2 and above"
line, which the catalog records for level 2 and level 3 alike.
"""

import pytest

from judgeapp.infractions import load_catalog
from tests.conftest import CATALOG

C, W, LG, LM, DQ = "caution", "warning", "loss_of_game", "loss_of_match", "disqualification"

# code: (level 1 (min, max), level 2 and above (min, max))
SOURCE = {
    "3.1.1": ((W, LG), (LG, LG)),
    "3.1.2": ((W, W), (LG, DQ)),
    "3.1.3": ((W, LG), (LG, DQ)),
    "3.1.4": ((LG, LG), (LG, DQ)),
    "3.2.1": ((C, C), (C, W)),
    "3.2.2": ((C, W), (W, LM)),
    "3.3.1": ((C, C), (C, W)),
    "3.3.2": ((C, W), (W, W)),
    "3.3.3": ((LG, LG), (LG, LG)),
    "3.4": ((C, W), (W, W)),
    "3.5.1.1": ((C, W), (W, W)),
    "3.5.1.2": ((LG, LG), (LG, LG)),
    "3.5.2": ((C, W), (W, W)),
    "3.5.3.1": ((C, W), (C, W)),
    "3.5.3.2": ((C, W), (W, W)),
    "3.5.4": ((LG, LG), (LG, LG)),
    "3.5.5": ((C, LG), (W, LG)),
    "3.6.1.1": ((C, C), (C, W)),
    "3.6.1.2": ((C, W), (W, W)),
    "3.6.2": ((C, C), (W, W)),
    "3.7.1": ((C, C), (C, W)),
    "3.7.2": ((C, W), (W, W)),
    "3.8.1": ((C, W), (W, LM)),
    "3.8.2": ((LG, LG), (LG, DQ)),
    "3.8.3": ((DQ, DQ), (DQ, DQ)),
    "3.9.1": ((C, W), (W, LM)),
    "3.9.2": ((LM, LM), (LM, LM)),
    "3.10.1": ((C, W), (W, W)),
    "3.10.2": ((C, W), (W, W)),
    "3.11.1": ((C, W), (W, W)),
    "3.11.2": ((W, LG), (LG, LG)),
    "3.12": ((W, LG), (LG, LG)),
    "3.13": ((C, C), (W, W)),
    "3.14": ((C, W), (W, W)),
    "3.15": ((W, W), (W, W)),
    "3.16": ((W, W), (W, W)),
    "3.17": ((W, W), (W, W)),
    "3.18": ((W, W), (W, W)),
    "3.19.1": ((C, W), (W, W)),
    "3.19.2": ((C, W), (W, W)),
    "3.19.3": ((DQ, DQ), (DQ, DQ)),
    "3.20.1": ((C, C), (C, W)),
    "3.20.2": ((C, W), (W, LG)),
    "3.20.3": ((LG, DQ), (LG, DQ)),
    "3.21": ((C, W), (W, W)),
    "3.22": ((W, W), (W, LM)),
    "3.23.2": ((C, C), (C, W)),
    "3.23.3": ((C, W), (W, W)),
    "4.1": ((DQ, DQ), (DQ, DQ)),
    "4.2": ((DQ, DQ), (DQ, DQ)),
    "4.3": ((DQ, DQ), (DQ, DQ)),
    "4.4": ((DQ, DQ), (DQ, DQ)),
    "4.5": ((W, DQ), (LM, DQ)),
}
NO_DEFAULT = {"3.24", "4.6"}  # "Others": the judge decides by comparison
FLOOR_RULES = {"FR4.4"}  # Floor Rules 4.4 calls an intentional draw an infraction; the guide gives it no default
NOT_PENALIZED = {"3.23.1"}


@pytest.fixture(scope="module")
def policy():
    return load_catalog(CATALOG).policy("bushiroad-afr")


def test_catalog_lists_exactly_the_numbered_infractions_of_sections_3_and_4_and_the_floor_rules_intentional_draw(
    policy,
):
    assert {i.code for i in policy.infractions} == set(SOURCE) | NO_DEFAULT | NOT_PENALIZED | FLOOR_RULES


@pytest.mark.parametrize("code", sorted(SOURCE))
@pytest.mark.parametrize("level", [1, 2, 3])
def test_default_penalty_matches_the_penalty_guide(policy, code, level):
    expected = SOURCE[code][0 if level == 1 else 1]
    rng = policy.infraction(code).default_at(level)
    assert (rng.min.id, rng.max.id) == expected


@pytest.mark.parametrize("code", sorted(NO_DEFAULT | FLOOR_RULES))
def test_others_and_the_intentional_draw_have_no_default_and_are_left_to_the_judge(policy, code):
    inf = policy.infraction(code)
    assert inf.defaults is None and inf.discretion


def test_dice_cases_the_text_does_not_penalise_carry_no_penalty(policy):
    inf = policy.infraction("3.23.1")
    assert not inf.penalized and inf.defaults is None


@pytest.mark.parametrize("code", ["3.3.3", "3.5.1.2", "3.5.4"])
def test_legalised_game_state_allows_a_warning_instead_at_level_two_and_below(policy, code):
    inf = policy.infraction(code)
    for level in (1, 2):
        (alt,) = inf.alternatives_at(level)
        assert (alt.penalty.min.id, alt.penalty.max.id) == (W, W)
    assert inf.alternatives_at(3) == ()


def test_lost_score_sheet_becomes_warning_to_loss_of_match_when_scores_are_recovered(policy):
    for level in (1, 2, 3):
        recovered, _ = policy.infraction("3.19.3").alternatives_at(level)
        assert (recovered.penalty.min.id, recovered.penalty.max.id) == (W, LM)


def test_lost_score_sheet_that_carried_penalty_records_raises_the_warning_to_loss_of_match_at_once(policy):
    """Penalty Guide 3.19.3, last paragraph: with the event's penalty records on the lost sheet, a fighter who plays
    on has the warning raised to a loss of match, whatever the earlier records were."""
    for level in (1, 2, 3):
        _, records_lost = policy.infraction("3.19.3").alternatives_at(level)
        assert (records_lost.penalty.min.id, records_lost.penalty.max.id) == (LM, LM)
        assert "penalty records" in records_lost.condition


def test_unsportsmanlike_conduct_upgrades_even_for_different_actions(policy):
    assert all(policy.infraction(c).repeat_any_action for c in ("3.8.1", "3.8.2", "3.8.3"))
    assert not policy.infraction("3.5.2").repeat_any_action


def test_sub_sections_group_infractions_as_the_guide_does(policy):
    assert policy.infraction("3.5.1.1").subsection == policy.infraction("3.5.3.2").subsection == "3.5"
    assert policy.infraction("3.4").subsection != policy.infraction("3.9.1").subsection


def test_ranks_levels_and_head_judge_only_disqualification(policy):
    assert [r.id for r in policy.ranks] == [C, W, LG, LM, DQ]
    assert [lv.number for lv in policy.levels] == [1, 2, 3]
    assert policy.head_judge_only == {DQ}
    assert policy.report_to_head_judge == {LG, LM, DQ}


def test_every_infraction_has_notes_written_for_the_catalog(policy):
    assert all(len(i.notes) > 20 for i in policy.infractions)
