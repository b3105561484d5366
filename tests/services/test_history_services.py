"""A player's history at an event (judgeapp/history.py): the earlier penalties that count, once each, as the policy's
repeat scope says, the same for the player page, the engine and the phone's copy."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import update

from judgeapp import history
from judgeapp.infractions import Policy, RepeatScope, suggest
from judgeapp.models import Incident, SubjectKind, utcnow
from judgeapp.offline.services import standing_priors
from tests.services.conftest import World

pytestmark = pytest.mark.db


def day_scoped(policy: Policy) -> Policy:
    return policy.with_window(RepeatScope.DAY)


def test_the_player_page_counts_only_this_event_days_penalties_when_the_policy_counts_repeats_by_day(world: World):
    from judgeapp.events.round_services import set_round_day, start_round

    world.log(player="P-001", infraction="3.5.2", penalty="warning")  # round 1, Day 1
    head = world.user("head_judge")
    day_two = start_round(world.session, actor=head, event=world.event)
    set_round_day(world.session, actor=head, event=world.event, rnd=day_two, day=2)
    world.session.commit()
    policy, player = day_scoped(world.policy), world.player("P-001")
    (group,) = history.player_history(world.session, policy, world.event, player)
    priors = history.priors_of_players(world.session, world.event, [player.id])
    engine = suggest(policy, world.event.level, "3.5.2", priors, today=2)
    assert not engine.upgraded  # Day 1's warning does not count on Day 2
    assert (group.code, group.counting, group.next_upgraded) == ("3.5", 0, engine.upgraded)


def test_the_player_page_and_the_engine_agree_on_an_upgrade_within_the_scope(world: World):
    world.log(player="P-001", infraction="3.5.2", penalty="warning")
    # logged before midnight on the calendar: still the same day of the event (its round's), so it still counts
    world.session.execute(update(Incident).values(created_at=utcnow() - timedelta(days=1)))
    world.session.commit()
    player = world.player("P-001")
    for policy in (world.policy, day_scoped(world.policy)):
        (group,) = history.player_history(world.session, policy, world.event, player)
        priors = history.priors_of_players(world.session, world.event, [player.id])
        engine = suggest(policy, world.event.level, "3.5.2", priors, today=1)
        assert engine.upgraded and (group.counting, group.next_upgraded) == (1, True), policy.repeat_rules


def test_a_team_penalty_counts_once_for_the_team_and_once_in_the_phones_copy(world: World):
    world.log(subject_kind=SubjectKind.TEAM, team="Blue Lions", player="", infraction="3.5.2", penalty="warning")
    members = [world.player("P-001").id, world.player("P-002").id]
    priors = history.priors_of_players(world.session, world.event, members)
    copy = standing_priors(world.session, world.event)
    assert [p.ref for p in priors] == [1]
    assert [(p["ref"], sorted(p["players"])) for p in copy] == [(1, sorted(members))]
