"""A generated, finished event for the post-event report: players, rounds, incidents (some void, overturned,
upgraded, disqualified with a finalized investigation), appeals of every outcome, deck checks and time extensions.

Rows are inserted directly (the report reads records; it does not care how they were logged), seeded, so a size
always gives the same event. Used by bench/event_report.py and by the test that checks page, PDF and CSV agree.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from sqlalchemy.orm import Session

from judgeapp.infractions import ExtensionReason, Policy
from judgeapp.models import (
    Appeal,
    AppealStatus,
    DeckCheck,
    DeckCheckPlayer,
    DeckCheckResult,
    Event,
    Incident,
    IncidentStatus,
    IncidentSubject,
    Investigation,
    InvestigationStatus,
    Pairing,
    Player,
    Role,
    Round,
    StaffAssignment,
    Statement,
    StatementRole,
    SubjectKind,
    TimeExtension,
    User,
)

FIRST = [
    "Aiko",
    "Ben",
    "Chen",
    "Dana",
    "Emil",
    "Fatima",
    "Goro",
    "Hana",
    "Ivan",
    "Jun",
    "Kaito",
    "Lena",
    "Mika",
    "Noah",
    "Olga",
    "Pablo",
    "Quinn",
    "Rin",
    "Sora",
    "Tomas",
    "Uma",
    "Vera",
    "Wei",
    "Yui",
    "佐藤",
    "鈴木",
]
LAST = [
    "Mori",
    "Ode",
    "Yu",
    "Roy",
    "Berg",
    "Khan",
    "Sato",
    "Ito",
    "Petrov",
    "Kim",
    "Tanaka",
    "Novak",
    "Silva",
    "Costa",
    "Ng",
    "陽翔",
    "結衣",
]


@dataclass
class Size:
    players: int = 2000
    rounds: int = 15
    incidents: int = 1500
    deck_checks: int = 300
    extensions: int = 400
    appeals: int = 60
    disqualifications: int = 6
    judges: int = 40


def scaled(players: int) -> Size:
    """The issue's 2,000-player event, scaled down in proportion (rounds stay 15)."""
    f = players / 2000
    return Size(
        players=players,
        incidents=max(10, round(1500 * f)),
        deck_checks=max(4, round(300 * f)),
        extensions=max(5, round(400 * f)),
        appeals=max(4, round(60 * f)),
        disqualifications=max(2, round(6 * f)),
        judges=max(4, round(40 * f)),
    )


def generate_event(
    session: Session,
    policy: Policy,
    organizer: User,
    head: User,
    judges: list[User],
    size: Size,
    *,
    seed: int = 7,
    name: str = "Generated Championship",
) -> Event:
    rng = random.Random(seed)
    start = datetime(2026, 11, 1, 9, 0)
    event = Event(
        name=name,
        date=date(2026, 11, 1),
        venue="Generated Hall",
        policy_id=policy.id,
        policy_version=policy.version,
        level=2,
        rounds=size.rounds,
        round_minutes=50,
        challenge_limit=None,
        organizer_id=organizer.id,
    )
    session.add(event)
    session.flush()
    session.add(StaffAssignment(event_id=event.id, user_id=head.id, role=Role.HEAD_JUDGE))
    session.add_all(StaffAssignment(event_id=event.id, user_id=j.id, role=Role.FLOOR_JUDGE) for j in judges)
    players = [
        Player(event_id=event.id, name=f"{rng.choice(FIRST)} {rng.choice(LAST)} {n}", player_code=f"G-{n:05d}")
        for n in range(1, size.players + 1)
    ]
    session.add_all(players)
    rounds = [
        Round(
            event_id=event.id,
            number=n,
            started_at=start + timedelta(minutes=60 * (n - 1)),
            length_minutes=50,
            started_by_id=head.id,
        )
        for n in range(1, size.rounds + 1)
    ]
    session.add_all(rounds)
    session.flush()
    tables = max(1, size.players // 2)
    # Pairings only for the tables that will need them (the DQ reports name the opponent).
    seat = {}

    def table_of(rnd: Round, player: Player) -> int:
        return seat.setdefault((rnd.number, player.id), rng.randint(1, tables))

    infractions = [i for i in policy.infractions if i.penalized and i.default_at(event.level)]
    weights = [1.0 / (n + 1) for n in range(len(infractions))]  # the first infractions are the common ones
    top = policy.top_rank
    everyone = [head, *judges]
    history: dict[tuple[int, str], int] = {}
    incidents = []
    for n in range(1, size.incidents + 1):
        rnd = rounds[min(size.rounds - 1, (n - 1) * size.rounds // size.incidents)]
        player = rng.choice(players)
        infraction = rng.choices(infractions, weights)[0]
        default = infraction.default_at(event.level).min
        repeat = (player.id, infraction.subsection) in history
        rank = policy.rank_above(default) if repeat and default != top else default
        if rank == top:  # disqualifications are made below, with their investigations
            rank = policy.ranks[top.order - 1]
        status = IncidentStatus.STANDING
        roll = rng.random()
        if roll < 0.03:
            status = IncidentStatus.VOID
        incidents.append(
            Incident(
                event_id=event.id,
                number=n,
                client_key=f"gen-{event.id}-{n:06d}-incident",
                round_id=rnd.id,
                table_number=table_of(rnd, player),
                subject_kind=SubjectKind.PLAYER,
                subject_name=player.name,
                infraction_code=infraction.code,
                subsection=infraction.subsection,
                rank_id=rank.id,
                suggested_rank_id=rank.id,
                upgraded=repeat and rank != default,
                upgrade_refs=[history[(player.id, infraction.subsection)]] if repeat else [],
                description=f"Generated incident {n}.",
                status=status,
                status_reason="Logged for the wrong table." if status is IncidentStatus.VOID else None,
                judge_id=rng.choice(everyone).id,
                created_at=rnd.started_at + timedelta(minutes=rng.randint(1, 49)),
            )
        )
        incidents[-1]._player = player
        if status is IncidentStatus.STANDING:
            history[(player.id, infraction.subsection)] = n
    # Disqualifications: the last incidents become DQs given by the head judge, each investigated and finalized.
    dq_infraction = next(
        (i for i in policy.infractions if i.default_at(event.level) and i.default_at(event.level).min == top),
        infractions[-1],
    )
    for incident in incidents[-size.disqualifications :]:
        incident.infraction_code, incident.subsection = dq_infraction.code, dq_infraction.subsection
        incident.rank_id = incident.suggested_rank_id = top.id
        incident.upgraded, incident.upgrade_refs, incident.status = False, [], IncidentStatus.STANDING
        incident.judge_id = head.id
    session.add_all(incidents)
    session.flush()
    session.add_all(IncidentSubject(incident_id=i.id, player_id=i._player.id) for i in incidents)
    at_table: dict[tuple[int, int], int] = {}  # (round, table) -> seats given: each pairing its own seat there
    for (r, p), t in seat.items():
        at_table[(r, t)] = at_table.get((r, t), 0) + 1
        session.add(Pairing(event_id=event.id, round_number=r, player_id=p, table_number=t, seat=at_table[(r, t)]))
    for k, incident in enumerate(incidents[-size.disqualifications :], start=1):
        inv = Investigation(
            event_id=event.id,
            number=k,
            incident_id=incident.id,
            opened_by_id=head.id,
            opened_at=incident.created_at,
            status=InvestigationStatus.FINALIZED,
            hj_infraction=f"{dq_infraction.code} {dq_infraction.name}.",
            hj_facts="Two witnesses saw it; the player agreed.",
            hj_assumptions="None.",
            hj_reasoning="Deliberate, for an advantage.",
            decision_infraction_code=dq_infraction.code,
            revoke_prizes=True,
            summary="Disqualified.",
            decided_at=incident.created_at,
            finalized_at=incident.created_at + timedelta(minutes=30),
            finalized_by_id=head.id,
        )
        session.add(inv)
        session.flush()
        session.add(
            Statement(
                investigation_id=inv.id,
                author_name="Witness",
                author_role=StatementRole.WITNESS,
                text="I saw it happen.",
                taken_by_id=head.id,
                client_key=f"gen-{event.id}-st-{k}",
                taken_at=incident.created_at + timedelta(minutes=5),
            )
        )
    # Appeals of earlier penalties, every outcome.
    outcomes = [AppealStatus.UPHELD, AppealStatus.UPHELD, AppealStatus.OVERTURNED, AppealStatus.CHANGED]
    appealed = rng.sample(
        [i for i in incidents[: -size.disqualifications] if i.status is IncidentStatus.STANDING],
        min(size.appeals, len(incidents) - size.disqualifications - 1),
    )
    for n, incident in enumerate(sorted(appealed, key=lambda i: i.number), start=1):
        outcome = outcomes[n % len(outcomes)]
        ruling = {"infraction": incident.infraction_code, "rank": incident.rank_id, "upgraded": incident.upgraded}
        new = None
        if outcome is AppealStatus.OVERTURNED:
            incident.status = IncidentStatus.OVERTURNED
        elif outcome is AppealStatus.CHANGED:
            lower = policy.ranks[max(0, policy.rank(incident.rank_id).order - 1)]
            incident.rank_id, new = lower.id, {"infraction": incident.infraction_code, "rank": lower.id}
        session.add(
            Appeal(
                event_id=event.id,
                number=n,
                client_key=f"gen-{event.id}-appeal-{n:05d}",
                incident_id=incident.id,
                appellant_name=incident.subject_name,
                appellant_player_id=incident._player.id,
                appellant_is_penalized=True,
                contest="Too harsh.",
                ruling=ruling,
                ruling_judge_id=incident.judge_id,
                filed_by_id=head.id,
                filed_at=incident.created_at + timedelta(minutes=2),
                status=outcome,
                decided_by_id=head.id,
                decided_at=incident.created_at + timedelta(minutes=6),
                decision_reason=None if outcome is AppealStatus.UPHELD else "Reviewed with both players.",
                new_ruling=new,
                uses_challenge=outcome is AppealStatus.UPHELD,
            )
        )
    # Deck checks, about one in ten with problems; time extensions, some voided.
    for n in range(1, size.deck_checks + 1):
        rnd = rounds[(n - 1) * size.rounds // size.deck_checks]
        a, b = rng.sample(players, 2)
        began = rnd.started_at + timedelta(minutes=rng.randint(0, 10))
        problems = rng.random() < 0.1
        dc = DeckCheck(
            event_id=event.id,
            client_key=f"gen-{event.id}-dc-{n:05d}",
            round_id=rnd.id,
            table_number=rng.randint(1, tables),
            judge_id=rng.choice(everyone).id,
            started_at=began,
            ended_at=began + timedelta(minutes=rng.randint(5, 14)),
            result=DeckCheckResult.PROBLEMS if problems else DeckCheckResult.MATCHES,
            notes="Registered list shows 4 copies, deck has 3." if problems else "",
        )
        session.add(dc)
        session.flush()
        session.add_all(
            [DeckCheckPlayer(deck_check_id=dc.id, player_id=a.id), DeckCheckPlayer(deck_check_id=dc.id, player_id=b.id)]
        )
    reasons = list(ExtensionReason)
    for n in range(1, size.extensions + 1):
        rnd = rounds[(n - 1) * size.rounds // size.extensions]
        voided = rng.random() < 0.05
        session.add(
            TimeExtension(
                event_id=event.id,
                client_key=f"gen-{event.id}-ext-{n:05d}",
                round_id=rnd.id,
                table_number=rng.randint(1, tables),
                minutes=rng.randint(1, 12),
                reason=rng.choice(reasons),
                judge_id=rng.choice(everyone).id,
                created_at=rnd.started_at + timedelta(minutes=rng.randint(1, 45)),
                voided_at=rnd.started_at + timedelta(minutes=48) if voided else None,
                void_reason="Wrong table." if voided else None,
            )
        )
    session.flush()
    return event
