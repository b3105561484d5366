"""A disqualification decided by a number of judges (issue 35), from the Play! Pokémon Penalty Guidelines (January 1,
2026) 4.1: "In the case of a Disqualification penalty at events at the level of Regional Championships, Special
Championships, or above, at least three Judges (including the Head Judge) must conclude that applying a
Disqualification penalty is the most appropriate course of action." The head judge issues it with the two other judges
of the event's staff who agreed, recorded with it (distinct, audited) and shown on the DQ report; with fewer, it is
refused at the field with the ticks kept. Below Regional Championships no count is asked (just below the level)."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from judgeapp.extensions import db
from judgeapp.models import AuditEntry, IncidentStatus
from tests.integration.staffed import give, staffed_event
from tests.integration.test_assistant_head_judge import client, url
from tests.integration.test_incidents import incidents
from tests.integration.test_investigations import pdf_text

# Not `db`: who decides is decided in Python (permissions, the engine), the rows go through the ORM
# (docs/contributing/tests.md)
# (the agreements' unique index is `db`)

REGIONALS, LEAGUE = 2, 1


def staffed(app, make_user, make_event, level, policy_id="pokemon"):
    roles = {
        "head_judge": "head_judge",
        "assistant": "assistant_head_judge",
        "floor_judge": "floor_judge",
        "second_floor": "floor_judge",
    }
    return staffed_event(app, make_user, make_event, policy_id=policy_id, level=level, roles=roles)


@pytest.fixture
def regionals(app, make_user, make_event):
    """A Pokémon Regional Championships: head judge, an assistant head judge, two floor judges, one player."""
    return staffed(app, make_user, make_event, REGIONALS)


def agreements(app):
    from judgeapp.models import DisqualificationJudge

    with app.app_context():
        return [r.user_id for r in db.session.scalars(select(DisqualificationJudge).order_by(DisqualificationJudge.id))]


def accept(app, event, *judges):
    head = client(app, event, "head_judge")
    return head.post(
        url(event, 1, "/accept"),
        data={"csrf_token": _token(head, event), "judges": [str(event["people"][j][0]) for j in judges]},
    )


def _token(c, event):
    page = c.get(url(event, 1)).get_data(as_text=True)
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)


def test_4_1_at_regionals_the_head_judge_cannot_issue_it_with_one_other_judge_the_message_at_the_field_ticks_kept(
    app, regionals
):
    give(app, regionals, "floor_judge", "5.4", "disqualification")
    page = client(app, regionals, "head_judge").get(url(regionals, 1)).get_data(as_text=True)
    assert 'id="judges-field"' in page and "At this level 3 judges decide a disqualification" in page
    refused = accept(app, regionals, "floor_judge")  # the head judge and one other: just below the count
    assert refused.status_code == 422
    body = refused.get_data(as_text=True)
    error = re.search(r'<p id="judges-error" class="error" role="alert">([^<]*)</p>', body).group(1)
    assert "decided by 3 judges, the head judge among them (4.1): tick the 2 other judges who agreed" in error
    ticked = re.findall(r'<input type="checkbox" name="judges" value="(\d+)" checked>', body)
    assert ticked == [str(regionals["people"]["floor_judge"][0])]
    (incident,) = incidents(app, regionals["event_id"])
    assert incident.status is IncidentStatus.RECOMMENDED and agreements(app) == []


def test_4_1_at_regionals_two_other_judges_agreeing_issue_it_recorded_audited_and_on_the_report(
    app, regionals, tmp_path
):
    give(app, regionals, "floor_judge", "5.4", "disqualification")
    assert accept(app, regionals, "floor_judge", "assistant").status_code == 302  # at the count
    (incident,) = incidents(app, regionals["event_id"])
    assert incident.status is IncidentStatus.STANDING
    people = regionals["people"]
    assert agreements(app) == [people["floor_judge"][0], people["assistant"][0]]
    with app.app_context():
        entry = db.session.scalar(select(AuditEntry).where(AuditEntry.action == "incident.accept"))
        assert entry.details["agreed"] == [people["floor_judge"][0], people["assistant"][0]]
    pdf = client(app, regionals, "head_judge").get(f"/events/{regionals['event_id']}/investigations/1/report.pdf")
    assert pdf.status_code == 200
    words = " ".join(pdf_text(pdf.data, tmp_path).split())
    assert "Judges who agreed Floor Judge, Assistant · 3 judges, the head judge among them (4.1)" in words


@pytest.mark.db  # uq_disqualification_judges_incident_user: a judge ticked twice is stored once
def test_4_1_a_judge_ticked_twice_counts_once_and_only_the_events_judges_count(app, regionals, make_user):
    give(app, regionals, "floor_judge", "5.4", "disqualification")
    head = client(app, regionals, "head_judge")
    same = str(regionals["people"]["floor_judge"][0])
    twice = head.post(
        url(regionals, 1, "/accept"), data={"csrf_token": _token(head, regionals), "judges": [same, same]}
    )
    assert twice.status_code == 422
    outsider, _ = make_user(name="Not Staff")
    foreign = head.post(
        url(regionals, 1, "/accept"), data={"csrf_token": _token(head, regionals), "judges": [same, str(outsider)]}
    )
    assert foreign.status_code == 422 and "Choose judges of this event&#39;s staff." in foreign.get_data(as_text=True)
    organizer = str(regionals["organizer"][0])
    assert (
        head.post(
            url(regionals, 1, "/accept"), data={"csrf_token": _token(head, regionals), "judges": [same, organizer]}
        ).status_code
        == 422
    )
    assert agreements(app) == []


def test_4_1_the_head_judges_own_disqualification_at_regionals_waits_for_the_judges(app, regionals):
    incident = give(app, regionals, "head_judge", "5.4", "disqualification")
    assert incident.status is IncidentStatus.RECOMMENDED
    assert accept(app, regionals, "second_floor").status_code == 422
    assert accept(app, regionals, "second_floor", "assistant").status_code == 302


def test_4_1_below_regionals_the_head_judge_issues_it_alone(app, make_user, make_event):
    league = staffed(app, make_user, make_event, LEAGUE)
    give(app, league, "floor_judge", "5.4", "disqualification")
    assert 'id="judges-field"' not in client(app, league, "head_judge").get(url(league, 1)).get_data(as_text=True)
    assert accept(app, league).status_code == 302
    assert incidents(app, league["event_id"])[0].status is IncidentStatus.STANDING
    assert give(app, league, "head_judge", "5.4", "disqualification").status is IncidentStatus.STANDING
