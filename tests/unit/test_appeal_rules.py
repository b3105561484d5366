"""Appeal rules in pure Python: what each outcome costs and how many challenges a player has left."""

from datetime import datetime, timedelta

import pytest

from judgeapp.infractions import Challenges, Outcome, link_expiry


def test_only_an_upheld_appeal_spends_a_challenge_by_default():
    assert Outcome.UPHELD.spends_challenge
    assert not Outcome.OVERTURNED.spends_challenge and not Outcome.CHANGED.spends_challenge


def test_overturning_or_changing_a_ruling_needs_a_reason_and_upholding_does_not():
    assert not Outcome.UPHELD.needs_reason
    assert Outcome.OVERTURNED.needs_reason and Outcome.CHANGED.needs_reason


@pytest.mark.parametrize(
    "limit, spent, waiting, may, left",
    [
        (None, 5, 3, True, None),  # no limit at this event
        (2, 0, 0, True, 2),
        (2, 1, 0, True, 1),
        (2, 2, 0, False, 0),
        (2, 1, 1, False, 1),  # the appeal waiting for a decision may still spend the last one
        (0, 0, 0, False, 0),
    ],
)
def test_a_player_may_appeal_while_spent_and_waiting_appeals_stay_under_the_limit(limit, spent, waiting, may, left):
    challenges = Challenges(limit, spent, waiting)
    assert challenges.may_appeal is may and challenges.left == left


def test_a_statement_link_expires_the_deadline_after_it_was_made():
    made = datetime(2026, 11, 21, 15, 30)
    assert link_expiry(made, 7) == made + timedelta(days=7)
    with pytest.raises(ValueError):
        link_expiry(made, 0)
