"""What a judge's phone keeps for offline logging: per staffed event the policy, level, players, pairings and
each player's standing penalties (the engine's history)."""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from datetime import UTC, date, datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from .. import history
from ..events.pairing_services import byes_of, pairings_of
from ..events.player_services import divisions_of, players_of
from ..events.round_services import rounds_of
from ..extensions import policy_key
from ..models import AuditEntry, Event, Incident, IncidentSubject, Round, StaffAssignment, User
from ..roles import JUDGE_ROLES

RECENT = timedelta(days=7)  # an event not closed but long over is not worth carrying


def staffed_events(session: Session, user: User, today: date) -> list[tuple[Event, frozenset[str]]]:
    """Open events where `user` is a floor or head judge now, dated from a week ago on, with the judge roles."""
    rows = session.execute(
        select(Event, StaffAssignment.role)
        .join(StaffAssignment, StaffAssignment.event_id == Event.id)
        .where(
            StaffAssignment.user_id == user.id,
            StaffAssignment.ended_at.is_(None),
            StaffAssignment.role.in_(JUDGE_ROLES),
            Event.closed_at.is_(None),
            Event.date >= today - RECENT,
        )
        .order_by(Event.date, Event.id)
    )
    roles: dict[int, set[str]] = defaultdict(set)
    events: dict[int, Event] = {}
    for event, role in rows:
        events[event.id] = event
        roles[event.id].add(role.value)
    return [(e, frozenset(roles[e.id])) for e in events.values()]


def standing_priors(session: Session, event: Event) -> list[dict]:
    """Every standing penalty of the event with the players it counts for, in the engine's prior shape (the statuses
    that count are judgeapp/history.py's)."""
    rows = session.execute(
        select(
            Incident.id,
            Incident.number,
            Incident.infraction_code,
            Incident.subsection,
            Incident.rank_id,
            Round.number,
            Round.day,
            IncidentSubject.player_id,
            Incident.game_number,
        )
        .join(Round, Round.id == Incident.round_id)
        .join(IncidentSubject, IncidentSubject.incident_id == Incident.id)
        .where(Incident.event_id == event.id, Incident.rank_id.is_not(None), Incident.status.in_(history.STANDING))
        .order_by(Incident.number, IncidentSubject.player_id)
    )
    out: dict[int, dict] = {}
    for _id, number, code, subsection, rank, rnd, day, player_id, game in rows:
        prior = out.setdefault(
            _id,
            {
                "ref": number,
                "infraction": code,
                "subsection": subsection,
                "rank": rank,
                "round": rnd,
                "day": day,  # the event's day of its round (1, 2…), as the "day" window counts
                "game": game,  # its game of the round's match, as the "game" window counts
                "status": "standing",
                "players": [],
            },
        )
        prior["players"].append(player_id)
    return list(out.values())


# Judge calls come and go all round and change nothing the kept pages show (the calls page is not kept).
NOT_IN_KEPT_PAGES = ("JudgeCall",)


def changed_for(session: Session, user: User) -> int:
    """When anything changed last at any event `user` is on the staff of, closed ones included (its closing is such a
    change), in milliseconds since 1970 (UTC): for a page the phone showed from its copy (page.js)."""
    staffed = select(StaffAssignment.event_id).where(
        StaffAssignment.user_id == user.id, StaffAssignment.ended_at.is_(None)
    )
    at = session.scalar(
        select(func.max(AuditEntry.at)).where(
            AuditEntry.event_id.in_(staffed), AuditEntry.object_type.not_in(NOT_IN_KEPT_PAGES)
        )
    )
    return _ms(at)


def _ms(at) -> int:
    if at is None:
        return 0
    if isinstance(at, str):  # SQLite hands an aggregate back as text
        at = datetime.fromisoformat(at)
    return int(at.replace(tzinfo=UTC).timestamp() * 1000)


def changed_at(session: Session, event: Event) -> int:
    """When anything the event's kept pages show last changed, in milliseconds since 1970 (UTC): the latest audit
    entry of the event (every change writes one, in the change's transaction). The phone keeps a page rendered
    after it; 0 for an event with no entry."""
    at = session.scalar(
        select(func.max(AuditEntry.at)).where(
            AuditEntry.event_id == event.id, AuditEntry.object_type.not_in(NOT_IN_KEPT_PAGES)
        )
    )
    return _ms(at)


def event_copy(session: Session, event: Event, roles: frozenset[str]) -> dict:
    """One event as the phone keeps it. `stamp` changes whenever anything here changes."""
    rounds = rounds_of(session, event)
    divisions = divisions_of(session, event)
    # the first division's latest round, as current_round() reads it (the only division of most events)
    first = [r for r in rounds if divisions and r.division_id == divisions[0].id] or rounds
    current = first[-1] if first else None
    players = players_of(session, event)
    seating = {str(t): [p.id for p in ps] for t, ps in pairings_of(session, current).items()}
    byes = sorted(byes_of(session, current))
    # An event of several divisions: each division's current round, seating and byes (a table number is a table of
    # one division's round: the kept incident form checks the chosen division's), the first's also as above.
    seated_by_division = []
    for division in divisions if len(divisions) > 1 else []:
        theirs = [r for r in rounds if r.division_id == division.id]
        latest = theirs[-1] if theirs else None
        seated_by_division.append(
            {
                "id": division.id,
                "name": division.name,
                "round": latest.number if latest else None,
                "seating": {str(t): [p.id for p in ps] for t, ps in pairings_of(session, latest).items()},
                "byes": sorted(byes_of(session, latest)),
            }
        )
    priors = standing_priors(session, event)
    last_change = session.scalar(select(func.max(Incident.updated_at)).where(Incident.event_id == event.id))
    # The incident form the phone keeps carries the round's seating; a confirmed re-import can swap two players with
    # the same number of tables, so the stamp follows who sits where, not only how many tables there are.
    seats = hashlib.sha256(
        json.dumps([seating, byes, seated_by_division, [r.day for r in rounds]], sort_keys=True).encode()
    ).hexdigest()[:12]
    stamp = (
        f"{len(rounds)}:{len(players)}:{seats}:{len(priors)}:{priors[-1]['ref'] if priors else 0}:{last_change}"
        f":{policy_key(event)}:{event.level}"
    )
    return {
        "id": event.id,
        "name": event.name,
        "date": event.date.isoformat(),
        "policy": policy_key(event),
        "level": event.level,
        "round_minutes": event.round_minutes,
        "rounds": [r.number for r in rounds],
        "current_round": current.number if current else None,
        "roles": sorted(roles),
        "players": [{"id": p.id, "name": p.name, "code": p.player_code, "team": p.team} for p in players],
        "seating": seating,
        "byes": byes,
        "divisions": seated_by_division,  # empty at an event of one division
        # the event's day of each division's round ("division id:round number": day), which the phone's "day" window
        # counts; a round of no division named on the form is the first division's
        "round_days": {f"{r.division_id}:{r.number}": r.day for r in rounds},
        "first_division": divisions[0].id if divisions else None,
        "priors": priors,
        "stamp": stamp,
        "changed_at": changed_at(session, event),
    }
