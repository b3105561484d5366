"""Appeals through judgeapp/appeals/services.py: filing, challenges, decisions, proxies and the ruling judge hearing
back, asserted on the stored appeals, incidents and audit entries."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from judgeapp.appeals import services
from judgeapp.errors import FieldError
from judgeapp.incidents.edit_services import void_incident
from judgeapp.models import Appeal, AppealStatus, IncidentStatus, Investigation
from tests.services.conftest import World
from tests.services.test_incident_services import next_suggestion

pytestmark = pytest.mark.db


@pytest.fixture
def ruled(world: World) -> World:
    """The floor judge has given Aiko Mori (P-001, table 2 against Chen Yu P-003 in the pairings) a warning."""
    world.seat("1,P-002,P-004\n2,P-001,P-003\n")
    world.log(player="P-001", infraction="3.5.2", penalty="warning")
    return world


def file(
    world: World,
    number: int = 1,
    *,
    code: str = "P-001",
    contest: str = "The effect was resolved.",
    key: str | None = None,
    who: str = "floor_judge",
    contests: str | None = None,
) -> tuple[Appeal, bool]:
    """File the appeal of `code`'s side as the appeal form does, under the event's policy, then commit. The penalized
    player contests the whole ruling, the opponent the remedy (Bushiroad Floor Rules 1.2.1), unless told otherwise."""
    from uuid import uuid4

    if contests is None:
        contests = "remedy" if code == "P-003" else "both"
    data = services.AppealInput(
        key=key or uuid4().hex, appellant=f"player:{world.player(code).id}", contest=contest, contests=contests
    )
    appeal, created = services.file_appeal(
        world.session,
        actor=world.user(who),
        event=world.event,
        incident=world.incident(number),
        data=data,
        policy=world.policy,
    )
    world.session.commit()
    return appeal, created


def appeal(world: World, number: int = 1) -> Appeal:
    found = services.appeal_by_number(world.session, world.event, number)
    assert found is not None
    return found


def decide(
    world: World,
    number: int = 1,
    *,
    who: str = "head_judge",
    outcome: str = "upheld",
    reason: str = "",
    count_challenge: bool = True,
    **changes,
) -> None:
    services.decide(
        world.session,
        world.policy,
        actor=world.user(who),
        roles=world.roles(who),
        event=world.event,
        appeal=appeal(world, number),
        data=services.Decision(outcome=outcome, reason=reason, count_challenge=count_challenge, **changes),
    )
    world.session.commit()


def delegate(world: World, proxy: str | None, number: int = 1) -> None:
    proxy_id = world.user(proxy).id if proxy else None
    services.delegate(
        world.session,
        actor=world.user("head_judge"),
        roles=world.roles("head_judge"),
        event=world.event,
        appeal=appeal(world, number),
        proxy_id=proxy_id,
        policy=world.policy,
    )
    world.session.commit()


@pytest.fixture
def proxied(ruled: World) -> World:
    """The same ruling under a house variant of Bushiroad that provides a proxy (the text names none): challenges are
    still set by the event and used up only by the head judge's own decision (Floor Rules 1.2.2)."""
    from dataclasses import replace

    ruled.policy = replace(
        ruled.policy, appeals=replace(ruled.policy.appeals, proxy=True, proxy_section="house rule"), _by_code={}
    )
    return ruled


def appeals(world: World) -> list[Appeal]:
    return list(world.session.scalars(select(Appeal).order_by(Appeal.number)))


def challenge_limit(world: World, limit: int | None) -> None:
    world.event.challenge_limit = limit
    world.session.commit()


# ---- filing -------------------------------------------------------------------------------------------------------


def test_the_penalized_player_and_the_opponent_at_the_table_may_appeal(ruled):
    choices = services.appellants_of(ruled.session, ruled.event, ruled.incident(1))
    assert [(a.name, a.penalized, a.may_appeal) for a in choices] == [
        ("Aiko Mori", True, True),
        ("Chen Yu", False, True),
    ]


def test_an_appeal_keeps_who_appeals_what_they_contest_and_the_ruling_as_it_stood(ruled):
    _, created = file(ruled, code="P-003", contest="Opponent says the discard should have been random")
    assert created
    [stored] = appeals(ruled)
    assert (stored.appellant_name, stored.appellant_is_penalized, stored.contest, stored.status) == (
        "Chen Yu",
        False,
        "Opponent says the discard should have been random",
        AppealStatus.OPEN,
    )
    assert (stored.ruling["infraction_code"], stored.ruling["rank_id"], stored.ruling_judge_id) == (
        "3.5.2",
        "warning",
        ruled.user("floor_judge").id,
    )
    [entry] = ruled.entries("appeal.file")
    assert (entry.object_id, entry.details["appellant"], entry.note) == (stored.id, "Chen Yu", stored.contest)


def test_a_retried_appeal_is_stored_once(ruled):
    first, _ = file(ruled, key="appeal-key-retried-000001")
    again, created = file(ruled, key="appeal-key-retried-000001")
    assert (created, again.id) == (False, first.id)
    assert len(appeals(ruled)) == 1 and len(ruled.entries("appeal.file")) == 1


def test_a_ruling_cannot_be_appealed_before_the_head_judge_decides_a_recommended_penalty(ruled):
    ruled.log(player="P-003", infraction="4.1", penalty="disqualification")
    with pytest.raises(FieldError) as caught:
        file(ruled, 2, code="P-003")
    ruled.session.rollback()
    assert caught.value.message == (
        "The ruling is not complete: the head judge has not decided the recommended penalty yet."
    )
    assert appeals(ruled) == []


def test_the_head_judges_own_ruling_is_final(ruled):
    ruled.log("head_judge", player="P-002", table=1, infraction="3.5.2", penalty="warning")
    with pytest.raises(FieldError) as caught:
        file(ruled, 2, code="P-002")
    ruled.session.rollback()
    assert caught.value.message == "The head judge made this ruling: it is final."
    assert appeals(ruled) == []


# ---- challenges ---------------------------------------------------------------------------------------------------


def test_an_upheld_appeal_spends_one_challenge_and_an_overturned_one_does_not(ruled):
    challenge_limit(ruled, 2)
    file(ruled)
    decide(ruled, outcome="upheld")
    ruled.log(player="P-001", infraction="3.1.1", penalty="loss_of_game")
    file(ruled, 2)
    decide(ruled, 2, outcome="overturned", reason="Not a 3.1.1")
    assert [(a.status, a.uses_challenge) for a in appeals(ruled)] == [
        (AppealStatus.UPHELD, True),
        (AppealStatus.OVERTURNED, False),
    ]
    left = services.challenges_of(ruled.session, ruled.event, ruled.player("P-001"))
    assert services.challenges_text(left) == "1 of 2 challenges left"


def test_the_head_judge_may_decide_an_upheld_appeal_does_not_count(ruled):
    challenge_limit(ruled, 1)
    file(ruled)
    decide(ruled, outcome="upheld", count_challenge=False)
    assert not appeals(ruled)[0].uses_challenge
    assert services.challenges_of(ruled.session, ruled.event, ruled.player("P-001")).may_appeal


def test_a_player_with_no_challenge_left_cannot_appeal(ruled):
    challenge_limit(ruled, 1)
    file(ruled)
    decide(ruled, outcome="upheld")
    ruled.log(player="P-001", infraction="3.1.1", penalty="loss_of_game")
    with pytest.raises(FieldError) as caught:
        file(ruled, 2)
    ruled.session.rollback()
    assert caught.value.message == "Aiko Mori has no challenge left (0 of 1 challenge left); the ruling stands."
    assert len(appeals(ruled)) == 1


def test_an_appeal_waiting_for_a_decision_holds_the_last_challenge(ruled):
    challenge_limit(ruled, 1)
    file(ruled)
    ruled.log(player="P-001", infraction="3.1.1", penalty="loss_of_game")
    with pytest.raises(FieldError) as caught:
        file(ruled, 2)
    ruled.session.rollback()
    assert "1 appeal waiting for a decision" in caught.value.message
    assert len(appeals(ruled)) == 1


def test_when_both_players_appeal_each_spends_a_challenge_if_the_ruling_is_upheld(ruled):
    challenge_limit(ruled, 2)
    file(ruled, code="P-001")
    with pytest.raises(FieldError) as caught:
        file(ruled, code="P-001")
    ruled.session.rollback()
    assert caught.value.message == "Aiko Mori's appeal of this ruling is already waiting for a decision."
    file(ruled, code="P-003")
    decide(ruled, 1, outcome="upheld")
    decide(ruled, 2, outcome="upheld")
    assert [(a.appellant_name, a.uses_challenge) for a in appeals(ruled)] == [("Aiko Mori", True), ("Chen Yu", True)]


# ---- decisions ----------------------------------------------------------------------------------------------------


def test_an_overturned_penalty_no_longer_counts_for_upgrades(ruled):
    assert next_suggestion(ruled, "P-001", "3.5.1.1").upgraded
    file(ruled)
    decide(ruled, outcome="overturned", reason="The player had resolved it correctly")
    incident = ruled.incident(1)
    assert (incident.status, incident.status_reason) == (
        IncidentStatus.OVERTURNED,
        "The player had resolved it correctly",
    )
    assert not next_suggestion(ruled, "P-001", "3.5.1.1").upgraded


def test_a_changed_penalty_replaces_the_old_one_and_the_old_ruling_stays_on_the_appeal(ruled):
    file(ruled)
    decide(
        ruled,
        outcome="changed",
        infraction_code="3.2.1",
        rank_id="loss_of_game",
        reason="It was a procedure error that changed the game state",
    )
    incident = ruled.incident(1)
    assert (incident.infraction_code, incident.rank_id, incident.status) == (
        "3.2.1",
        "loss_of_game",
        IncidentStatus.STANDING,
    )
    [stored] = appeals(ruled)
    assert stored.ruling["rank_id"] == "warning"
    assert stored.new_ruling == {"infraction_code": "3.2.1", "rank_id": "loss_of_game"}
    [entry] = ruled.entries("incident.appeal_decision")
    assert entry.details["changed"]["infraction_code"] == ["3.5.2", "3.2.1"]
    assert entry.details["changed"]["rank_id"] == ["warning", "loss_of_game"]
    # the history counts the new ruling: a second 3.2 is a repeat, a second 3.5 is not
    assert next_suggestion(ruled, "P-001", "3.2.1").upgraded
    assert not next_suggestion(ruled, "P-001", "3.5.1.1").upgraded


def test_overturning_or_changing_needs_a_reason(ruled, subtests):
    file(ruled)
    for outcome, changes in (("overturned", {}), ("changed", {"rank_id": "loss_of_game"})):
        with subtests.test(outcome):
            with pytest.raises(FieldError) as caught:
                decide(ruled, outcome=outcome, reason=" ", **changes)
            ruled.session.rollback()
            assert caught.value.message.startswith("Give the reason for the decision")
            assert appeals(ruled)[0].status is AppealStatus.OPEN and ruled.incident(1).rank_id == "warning"
            assert ruled.entries("appeal.decide") == []


def test_an_appeal_is_decided_once(ruled, refused):
    file(ruled)
    decide(ruled, outcome="upheld")
    with refused(409) as caught:
        decide(ruled, outcome="overturned", reason="second thoughts")
    assert caught.value.decision.why == "This appeal is already decided: upheld."
    assert appeals(ruled)[0].status is AppealStatus.UPHELD and len(ruled.entries("appeal.decide")) == 1


def test_after_the_head_judge_decided_an_appeal_of_it_the_ruling_is_final(ruled):
    file(ruled)
    decide(ruled, outcome="upheld")
    with pytest.raises(FieldError) as caught:
        file(ruled)
    ruled.session.rollback()
    assert caught.value.message == "The head judge has decided an appeal of this ruling: their decision is final."


def test_only_the_head_judge_decides(ruled, refused, subtests):
    file(ruled)
    for who in ("floor_judge", "other_floor", "scorekeeper", "organizer"):
        with subtests.test(who):
            with refused(403):
                decide(ruled, who=who, outcome="overturned", reason="no")
            assert appeals(ruled)[0].status is AppealStatus.OPEN and ruled.entries("appeal.decide") == []


def test_while_an_appeal_waits_the_floor_judge_cannot_void_the_ruling_and_nothing_is_written(ruled, refused):
    file(ruled)
    with refused(409) as caught:
        void_incident(
            ruled.session,
            ruled.policy,
            actor=ruled.user("floor_judge"),
            roles=ruled.roles("floor_judge"),
            event=ruled.event,
            incident=ruled.incident(1),
            reason="changed my mind",
        )
    assert caught.value.decision.why.startswith("This incident is under appeal: only the head judge may change it now")
    assert ruled.incident(1).status is IncidentStatus.STANDING and ruled.entries("incident.void") == []


# ---- proxies --------------------------------------------------------------------------------------------------------


def test_the_head_judge_delegates_one_appeal_to_a_proxy_who_decides_it_in_their_place(proxied):
    file(proxied)
    delegate(proxied, "other_floor")
    assert appeals(proxied)[0].proxy_id == proxied.user("other_floor").id
    assert services.waiting_for(proxied.session, proxied.user("other_floor")) == 1
    decide(proxied, who="other_floor", outcome="overturned", reason="Misread the card")
    [stored] = appeals(proxied)
    assert (stored.status, stored.decided_as_proxy, stored.decided_by_id) == (
        AppealStatus.OVERTURNED,
        True,
        proxied.user("other_floor").id,
    )
    assert proxied.entries("appeal.decide")[0].details["as_proxy"] is True


def test_taking_an_appeal_back_from_the_proxy_is_recorded(proxied):
    file(proxied)
    delegate(proxied, "other_floor")
    delegate(proxied, None)
    assert appeals(proxied)[0].proxy_id is None
    proxy = proxied.user("other_floor").id
    moves = [e for e in proxied.entries() if e.action in ("appeal.delegate", "appeal.take_back")]
    assert [(e.action, e.details["changed"]["proxy"]) for e in moves] == [
        ("appeal.delegate", [None, proxy]),
        ("appeal.take_back", [proxy, None]),
    ]


def test_the_judge_whose_ruling_is_appealed_cannot_be_the_proxy(proxied):
    file(proxied)
    with pytest.raises(FieldError) as caught:
        delegate(proxied, "floor_judge")
    proxied.session.rollback()
    assert caught.value.message == "Choose a floor judge of this event who did not make the ruling."
    assert appeals(proxied)[0].proxy_id is None and proxied.entries("appeal.delegate") == []


def test_a_proxy_cannot_decide_appeals_not_delegated_to_them(proxied, refused):
    file(proxied)
    with refused(403):
        decide(proxied, who="other_floor", outcome="upheld")
    assert appeals(proxied)[0].status is AppealStatus.OPEN


def test_after_a_proxy_rules_the_player_may_appeal_once_more_to_the_head_judge_alone(proxied, refused):
    file(proxied)
    delegate(proxied, "other_floor")
    decide(proxied, who="other_floor", outcome="upheld")
    file(proxied)
    with refused(409) as caught:
        delegate(proxied, "other_floor", number=2)
    assert "A proxy has already ruled on this incident" in caught.value.decision.why
    decide(proxied, 2, outcome="overturned", reason="Final: no penalty")
    assert [a.status for a in appeals(proxied)] == [AppealStatus.UPHELD, AppealStatus.OVERTURNED]


def test_a_proxy_who_changes_a_ruling_to_a_disqualification_only_recommends_it_and_it_is_investigated(proxied):
    file(proxied)
    delegate(proxied, "other_floor")
    decide(
        proxied,
        who="other_floor",
        outcome="changed",
        infraction_code="4.1",
        rank_id="disqualification",
        reason="Deliberate",
    )
    incident = proxied.incident(1)
    assert (incident.rank_id, incident.status) == ("disqualification", IncidentStatus.RECOMMENDED)
    assert proxied.session.scalars(select(Investigation)).one().incident_id == incident.id


def test_every_appeal_state_change_writes_one_audit_entry(proxied):
    file(proxied)
    delegate(proxied, "other_floor")
    decide(proxied, who="other_floor", outcome="upheld")
    actions = [e.action for e in proxied.entries() if e.object_type == "Appeal"]
    assert actions == ["appeal.file", "appeal.delegate", "appeal.decide"]


# ---- the ruling judge hears back -------------------------------------------------------------------------------------


def test_the_ruling_judge_hears_of_the_decision_until_they_acknowledge_it_once(ruled):
    file(ruled)
    decide(ruled, outcome="overturned", reason="Resolved correctly after all")
    judge, head = ruled.user("floor_judge"), ruled.user("head_judge")
    assert [a.number for a in services.decisions_to_see(ruled.session, judge)] == [1]
    assert services.decisions_to_see(ruled.session, head) == []
    for _ in range(2):  # a double tap on "Got it"
        services.acknowledge(
            ruled.session, actor=judge, roles=ruled.roles("floor_judge"), event=ruled.event, appeal=appeal(ruled)
        )
        ruled.session.commit()
    assert services.decisions_to_see(ruled.session, judge) == []
    assert [e.action for e in ruled.entries() if e.object_type == "Appeal"] == [
        "appeal.file",
        "appeal.decide",
        "appeal.seen",
    ]


def test_only_the_judge_whose_ruling_was_appealed_acknowledges_the_decision(ruled, refused):
    file(ruled)
    decide(ruled, outcome="upheld")
    with refused(403):
        services.acknowledge(
            ruled.session,
            actor=ruled.user("other_floor"),
            roles=ruled.roles("other_floor"),
            event=ruled.event,
            appeal=appeal(ruled),
        )
    assert appeal(ruled).seen_by_judge_at is None


# ---- the policy's appeal rules ---------------------------------------------------------------------------------------


def test_under_bushiroad_an_opponent_contesting_the_penalty_is_refused_floor_rules_1_2_1(ruled):
    with pytest.raises(FieldError) as caught:
        file(ruled, code="P-003", contests="penalty")
    ruled.session.rollback()
    assert caught.value.field == "contests" and "1.2.1" in caught.value.message
    assert appeals(ruled) == [] and ruled.entries("appeal.file") == []


def test_bushiroad_names_no_proxy_so_delegating_is_refused(ruled):
    file(ruled)
    with pytest.raises(FieldError) as caught:
        delegate(ruled, "other_floor")
    ruled.session.rollback()
    assert caught.value.field == "proxy" and appeals(ruled)[0].proxy_id is None


def test_a_proxys_upheld_decision_never_uses_a_challenge_where_only_the_head_judges_decision_counts(proxied):
    challenge_limit(proxied, 1)
    file(proxied)
    delegate(proxied, "other_floor")
    decide(proxied, who="other_floor", outcome="upheld")
    assert appeals(proxied)[0].uses_challenge is False  # a proxy's second ruling is not the head judge's decision
    file(proxied)
    decide(proxied, 2, outcome="upheld")
    assert [a.uses_challenge for a in appeals(proxied)] == [False, True]


def test_where_any_decision_counts_a_proxys_upheld_decision_uses_a_challenge(proxied):
    from dataclasses import replace

    proxied.policy = replace(
        proxied.policy, appeals=replace(proxied.policy.appeals, challenge_spent_by="any_decision"), _by_code={}
    )
    challenge_limit(proxied, 1)
    file(proxied)
    delegate(proxied, "other_floor")
    decide(proxied, who="other_floor", outcome="upheld")
    assert appeals(proxied)[0].uses_challenge is True


def test_a_remedy_only_appeal_cannot_be_overturned_nor_change_the_penalty(ruled):
    file(ruled, code="P-003")
    for outcome, changes in (("overturned", {}), ("changed", {"rank_id": "loss_of_game"})):
        with pytest.raises(FieldError):
            decide(ruled, outcome=outcome, reason="No", **changes)
        ruled.session.rollback()
    decide(ruled, outcome="changed", reason="Reveal the hand and discard at random")
    stored = appeals(ruled)[0]
    assert stored.new_ruling == {"remedy": "Reveal the hand and discard at random"}
    assert (ruled.incident(1).rank_id, ruled.incident(1).status) == ("warning", IncidentStatus.STANDING)
