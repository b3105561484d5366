"""Who may do what: the one table of authority, by action, role and record state.

Every rule of authority in judgeapp is a row of `TABLE` below. Views ask through the `event_route` /
`account_route` decorators (the event-level part: role, closed event) and `require()` (the record-level part:
state, own record); templates ask `can(action, record)` with the same rows, so a button is shown exactly when the
server would accept the action. tests/security/test_access_matrix.py generates its matrix from this table.

A refusal is 403 when the role may never do it, and 409 when the record's state (or the closed event) stops it;
both carry the reason shown on the page. Which transitions exist at all is `judgeapp/lifecycles.py`.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import wraps
from typing import TYPE_CHECKING, Any

from .lifecycles import (
    APPEAL,
    CALL,
    DECK_CHECK,
    EVENT,
    INCIDENT,
    INVESTIGATION,
    ROUND,
    AppealState,
    CallState,
    DeckCheckState,
    IllegalTransition,
    IncidentState,
    InvestigationState,
    Machine,
    RoundState,
    appeal_state,
    incident_state,
)
from .roles import Role as Role  # re-exported: the authority table names it (judgeapp/roles.py)
from .texts import lazy_gettext as _l

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from .models import Appeal, Event, Incident, User

View = Callable[..., Any]  # a Flask view function


O, H, F, S = Role.ORGANIZER, Role.HEAD_JUDGE, Role.FLOOR_JUDGE, Role.SCOREKEEPER  # noqa: E741  (the table's shorthand)
# The assistant head judge: a floor judge who also confirms the penalties the policy has "the head judge or an assistant
# head judge" confirm (Play! Pokémon Penalty Guidelines 3.2, 4.1, 4.1.1.1). Appeals go to the head judge (PPG 2.1) and a
# disqualification's report is the head judge's (PPG 6.2): every other head-judge-only power stays the head judge's.
A = Role.ASSISTANT_HEAD_JUDGE


class Action(str, enum.Enum):
    # accounts
    CREATE_EVENT = "create_event"
    SEARCH_PLAYER_HISTORY = "search_player_history"  # across the organizer's events
    # the event
    VIEW_EVENT = "view_event"
    EDIT_SETTINGS = "edit_settings"
    MANAGE_STAFF = "manage_staff"
    EDIT_PLAYERS = "edit_players"
    CORRECT_PLAYER = "correct_player"  # a player's record: name, reading, ID, platform IDs
    MERGE_PLAYERS = "merge_players"  # two records of one person made one
    START_ROUND = "start_round"
    JOIN_AS_SCOREKEEPER = "join_as_scorekeeper"  # the organizer, to start and end rounds themselves
    END_ROUND = "end_round"
    IMPORT_PAIRINGS = "import_pairings"
    IMPORT_TOURNAMENT = "import_tournament"  # a pairing program's file: players and every round's pairings
    CLOSE_EVENT = "close_event"
    REOPEN_EVENT = "reopen_event"
    VIEW_REPORT = "view_report"
    # incidents
    LOG_INCIDENT = "log_incident"
    CORRECT_INCIDENT = "correct_incident"
    VOID_INCIDENT = "void_incident"
    NOTE_INCIDENT = "note_incident"  # a note on the record, or a question to the head judge
    VIEW_FEED = "view_feed"
    # time and deck checks
    GIVE_TIME = "give_time"
    WITHDRAW_TIME = "withdraw_time"
    START_DECK_CHECK = "start_deck_check"
    END_DECK_CHECK = "end_deck_check"
    PICK_TABLES = "pick_tables"
    # appeals
    FILE_APPEAL = "file_appeal"
    VIEW_APPEALS = "view_appeals"
    DECIDE_APPEAL = "decide_appeal"
    DELEGATE_APPEAL = "delegate_appeal"
    ACKNOWLEDGE_DECISION = "acknowledge_decision"
    # disqualifications
    ACCEPT_RECOMMENDATION = "accept_recommendation"
    DECLINE_RECOMMENDATION = "decline_recommendation"
    VIEW_INVESTIGATIONS = "view_investigations"
    TAKE_STATEMENT = "take_statement"
    MANAGE_STATEMENT_LINKS = "manage_statement_links"
    WRITE_UP = "write_up"
    WRITE_STATEMENT_BY_LINK = "write_statement_by_link"
    # judge calls
    RAISE_CALL = "raise_call"  # a player, from the table's call link
    VIEW_CALLS = "view_calls"
    TAKE_CALL = "take_call"
    ESCALATE_CALL = "escalate_call"
    CLOSE_CALL = "close_call"
    LOG_FROM_CALL = "log_from_call"  # the incident form, opened from a call the judge holds
    PRINT_CALL_LINKS = "print_call_links"
    # jobs run off the request (an import, a render)
    VIEW_JOB = "view_job"
    # the judge's guide (judgeapp/help)
    READ_HELP = "read_help"
    READ_PLAYER_HELP = "read_player_help"  # the call page's guide: a player at the table has no account


@dataclass(frozen=True)
class Grant:
    """One role's permission for an action: in which record states, and only on its own records or not."""

    role: Role
    states: frozenset[enum.Enum] | None = None  # None: in every state the record's machine allows
    own: bool = False  # only on records of the actor's own (the incident they logged, the time they gave)
    # when the role is refused by the state alone: why, and what it may do instead (lazy strings, judgeapp/texts.py)
    why_not: str = ""
    instead: str = ""


@dataclass(frozen=True)
class Rule:
    grants: tuple[Grant, ...]
    refused: str  # why a role without a grant is refused (403); a lazy string, in the request's language when read
    machine: Machine | None = None  # the lifecycle whose state the record is checked in
    transition: str | None = None  # the machine's transition this action is
    changes: bool = True  # changes records: refused (409) while the event is closed…
    when_closed: bool = False  # …unless this says it goes on after closing (reopen, dated addenda)
    new_record_form: bool = False  # its form page is refused on a closed event already when opened (GET)

    def roles(self) -> frozenset[Role]:
        return frozenset(g.role for g in self.grants)


def grants(*roles: Role, **kwargs: Any) -> tuple[Grant, ...]:
    return tuple(Grant(r, **kwargs) for r in roles)


ONLY_HEAD_JUDGE = _l("Only the head judge may do this.")
HANDED = (
    _l("This call is {state}: only the head judge may act on it now."),
    _l("The head judge takes it from their queue."),
)
FINAL = (
    _l("This incident is {state}: only the head judge may change it now (their decision is final for floor judges)."),
    _l("Add a note to it, or ask the head judge: they can still correct it."),
)
_FLOOR_MAY_CHANGE = frozenset({IncidentState.LOGGED})


def _floor(**kwargs: Any) -> tuple[Grant, Grant]:
    """A floor judge's grant, which an assistant head judge holds alike."""
    return Grant(A, **kwargs), Grant(F, **kwargs)


def _assistant_confirms() -> Grant:
    return Grant(
        A,
        states=frozenset({IncidentState.TO_CONFIRM}),
        why_not=_l("This incident is {state}: only the head judge decides it."),
        instead=_l("The head judge takes it from their feed."),
    )


TABLE: dict[Action, Rule] = {
    Action.CREATE_EVENT: Rule(grants(O), _l("Only organizer accounts create events; ask the operator of this server.")),
    Action.SEARCH_PLAYER_HISTORY: Rule(
        grants(O), _l("Only organizer accounts search players across their events."), changes=False
    ),
    Action.VIEW_EVENT: Rule(grants(O, H, A, F, S), _l("You are not on this event's staff."), changes=False),
    Action.EDIT_SETTINGS: Rule(
        grants(O), _l("Only the event's organizer changes its settings."), EVENT, "change", new_record_form=True
    ),  # the settings page is only its form
    Action.MANAGE_STAFF: Rule(grants(O), _l("Only the event's organizer adds and removes staff."), EVENT, "change"),
    Action.EDIT_PLAYERS: Rule(
        grants(O, H, S), _l("Only the organizer, the head judge and the scorekeeper edit players."), EVENT, "change"
    ),
    Action.CORRECT_PLAYER: Rule(
        grants(O, S), _l("Only the organizer and the scorekeeper correct a player's record."), EVENT, "change"
    ),
    Action.MERGE_PLAYERS: Rule(
        grants(O, S), _l("Only the organizer and the scorekeeper merge players' records."), EVENT, "change"
    ),
    Action.START_ROUND: Rule(
        grants(H, S), _l("Only the head judge and the scorekeeper start rounds."), EVENT, "change"
    ),
    Action.END_ROUND: Rule(grants(H, S), _l("Only the head judge and the scorekeeper end rounds."), ROUND, "end"),
    Action.JOIN_AS_SCOREKEEPER: Rule(
        grants(O), _l("Only the event's organizer adds themselves as its scorekeeper."), EVENT, "change"
    ),
    Action.IMPORT_PAIRINGS: Rule(
        grants(H, S), _l("Only the head judge and the scorekeeper import pairings."), EVENT, "change"
    ),
    Action.IMPORT_TOURNAMENT: Rule(
        grants(O, H, S),
        _l("Only the organizer, the head judge and the scorekeeper import tournament files."),
        EVENT,
        "change",
    ),
    Action.CLOSE_EVENT: Rule(
        grants(O), _l("Only the event's organizer closes it."), EVENT, "close", when_closed=True
    ),  # closing again (a retried tap) answers "already closed"
    Action.REOPEN_EVENT: Rule(
        grants(O), _l("Only the event's organizer reopens it."), EVENT, "reopen", when_closed=True
    ),
    Action.VIEW_REPORT: Rule(
        grants(O, H), _l("Only the organizer and the head judge read the event's reports."), changes=False
    ),
    Action.LOG_INCIDENT: Rule(grants(H, A, F), _l("Only judges log incidents."), new_record_form=True),
    Action.CORRECT_INCIDENT: Rule(
        (Grant(H), *_floor(states=_FLOOR_MAY_CHANGE, own=True, why_not=FINAL[0], instead=FINAL[1])),
        _l("Only the judge who logged an incident, or the head judge, may correct it."),
        INCIDENT,
        "correct",
        new_record_form=True,
    ),
    Action.VOID_INCIDENT: Rule(
        (Grant(H), *_floor(states=_FLOOR_MAY_CHANGE, own=True, why_not=FINAL[0], instead=FINAL[1])),
        _l("Only the judge who logged an incident, or the head judge, may void it."),
        INCIDENT,
        "void",
    ),
    Action.NOTE_INCIDENT: Rule(grants(H, A, F), _l("Only judges add notes to incidents."), INCIDENT, "note"),
    Action.VIEW_FEED: Rule(
        grants(H, A), _l("Only the head judge and the assistant head judges have the feed."), changes=False
    ),
    Action.GIVE_TIME: Rule(grants(H, A, F), _l("Only judges give time extensions."), new_record_form=True),
    Action.WITHDRAW_TIME: Rule(
        (Grant(H), *_floor(own=True)), _l("Only the judge who gave the time, or the head judge, may withdraw it.")
    ),
    Action.START_DECK_CHECK: Rule(grants(H, A, F), _l("Only judges start deck checks."), new_record_form=True),
    Action.END_DECK_CHECK: Rule(grants(H, A, F), _l("Only judges end deck checks."), DECK_CHECK, "end"),
    Action.PICK_TABLES: Rule(grants(H, A, F), _l("Only judges pick tables for deck checks."), changes=False),
    Action.FILE_APPEAL: Rule(
        grants(H, A, F), _l("Only judges file a player's appeal."), INCIDENT, "appeal", new_record_form=True
    ),
    Action.VIEW_APPEALS: Rule(
        grants(O, H, A, F), _l("Only the organizer and the judges see the appeals."), changes=False
    ),
    Action.DECIDE_APPEAL: Rule(
        (
            Grant(H),
            Grant(
                Role.PROXY,
                states=frozenset({AppealState.OPEN}),
                why_not=_l("This appeal is {state}."),
                instead=_l("The head judge decides it."),
            ),
        ),
        _l("Only the head judge, or the judge they handed this appeal to, decides it."),
        APPEAL,
        "uphold",
    ),
    Action.DELEGATE_APPEAL: Rule(grants(H), ONLY_HEAD_JUDGE, APPEAL, "delegate"),
    Action.ACKNOWLEDGE_DECISION: Rule(
        grants(H, A, F, own=True),
        _l("Only the judge whose ruling was appealed acknowledges the decision."),
        APPEAL,
        "acknowledge",
        changes=False,
    ),
    Action.ACCEPT_RECOMMENDATION: Rule(
        (Grant(H), _assistant_confirms()),
        _l("Only the head judge, or an assistant head judge where the policy says so, decides a recommended penalty."),
        INCIDENT,
        "accept",
    ),
    Action.DECLINE_RECOMMENDATION: Rule(
        (Grant(H), _assistant_confirms()),
        _l("Only the head judge, or an assistant head judge where the policy says so, decides a recommended penalty."),
        INCIDENT,
        "decline",
    ),
    Action.VIEW_INVESTIGATIONS: Rule(
        grants(O, H), _l("Only the head judge and the organizer read investigations."), changes=False
    ),
    Action.TAKE_STATEMENT: Rule(grants(H), ONLY_HEAD_JUDGE, INVESTIGATION, "add_statement", when_closed=True),
    Action.MANAGE_STATEMENT_LINKS: Rule(
        grants(H), ONLY_HEAD_JUDGE, INVESTIGATION, "request_statement", when_closed=True
    ),
    Action.WRITE_UP: Rule(grants(H), ONLY_HEAD_JUDGE, INVESTIGATION, "write_up"),
    Action.WRITE_STATEMENT_BY_LINK: Rule(
        grants(Role.STATEMENT_AUTHOR), _l("This page needs its one-time link."), when_closed=True
    ),
    Action.RAISE_CALL: Rule(grants(Role.TABLE_LINK), _l("This page needs the table's call link.")),
    Action.VIEW_CALLS: Rule(
        grants(O, H, A, F), _l("Only the organizer and the judges see the judge calls."), changes=False
    ),
    Action.TAKE_CALL: Rule(
        (Grant(H), *_floor(states=frozenset({CallState.OPEN}), why_not=HANDED[0], instead=HANDED[1])),
        _l("Only judges take calls."),
        CALL,
        "take",
    ),
    Action.ESCALATE_CALL: Rule(
        grants(A, F, own=True),
        _l("Only the floor judge who took the call hands it to the head judge."),
        CALL,
        "escalate",
    ),
    Action.CLOSE_CALL: Rule(
        (Grant(H), *_floor(states=frozenset({CallState.TAKEN}), own=True, why_not=HANDED[0], instead=HANDED[1])),
        _l("Only the judge who took the call, or the head judge, closes it."),
        CALL,
        "close",
    ),
    Action.LOG_FROM_CALL: Rule(
        (Grant(H), *_floor(own=True)),
        _l("Only the judge who took the call, or the head judge, logs an incident from it."),
        CALL,
        "log_incident",
    ),
    Action.PRINT_CALL_LINKS: Rule(
        grants(O, H, S),
        _l("Only the organizer, the head judge and the scorekeeper print the tables' call links."),
        changes=False,
    ),
    Action.VIEW_JOB: Rule(
        (Grant(O), Grant(S), Grant(H, own=True), *_floor(own=True)),
        _l("Only whoever started this job, the organizer and the scorekeepers follow it."),
        changes=False,
    ),
    Action.READ_HELP: Rule(grants(Role.SIGNED_IN), _l("Sign in to read the judge's guide."), changes=False),
    Action.READ_PLAYER_HELP: Rule(grants(Role.SIGNED_IN, Role.ANONYMOUS), _l("Anyone may read this."), changes=False),
}


# ---- deciding --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """The table's answer; `why` and `instead` are text in the language of the request that asked."""

    allowed: bool
    status: int = 200  # 403: the role may not; 409: the record's state or the closed event stops it
    why: str = ""
    instead: str = ""

    def __bool__(self) -> bool:
        return self.allowed


ALLOWED = Decision(True)
ROLE_INSTEAD = _l("Your role at this event does not allow this. Ask the organizer or the head judge.")
CLOSED = (
    _l("This event is closed: its records are read-only."),
    _l("The organizer can reopen it, with a reason, if something must still change."),
)


def decide(
    action: Action,
    roles: frozenset[str],
    *,
    state: enum.Enum | None = None,
    own: bool = False,
    on_record: bool = False,
    event_closed: bool = False,
    opening_form: bool = False,
) -> Decision:
    """May someone holding `roles` do `action` on a record in `state` (their own record or not), now? Without a
    state and without `on_record` the question is the route's, before the record is known: the role decides alone.
    A record without a lifecycle (a time extension) is asked with `on_record` and no state: whose it is still counts."""
    rule = TABLE[action]
    mine = [g for g in rule.grants if g.role in roles]
    if not mine:
        return Decision(False, 403, str(rule.refused), str(ROLE_INSTEAD))
    closes_out = rule.changes if not opening_form else rule.new_record_form
    if event_closed and closes_out and not rule.when_closed:
        return Decision(False, 409, str(CLOSED[0]), str(CLOSED[1]))
    if state is None and not on_record:
        return ALLOWED
    if state is not None and rule.machine is not None and rule.transition is not None:  # from this state, anyone
        try:
            rule.machine.move(state, rule.transition)
        except IllegalTransition as err:
            return Decision(False, 409, err.why, err.instead)
    in_state = [g for g in mine if state is None or g.states is None or state in g.states]
    if not in_state:
        g = mine[0]
        label = str(getattr(state, "label", state))
        why = str(g.why_not or _l("Not while this record is {state}.")).format(state=label)
        return Decision(False, 409, why, str(g.instead))
    if not any(not g.own or own for g in in_state):
        return Decision(False, 403, str(rule.refused), str(ROLE_INSTEAD))
    return ALLOWED


class Refused(Exception):
    """A request the table refuses: answered with `decision.status` and its reason on a readable page."""

    def __init__(self, decision: Decision):
        self.decision = decision
        super().__init__(decision.why)


def require(action: Action, roles: frozenset[str], **kwargs: Any) -> None:
    """Refuse (raise `Refused`) unless `decide` allows it."""
    decision = decide(action, roles, **kwargs)
    if not decision:
        raise Refused(decision)


# ---- who holds which role, and in which state a record is ------------------------------------------------------------


def _held_by(user: Any) -> tuple[Any, ...]:
    """The conditions of a staff assignment `user` holds now (an ended one gives no role)."""
    from .models import StaffAssignment

    return StaffAssignment.user_id == user.id, StaffAssignment.ended_at.is_(None)


def _roles_from(event: Any, user: Any, stored: Iterable[Any]) -> frozenset[Role]:
    """The roles of `user` at `event`: the stored staff positions, and organizer of their own event."""
    roles = {Role(position.value) for position in stored}
    if event.organizer_id == user.id:
        roles.add(Role.ORGANIZER)
    return frozenset(roles)


def roles_at(session: Session, user: User, event: Event) -> frozenset[Role]:
    """The roles `user` holds at `event` now (ended staff assignments give none)."""
    from sqlalchemy import select

    from .models import StaffAssignment

    stored = session.scalars(select(StaffAssignment.role).where(StaffAssignment.event_id == event.id, *_held_by(user)))
    return _roles_from(event, user, stored)


def event_and_roles(session: Any, user: Any, event_id: int) -> tuple[Any, frozenset[Role]]:
    """The event `event_id` (None when there is none) and the roles `user` holds there now, read in one query: every
    event page asks both first."""
    from sqlalchemy import and_, select

    from .models import Event, StaffAssignment

    rows = session.execute(
        select(Event, StaffAssignment.role)
        .outerjoin(StaffAssignment, and_(StaffAssignment.event_id == Event.id, *_held_by(user)))
        .where(Event.id == event_id)
    ).all()
    if not rows:
        return None, frozenset()
    event = rows[0][0]
    return event, _roles_from(event, user, (role for _, role in rows if role is not None))


def account_roles(user: Any) -> frozenset[Role]:
    if user is None or not getattr(user, "is_authenticated", False):
        return frozenset({Role.ANONYMOUS})
    return frozenset({Role.SIGNED_IN} | ({Role.ORGANIZER} if user.is_organizer else set()))


def record_facts(session: Session, record: Any, user: Any, roles: frozenset[str]) -> dict[str, Any]:
    """`state`, `own` and any role the record gives (proxy of this appeal) for `decide`, read from the database."""
    from .models import Appeal, DeckCheck, Incident, Investigation, Job, JudgeCall, Round, TimeExtension

    user_id = getattr(user, "id", None)
    if isinstance(record, JudgeCall):
        return {"state": CallState(record.state.value), "own": record.holder_id == user_id, "roles": roles}
    if isinstance(record, Incident):
        return {"state": incident_state_of(session, record), "own": record.judge_id == user_id, "roles": roles}
    if isinstance(record, Appeal):
        extra = (
            {Role.PROXY}
            if (record.proxy_id is not None and record.proxy_id == user_id and Role.FLOOR_JUDGE in roles)
            else set()
        )
        return {
            "state": appeal_state_of(session, record),
            "own": record.ruling_judge_id == user_id,
            "roles": roles | extra,
        }
    if isinstance(record, Investigation):
        return {"state": InvestigationState(record.status.value), "own": False, "roles": roles}
    if isinstance(record, DeckCheck):
        return {"state": DeckCheckState(record.result.value), "own": record.judge_id == user_id, "roles": roles}
    if isinstance(record, TimeExtension):
        return {"state": None, "own": record.judge_id == user_id, "roles": roles}
    if isinstance(record, Job):  # who started it follows it; its state changes nothing of who may see it
        return {"state": None, "own": record.actor_id == user_id, "roles": roles}
    if isinstance(record, Round):
        return {
            "state": RoundState.ENDED if record.ended_at is not None else RoundState.RUNNING,
            "own": False,
            "roles": roles,
        }
    raise TypeError(f"no lifecycle for {type(record).__name__}")


def incident_state_of(session: Session, incident: Incident) -> IncidentState:
    """An incident's lifecycle state: its status, a waiting appeal, whether the head judge has decided on it (stamped
    on the incident when they log, correct, void, accept or decline it; read off its appeals and its investigation
    when they decided an appeal or finalized the disqualification) and whether a proxy decided an appeal of it."""
    from sqlalchemy import exists, select

    from .models import Appeal, AppealStatus, Investigation, InvestigationStatus

    status = incident.status.value
    if status == "recommended":
        return incident_state(
            status,
            open_appeal=False,
            head_judge_decided=False,
            assistant_may_confirm=assistant_may_confirm(session, incident),
        )
    if status in ("void", "overturned"):
        return incident_state(status, open_appeal=False, head_judge_decided=False)
    decided = Appeal.incident_id == incident.id, Appeal.status != AppealStatus.OPEN
    open_appeal, by_head_judge, by_proxy = session.execute(
        select(
            exists().where(Appeal.incident_id == incident.id, Appeal.status == AppealStatus.OPEN),
            exists().where(*decided, Appeal.decided_as_proxy.is_(False))
            | exists().where(
                Investigation.incident_id == incident.id,
                Investigation.status.in_([InvestigationStatus.FINALIZED, InvestigationStatus.DECLINED]),
            ),
            exists().where(*decided, Appeal.decided_as_proxy.is_(True)),
        )
    ).one()
    return incident_state(
        status,
        open_appeal=bool(open_appeal),
        head_judge_decided=incident.head_judge_decided_at is not None or bool(by_head_judge),
        proxy_decided=bool(by_proxy),
        assistant_confirmed=incident.confirmed_by_id is not None,
    )


def assistant_may_confirm(session: Session, incident: Incident) -> bool:
    """Whether an assistant head judge may confirm this recommended penalty: the event's policy has it confirmed by
    "the head judge or an assistant head judge" at the event's level, and it is not the head judge's alone (a
    disqualification). The policy cannot change once incidents exist, so what held when it was logged holds now."""
    from .extensions import event_policy
    from .infractions.catalog import Policy, UnknownChoice
    from .models import Event

    event = session.get(Event, incident.event_id)
    if event is None:
        return False
    policy: Policy = event_policy(event)  # type: ignore[no-untyped-call]  # extensions.py is not typed
    try:
        infraction = policy.infraction(incident.infraction_code)
    except UnknownChoice:
        return False
    return policy.assistant_may_confirm(infraction, incident.rank_id, event.level)


def appeal_state_of(session: Session, appeal: Appeal) -> AppealState:
    """An appeal's state: its status, and whether a proxy already ruled on the same incident (then it is for the head
    judge alone)."""
    from sqlalchemy import exists, select

    from .models import Appeal

    after_proxy = appeal.status.value == "open" and session.scalar(
        select(
            exists().where(
                Appeal.incident_id == appeal.incident_id, Appeal.id != appeal.id, Appeal.decided_as_proxy.is_(True)
            )
        )
    )
    return appeal_state(appeal.status.value, after_proxy_ruling=bool(after_proxy))


def check(
    session: Session,
    action: Action,
    *,
    user: Any,
    roles: frozenset[str],
    record: Any = None,
    event: Event | None = None,
    facts: dict[str, Any] | None = None,
) -> Decision:
    """`decide` for a record as stored: its state, whether it is the user's own, and the event's closing (`facts`:
    the record's facts already read in this request)."""
    kwargs: dict[str, Any] = {"event_closed": event is not None and event.closed_at is not None}
    if record is not None:
        facts = dict(facts or record_facts(session, record, user, roles))
        roles = facts.pop("roles")
        kwargs.update(facts, on_record=True)
    return decide(action, roles, **kwargs)


def require_on(
    session: Session,
    action: Action,
    *,
    user: Any,
    roles: frozenset[str],
    record: Any = None,
    event: Event | None = None,
) -> None:
    """Refuse (raise `Refused`) unless `check` allows it."""
    decision = check(session, action, user=user, roles=roles, record=record, event=event)
    if not decision:
        raise Refused(decision)


def found(record: Any, action: Action | None = None) -> Any:
    """For views: the record a URL names, at this request's event. 404 when there is none or it is another event's;
    then, given an action, the table's answer for it on this record (403 or 409, with why)."""
    from flask import abort, g
    from flask_login import current_user

    from .extensions import db

    if record is None or record.event_id != g.event.id:
        abort(404)
    if action is not None:
        require_on(db.session(), action, user=current_user, roles=g.roles, record=record, event=g.event)
    return record


def transition(
    session: Session, action: Action, *, user: Any, roles: frozenset[str], record: Any = None, event: Event
) -> None:
    """Begin a state change: take the event's lock (the row lock logging takes on PostgreSQL), read the record again
    under it, then ask the table. Of two judges acting on one record at once, the second sees the first's result
    and gets a clear refusal."""
    from .records import lock_event

    lock_event(session, event, open_only=False)
    session.refresh(event)
    if record is not None:
        session.refresh(record)
    require_on(session, action, user=user, roles=roles, record=record, event=event)


# ---- the decorators views use, and the template function -----------------------------------------------------------


def event_route(action: Action, *, post: Action | None = None) -> Callable[[View], View]:
    """Load the event from the URL (404 when missing), then refuse unless the signed-in user's roles there allow
    `action` (GET) or `post` (other methods; default `action`). The view receives `event` and `roles`."""

    def decorate(view: View) -> View:
        from flask import abort, g, request
        from flask_login import current_user, login_required

        @wraps(view)
        @login_required  # type: ignore[untyped-decorator]  # flask_login ships no types
        def wrapper(event_id: int, **kwargs: Any) -> Any:
            from .extensions import db

            event, roles = event_and_roles(db.session, current_user, event_id)
            if event is None:
                abort(404)
            asked = action if request.method in ("GET", "HEAD") or post is None else post
            decision = decide(
                asked, roles, event_closed=event.closed_at is not None, opening_form=request.method in ("GET", "HEAD")
            )
            if (
                not decision
                and decision.status == 403
                and Role.FLOOR_JUDGE in roles
                and Role.PROXY in TABLE[asked].roles()
            ):
                decision = ALLOWED  # perhaps the proxy of the appeal the URL names: the view asks with the record
            if not decision:
                raise Refused(decision)
            g.event, g.roles = event, roles
            return view(event=event, roles=roles, **kwargs)

        wrapper.actions = {"GET": action, "POST": post or action}  # type: ignore[attr-defined]  # for the matrix
        return wrapper

    return decorate


def account_route(action: Action) -> Callable[[View], View]:
    """A page of the account, not of one event: refuse unless the account's roles allow `action`."""

    def decorate(view: View) -> View:
        from flask_login import current_user, login_required

        @wraps(view)
        @login_required  # type: ignore[untyped-decorator]  # flask_login ships no types
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            require(action, account_roles(current_user))
            return view(*args, **kwargs)

        wrapper.actions = {"GET": action, "POST": action}  # type: ignore[attr-defined]  # for the matrix
        return wrapper

    return decorate


def open_route(action: Action) -> Callable[[View], View]:
    """A page that may need no account at all (the player's guide to the call page): refuse unless the account's
    roles, or being signed out, allow `action`."""

    def decorate(view: View) -> View:
        from flask_login import current_user

        @wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            require(action, account_roles(current_user))
            return view(*args, **kwargs)

        wrapper.actions = {"GET": action, "POST": action}  # type: ignore[attr-defined]  # for the matrix
        return wrapper

    return decorate


# ---- staff invitations: answered by the invited account alone --------------------------------------------------------


def answer_invitation(user: Any, invitation: Any, transition: str, *, now: Any = None) -> Decision:
    """May `user` accept or decline (`transition`) this staff invitation now? Only the invited account may, and only
    while the invitation waits (not answered, not expired); nobody else, not even the organizer, answers for them."""
    from .lifecycles import INVITATION, invitation_state
    from .models import utcnow

    if user is None or not getattr(user, "is_authenticated", False) or invitation.user_id != user.id:
        return Decision(False, 403, str(_l("Only the person invited may answer this invitation.")), "")
    state = invitation_state(invitation.status.value, expired=invitation.expires_at <= (now or utcnow()))
    try:
        INVITATION.move(state, transition)
    except IllegalTransition as err:
        return Decision(False, 409, err.why, err.instead)
    return ALLOWED


def can(action: Action | str, record: Any = None) -> bool:
    """For templates: would the server accept `action` (on `record`) from the signed-in user at this event now?"""
    from flask import g
    from flask_login import current_user

    from .extensions import db

    roles = getattr(g, "roles", None)
    event = getattr(g, "event", None)
    if roles is None:
        return False
    facts = None
    if record is not None:  # a page asks about one record several times: read its facts once per page
        cache = g.setdefault("record_facts", {})
        key = (type(record).__name__, record.id)
        if key not in cache:
            cache[key] = record_facts(db.session(), record, current_user, roles)
        facts = cache[key]
    return bool(
        check(db.session(), Action(action), user=current_user, roles=roles, record=record, event=event, facts=facts)
    )


def may(action: Action | str) -> bool:
    """For menus: does the signed-in user hold a role at this event that may ever do `action`?"""
    from flask import g

    roles = getattr(g, "roles", None)
    return roles is not None and bool(TABLE[Action(action)].roles() & roles)
