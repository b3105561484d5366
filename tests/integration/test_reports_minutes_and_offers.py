"""The reports and CSVs carry what the judge settled (issue 35): how late the player was (tardiness by minutes, Play!
Pokémon 5.2.1) and the escalation the policy offered as the judge's call (Pokémon 4.2.2: repeats "may" be escalated),
taken or not, in the post-event report, the incident CSV and the penalties-by-player CSV."""

from __future__ import annotations

import pytest

from tests.integration.staffed import give as give_as
from tests.integration.test_assistant_head_judge import client
from tests.integration.test_disqualification_judges import staffed
from tests.integration.test_incidents import incidents
from tests.integration.test_postevent import rows_of

pytestmark = pytest.mark.db  # the states, the agreements' uniqueness and the reports read alike on PostgreSQL

LEAGUE = 1


def give(app, event, who, infraction, penalty, **fields):
    return give_as(app, event, who, infraction, penalty, deviation_reason="", **fields)


@pytest.fixture
def judged(app, make_user, make_event):
    """A Pokémon League Challenge: #1 a player 4 minutes late (a Warning, 5.2.1); #2 a Major gameplay error (a Double
    Prize Card); #3 and #4 Minor gameplay errors repeated after it, where one step up is offered: #3 given the
    Warning (not taken), #4 given the Double Prize Card offered (taken)."""
    event = staffed(app, make_user, make_event, LEAGUE)
    give(app, event, "head_judge", "5.2.1", "warning", minutes_late="4")
    give(app, event, "head_judge", "5.5.1-major", "double_prize_card")
    give(app, event, "head_judge", "5.5.1-minor", "warning")
    give(app, event, "head_judge", "5.5.1-minor", "double_prize_card")
    return event


def test_4_2_2_the_offered_escalation_is_stored_with_the_incident_when_it_is_logged(app, judged):
    late, major, not_taken, taken = incidents(app, judged["event_id"])
    assert (late.minutes_late, late.offered_rank_id) == (4, None)
    assert major.offered_rank_id is None  # just below: the first gameplay error offers nothing
    assert (not_taken.offered_rank_id, not_taken.rank_id) == ("double_prize_card", "warning")
    assert (taken.offered_rank_id, taken.rank_id) == ("double_prize_card", "double_prize_card")


def test_the_incident_csv_says_the_minutes_late_and_whether_the_offered_escalation_was_taken(app, judged):
    organizer = client(app, judged, "head_judge")
    rows = rows_of(organizer.get(f"/events/{judged['event_id']}/export/incidents.csv"))
    got = [(r["incident"], r["minutes_late"], r["offered_escalation"], r["offered_escalation_taken"]) for r in rows]
    assert got == [
        ("1", "4", "", ""),
        ("2", "", "", ""),
        ("3", "", "Double Prize Card Penalty", "no"),
        ("4", "", "Double Prize Card Penalty", "yes"),
    ]


def test_the_penalties_by_player_csv_says_them_too(app, judged):
    organizer = client(app, judged, "head_judge")
    rows = rows_of(organizer.get(f"/events/{judged['event_id']}/export/player-penalties.csv"))
    got = [(r["incident"], r["minutes_late"], r["offered_escalation_taken"]) for r in rows]
    assert got == [("1", "4", ""), ("2", "", ""), ("3", "", "no"), ("4", "", "yes")]


def test_the_post_event_report_lists_the_minutes_late_and_the_offered_escalations(app, judged):
    page = client(app, judged, "head_judge").get(f"/events/{judged['event_id']}/report").get_data(as_text=True)
    section = page.split('id="judged"')[1].split("</ul>")[0]
    assert "Minutes late, games, same-cause links and offered escalations (3)" in page
    assert "4 minutes late" in section
    assert "escalation to Double Prize Card Penalty offered: not taken" in section
    assert "escalation to Double Prize Card Penalty offered: taken" in section
    assert section.count("<li>") == 3  # #2 had neither
