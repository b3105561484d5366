"""The shipped `yugioh` policy at an event: who decides (KDE-E Infractions and Penalties Policy v2.2) and the quick
reference at the four tiers of the Tournament Policy (III.A).

A floor judge's penalty is saved as recommended and waits for the head judge when only the head judge may give it:
an upgrade or a downgrade (III.E), a Match Loss other than for tardiness (III.C); the default penalty, and the
tardiness Match Loss, stand at once."""

from __future__ import annotations

import pytest

from judgeapp.models import IncidentStatus
from tests.integration import staffed


def staffed_event(app, make_user, make_event, level: int) -> dict:
    """A yugioh event at `level`, round 1 running, a head judge, a floor judge and one player."""
    return staffed.staffed_event(app, make_user, make_event, policy_id="yugioh", level=level, player="Rin Asano")


def give(app, event, who, infraction, penalty):
    return staffed.give(app, event, who, infraction, penalty, deviation_reason="The head judge asked for it.")


def test_a_floor_judges_upgrade_of_a_repeated_procedural_error_waits_for_the_head_judge_iii_e(
    app, make_user, make_event
):
    event = staffed_event(app, make_user, make_event, level=2)
    first = give(app, event, "floor_judge", "PE-minor", "warning")
    assert first.status is IncidentStatus.STANDING
    upgraded = give(app, event, "floor_judge", "PE-minor", "game_loss")
    assert upgraded.status is IncidentStatus.RECOMMENDED and upgraded.rank_id == "game_loss"


def test_a_floor_judges_downgrade_waits_for_the_head_judge_but_the_head_judges_own_stands_iii_e(
    app, make_user, make_event
):
    event = staffed_event(app, make_user, make_event, level=3)
    assert give(app, event, "floor_judge", "DC-major", "warning").status is IncidentStatus.RECOMMENDED
    assert give(app, event, "head_judge", "DC-major", "warning").status is IncidentStatus.STANDING


def test_a_match_loss_waits_for_the_head_judge_except_for_tardiness_iii_c(app, make_user, make_event):
    event = staffed_event(app, make_user, make_event, level=2)
    assert give(app, event, "floor_judge", "PE-strict", "match_loss").status is IncidentStatus.RECOMMENDED
    assert give(app, event, "floor_judge", "T-strict", "match_loss").status is IncidentStatus.STANDING


@pytest.mark.parametrize("level, name", [(1, "Tier 1"), (2, "Tier 2"), (3, "Tier 3"), (4, "Tier 4")])
def test_quick_reference_shows_the_kde_e_rows_at_each_tier(client, make_user, login_as, level, name):
    _, email = make_user()
    login_as(email)
    page = client.get(f"/reference/yugioh?level={level}").get_data(as_text=True)
    assert "Tournament Infractions and Penalties Policy (KDE-E)" in page and "17 of 17 infractions" in page
    assert f'<option value="{level}" selected>{name}</option>' in page
    assert "Unsporting Conduct — Cheating" in page and "Drawing Extra Cards — Major" in page


def test_quick_reference_at_tier_1_marks_the_second_time_as_the_head_judges_call_iii_e(client, make_user, login_as):
    _, email = make_user()
    login_as(email)
    page = client.get("/reference/yugioh?level=1").get_data(as_text=True)
    assert "Repeats: the judge may escalate under" in page
    assert "Repeats: never upgraded" in page  # tardiness, IV.C
