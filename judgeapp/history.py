"""A player's history at an event: their earlier penalties, each counted once, as the policy's repeat scope says.

The one place that reads the history from the records: the incident form and the engine call (log and correct),
the suggest route, appeals' re-suggestion, the player page and the phone's copy all count with it. It builds on the
models and the engine only; the modules that use it import it, never the other way round."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Subquery, select
from sqlalchemy.orm import Session, selectinload

from .infractions import Infraction, Policy, Prior, PriorStatus, suggest
from .infractions.catalog import Subsection
from .infractions.engine import asks_game, counting_priors
from .models import Event, Incident, IncidentStatus, IncidentSubject, Player, Round

COUNTS = {
    IncidentStatus.STANDING: PriorStatus.STANDING,
    IncidentStatus.RECOMMENDED: PriorStatus.STANDING,
    IncidentStatus.VOID: PriorStatus.VOIDED,
    IncidentStatus.OVERTURNED: PriorStatus.OVERTURNED,
}
STANDING = tuple(s for s, counted in COUNTS.items() if counted is PriorStatus.STANDING)  # statuses that count


def _incidents_of(player_ids: list[int]) -> Subquery:
    """The incidents any of `player_ids` is a subject of (a team's incident is each member's), each once: a derived
    table read through the subjects' player index, so the look-up costs the same whatever the size of the event
    (bench/history.py; an `incidents.id IN (...)` filter led SQLite to scan the whole event instead)."""
    return (
        select(IncidentSubject.incident_id)
        .where(IncidentSubject.player_id.in_(player_ids))
        .distinct()
        .subquery("subject_of")
    )


def incidents_of_players(session: Session, event: Event, player_ids: list[int]) -> list[Incident]:
    """Every incident in this event that counts in the history of any of `player_ids`, oldest first."""
    if not player_ids:
        return []
    subjects = _incidents_of(player_ids)
    return list(
        session.scalars(
            select(Incident)
            .select_from(subjects)
            .join(Incident, Incident.id == subjects.c.incident_id)
            .where(Incident.event_id == event.id)
            .options(selectinload(Incident.round))
            .order_by(Incident.number)
        )
    )


def as_prior(incident: Incident) -> Prior:
    if incident.rank_id is None:
        raise ValueError(f"incident #{incident.number} gave no penalty: it is no prior")
    return Prior(
        infraction_code=incident.infraction_code,
        rank_id=incident.rank_id,
        ref=incident.number,
        round=incident.round.number,
        day=incident.round.day,
        status=COUNTS[incident.status],
        subsection=incident.subsection,
        game=incident.game_number,
    )


def priors_of_players(
    session: Session, event: Event, player_ids: list[int], *, before_number: int | None = None
) -> list[Prior]:
    """The penalties in the history of any of `player_ids` at this event, as the engine reads them (one query)."""
    if not player_ids:
        return []
    subjects = _incidents_of(player_ids)
    query = (
        select(
            Incident.infraction_code,
            Incident.rank_id,
            Incident.number,
            Round.number,
            Round.day,
            Incident.status,
            Incident.subsection,
            Incident.game_number,
        )
        .select_from(subjects)
        .join(Incident, Incident.id == subjects.c.incident_id)
        .join(Round, Round.id == Incident.round_id)
        .where(Incident.event_id == event.id, Incident.rank_id.is_not(None))
        .order_by(Incident.number)
    )
    if before_number is not None:
        query = query.where(Incident.number < before_number)
    return [
        Prior(
            infraction_code=code,
            rank_id=rank,
            ref=number,
            round=rnd,
            day=day,
            status=COUNTS[status],
            subsection=sub,
            game=game,
        )
        for code, rank, number, rnd, day, status, sub, game in session.execute(query)
        if rank is not None
    ]  # none is (the query asks for ranks), but the column may be NULL


@dataclass
class SubsectionHistory:
    code: str
    name: str
    incidents: list[Incident]
    counting: int  # earlier penalties that make the next one a repeat, as the engine counts them today
    next_upgraded: bool  # the engine would upgrade the next infraction of this sub-section (one of them, at least)
    section: Subsection | None = None  # the catalog's sub-section (None for a code it no longer has), for its names
    # a rule counting per game (FaB PPG 3.3): the infraction it counts, and the game of the current round in which the
    # next one is upgraded (None: no game of this round has what the rule counts, or the games are unknown)
    per_game: Infraction | None = None
    upgrade_game: int | None = None
    this_round: int | None = None


def player_history(
    session: Session, policy: Policy, event: Event, player: Player, *, today: int | None = None
) -> list[SubsectionHistory]:
    """A player's incidents grouped by sub-section, newest first, with where the next one would be upgraded: the
    engine's own answer over all the player's penalties (standing ones, within each repeat rule's window), for any
    infraction of the sub-section at the event's level."""
    current = session.execute(
        select(Round.day, Round.number)
        .where(Round.division_id == player.division_id)
        .order_by(Round.number.desc())
        .limit(1)
    ).first()
    if today is None:  # the event's day now: the player's division's current round's
        today = (current.day if current else None) or 1
    this_round = current.number if current else None
    history = incidents_of_players(session, event, [player.id])
    groups: dict[str, list[Incident]] = {}
    for incident in reversed(history):
        groups.setdefault(incident.subsection, []).append(incident)
    everything = [as_prior(i) for i in history if i.rank_id is not None]
    out = []
    for code, items in groups.items():
        try:
            section: Subsection | None = policy.subsection(code)
        except StopIteration:
            section = None
        name = section.name if section else ""
        of_it = [i for i in policy.infractions if i.subsection == code and i.defaults is not None]
        penalties = [as_prior(i) for i in items if i.rank_id is not None]
        counting = len(counting_priors(policy, of_it[0], penalties, today)) if of_it else 0
        upgraded = any(
            suggest(policy, event.level, inf, everything, today=today, this_round=this_round).upgraded for inf in of_it
        )
        group = SubsectionHistory(code, name, items, counting, upgraded, section, this_round=this_round)
        # A rule counting per game cannot know the next game: the page says in which game of the current round the
        # next one is upgraded (the latest game with what the rule counts), or that it counts per game.
        group.per_game = next((inf for inf in of_it if asks_game(policy, inf, event.level)), None)
        if group.per_game is not None and not upgraded and this_round is not None:
            games = {p.game for p in everything if p.round == this_round and p.game is not None}
            for game in sorted(games, reverse=True):
                upgrade = suggest(
                    policy, event.level, group.per_game, everything, today=today, this_round=this_round, this_game=game
                )
                if upgrade.upgraded:
                    group.upgrade_game, group.counting = game, len(upgrade.because)
                    break
        out.append(group)
    out.sort(key=lambda g: -g.incidents[0].number)
    return out
