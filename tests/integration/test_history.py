"""A player's history at an event (judgeapp/history.py): the earlier penalties that count, once each, as the policy's
repeat scope says, the same for the player page, the engine and the phone's copy."""
from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest
from sqlalchemy import update

from judgeapp import history
from judgeapp.extensions import db, event_policy
from judgeapp.infractions import RepeatScope, suggest
from judgeapp.models import Event, Incident, Player, utcnow
from judgeapp.offline.services import standing_priors
from tests.integration.test_incidents import log, signed_in

pytestmark = pytest.mark.db


def day_scoped(policy):
    return dataclasses.replace(policy, repeat_scope=RepeatScope.DAY, _by_code={})


def test_the_player_page_counts_only_todays_penalties_when_the_policy_counts_repeats_by_day(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    log(judge, floor["event_id"], player="P-001", infraction="3.5.2", penalty="warning")
    with app.app_context():
        db.session.execute(update(Incident).values(created_at=utcnow() - timedelta(days=1)))  # logged yesterday
        db.session.commit()
        event = db.session.get(Event, floor["event_id"])
        policy = day_scoped(event_policy(event))
        player = db.session.get(Player, floor["players"]["P-001"])
        (group,) = history.player_history(db.session, policy, event, player)
        priors = history.priors_of_players(db.session, event, [player.id])
        engine = suggest(policy, event.level, "3.5.2", priors, today=utcnow().date())
    assert not engine.upgraded  # yesterday's warning does not count today
    assert (group.code, group.counting, group.next_upgraded) == ("3.5", 0, engine.upgraded)


def test_the_player_page_and_the_engine_agree_on_an_upgrade_within_the_scope(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    log(judge, floor["event_id"], player="P-001", infraction="3.5.2", penalty="warning")
    with app.app_context():
        event = db.session.get(Event, floor["event_id"])
        player = db.session.get(Player, floor["players"]["P-001"])
        for policy in (event_policy(event), day_scoped(event_policy(event))):
            (group,) = history.player_history(db.session, policy, event, player)
            priors = history.priors_of_players(db.session, event, [player.id])
            engine = suggest(policy, event.level, "3.5.2", priors, today=utcnow().date())
            assert engine.upgraded and (group.counting, group.next_upgraded) == (1, True), policy.repeat_scope


def test_a_team_penalty_counts_once_for_the_team_and_once_in_the_phones_copy(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    log(judge, floor["event_id"], subject_kind="team", team="Blue Lions", infraction="3.5.2", penalty="warning")
    with app.app_context():
        event = db.session.get(Event, floor["event_id"])
        members = [floor["players"]["P-001"], floor["players"]["P-002"]]
        priors = history.priors_of_players(db.session, event, members)
        copy = standing_priors(db.session, event)
    assert [p.ref for p in priors] == [1]
    assert [(p["ref"], sorted(p["players"])) for p in copy] == [(1, sorted(members))]
