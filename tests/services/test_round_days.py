"""Multi-day events (issue 34): a round belongs to one of the event's days (Day 1, Day 2…); the policy's "day" window
counts the event's days, not calendar dates, and a Day 2 continues the same event's history. The rule is the Magic
IPG's (mtg-ipg): a second Warning for the same Tournament Error on the same day is a Game Loss. Every incident here
is logged on one calendar date, so only the event's days can tell Day 1 from Day 2. Runs on SQLite and PostgreSQL."""

from __future__ import annotations

from uuid import uuid4

import pytest

from judgeapp.errors import FieldError
from judgeapp.events import round_services
from judgeapp.history import player_history
from judgeapp.incidents.services import IncidentInput, log_incident
from judgeapp.infractions import Catalog, Policy
from judgeapp.models import Round

from .conftest import World

pytestmark = pytest.mark.db

OUTSIDE_ASSISTANCE_MINOR = "3.3"  # a Tournament Error whose default is a Warning at Professional REL


@pytest.fixture
def policy(catalog: Catalog) -> Policy:
    return catalog.policy("mtg-ipg")


@pytest.fixture
def magic(world: World) -> World:
    """The floor event enforcing the Magic IPG at Professional REL, round 1 (Day 1) running."""
    world.event.policy_id = "mtg-ipg"
    world.session.commit()
    return world


def start(world: World, *, day: int | None = None) -> Round:
    rnd = round_services.start_round(world.session, actor=world.user("head_judge"), event=world.event)
    if day is not None:
        round_services.set_round_day(world.session, actor=world.user("head_judge"), event=world.event, rnd=rnd, day=day)
    world.session.commit()
    return rnd


def warn(world: World, round_number: int, player: str = "P-003", rank: str = "warning"):
    """Log the infraction as the judge does, giving `rank` (the engine's suggestion is on the incident)."""
    data = IncidentInput(
        key=uuid4().hex, infraction_code=OUTSIDE_ASSISTANCE_MINOR, round_number=round_number, table_number=2,
        player_text=player, rank_id=rank,
    )  # fmt: skip
    who = world.user("floor_judge")
    result = log_incident(world.session, world.policy, actor=who, roles=world.roles("floor_judge"),
                          event=world.event, data=data)  # fmt: skip
    world.session.commit()
    return result.incident


def test_a_second_warning_on_the_same_event_day_in_a_later_round_is_a_game_loss(magic):
    warn(magic, 1)
    start(magic)  # round 2 continues Day 1
    second = warn(magic, 2, rank="game_loss")
    assert second.upgraded and second.suggested_rank_id == "game_loss"


def test_the_first_warning_of_the_day_just_below_the_threshold_stays_a_warning(magic):
    first = warn(magic, 1)
    assert not first.upgraded and first.suggested_rank_id == "warning"


def test_day_two_starts_the_days_count_again_on_the_same_calendar_date(magic):
    warn(magic, 1)
    start(magic, day=2)
    on_day_two = warn(magic, 2)
    assert not on_day_two.upgraded and on_day_two.suggested_rank_id == "warning"
    start(magic)  # round 3 continues Day 2: the second Warning of Day 2 is the threshold
    again = warn(magic, 3, rank="game_loss")
    assert again.upgraded and again.suggested_rank_id == "game_loss"
    assert again.upgrade_refs == [on_day_two.number]  # Day 2's Warning, not Day 1's


def test_day_two_continues_the_same_events_history(magic):
    first = warn(magic, 1)
    start(magic, day=2)
    warn(magic, 2)
    [group] = player_history(magic.session, magic.policy, magic.event, magic.player("P-003"))
    assert [i.number for i in group.incidents][-1] == first.number  # Day 1's penalty is in the player's history
    assert group.next_upgraded  # Day 2 holds one Warning for 3.3: the next one today is a Game Loss


def test_a_round_is_on_its_previous_rounds_day_or_the_next_and_the_change_is_audited(magic):
    rnd = start(magic)
    assert rnd.day == 1 and round_services.days_open_to(magic.session, rnd) == [1, 2]
    with pytest.raises(FieldError) as refused:
        round_services.set_round_day(magic.session, actor=magic.user("head_judge"), event=magic.event, rnd=rnd, day=3)
    magic.session.rollback()
    assert refused.value.field == "day"
    first = magic.session.get(Round, rnd.id - 1) if rnd.id > 1 else None
    assert first is not None and round_services.days_open_to(magic.session, first) == [1]  # round 1 is Day 1
    round_services.set_round_day(magic.session, actor=magic.user("head_judge"), event=magic.event, rnd=rnd, day=2)
    magic.session.commit()
    assert start(magic).day == 2  # a new round continues the day of the round before it
    [entry] = magic.entries("round.day")
    assert entry.details["changes"] == {"day": [1, 2]} and entry.details["number"] == 2
