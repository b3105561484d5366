"""Record lifecycles as explicit state machines: each record's states and the transitions allowed between them.

Pure Python (no Flask, no SQLAlchemy). Services ask `MACHINE.move(state, transition)` before they change a record;
an illegal transition raises `IllegalTransition`, which the app answers with 409 and a page that says why and
what may be done instead. `judgeapp/permissions.py` says *who* may ask for a transition in which state; this
file says which transitions exist at all.

Some states are stored as they are (an appeal's status); others are read off several stored facts (an incident
under appeal is a standing incident with an open appeal): the `*_state` functions do that reading, in one place.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from .texts import lazy_gettext as _l


class IllegalTransition(Exception):
    """A transition the record's state does not allow: answered with 409, the reason and what to do instead (text in
    the language of the request that raised it)."""

    def __init__(self, why: str, instead: str = ""):
        self.why, self.instead = why, instead
        super().__init__(why)


@dataclass(frozen=True)
class Machine:
    """States, and for each named transition the states it leaves from and the state it leads to."""

    name: str
    states: type[enum.Enum]
    transitions: dict[str, tuple[frozenset, enum.Enum | None]]  # name -> (from states, to state; None: stays)
    # name -> (why, instead) when refused, or {state: (why, instead)} where the reason depends on the state; lazy
    # strings (judgeapp/texts.py), made text in the request's language when refused; {state} is the state's label
    refusals: dict[str, tuple[str, str] | dict] = field(default_factory=dict)

    def allows(self, state: enum.Enum, transition: str) -> bool:
        sources, _ = self.transitions[transition]
        return state in sources

    def move(self, state: enum.Enum, transition: str) -> enum.Enum:
        """The state after `transition` from `state`; IllegalTransition when the machine does not allow it."""
        sources, target = self.transitions[transition]
        if state not in sources:
            default = (_l("Not while this record is {state}."), "")
            refusal = self.refusals.get(transition, default)
            why, instead = refusal.get(state, default) if isinstance(refusal, dict) else refusal
            raise IllegalTransition(str(why).format(state=_label(state)), str(instead))
        return state if target is None else target


def _label(state: enum.Enum) -> str:
    return str(getattr(state, "label", None) or state.value.replace("_", " "))


def _all(states: type[enum.Enum]) -> frozenset:
    return frozenset(states)


# ---- incidents -------------------------------------------------------------------------------------------------------


class IncidentState(str, enum.Enum):
    LOGGED = "logged"  # standing, as the floor judge ruled; the judge who logged it may still correct it
    RECOMMENDED = "recommended"  # a penalty only the head judge may give, waiting for them
    # a penalty the policy has "the head judge or an assistant head judge" confirm, waiting for either (PPG 4.1)
    TO_CONFIRM = "to_confirm"
    UNDER_APPEAL = "under_appeal"  # an appeal waits for the head judge (or their proxy)
    # the head judge decided (their own ruling, a correction of its infraction or penalty, an appeal, a recommended
    # penalty accepted or declined, a DQ): their decision is final, not appealable. A correction that changes neither
    # infraction nor penalty (a table number, the account) leaves the ruling the floor judge's: still LOGGED.
    DECIDED = "decided"
    PROXY_DECIDED = (
        "proxy_decided"  # the head judge's proxy decided an appeal: final for the floor, appealable once more
    )
    # an assistant head judge confirmed (or declined) the recommendation: final for the floor, appealable to the head
    # judge (PPG 2.1)
    CONFIRMED = "confirmed"
    OVERTURNED = "overturned"
    VOID = "void"

    @property
    def label(self) -> str:
        return {
            "logged": _l("standing"),
            "recommended": _l("waiting for the head judge"),
            "to_confirm": _l("waiting for the head judge or an assistant head judge"),
            "under_appeal": _l("under appeal"),
            "decided": _l("decided by the head judge"),
            "proxy_decided": _l("decided by the head judge's proxy"),
            "confirmed": _l("confirmed by an assistant head judge"),
            "overturned": _l("overturned"),
            "void": _l("void"),
        }[self.value]


def incident_state(
    status: str,
    *,
    open_appeal: bool,
    head_judge_decided: bool,
    proxy_decided: bool = False,
    assistant_may_confirm: bool = False,
    assistant_confirmed: bool = False,
) -> IncidentState:
    """The lifecycle state of an incident from its stored status, whether an appeal of it is waiting, whether the
    head judge has decided on it (their own ruling, a correction, an appeal, a recommendation, a finalized
    disqualification), whether their proxy decided an appeal of it, and whether a recommendation waits for the head
    judge alone or for an assistant head judge too."""
    if status == "void":
        return IncidentState.VOID
    if status == "overturned":
        return IncidentState.OVERTURNED
    if status == "recommended":
        return IncidentState.TO_CONFIRM if assistant_may_confirm else IncidentState.RECOMMENDED
    if open_appeal:
        return IncidentState.UNDER_APPEAL
    if head_judge_decided:
        return IncidentState.DECIDED
    if proxy_decided:
        return IncidentState.PROXY_DECIDED
    return IncidentState.CONFIRMED if assistant_confirmed else IncidentState.LOGGED


_LIVE = frozenset(
    {
        IncidentState.LOGGED,
        IncidentState.RECOMMENDED,
        IncidentState.TO_CONFIRM,
        IncidentState.UNDER_APPEAL,
        IncidentState.DECIDED,
        IncidentState.PROXY_DECIDED,
        IncidentState.CONFIRMED,
        IncidentState.OVERTURNED,
    }
)
INCIDENT = Machine(
    "incident",
    IncidentState,
    {
        "correct": (_LIVE - {IncidentState.OVERTURNED}, None),
        # an appeal waiting holds the ruling: it is settled by deciding the appeal (overturned), not by voiding it
        "void": (_LIVE - {IncidentState.UNDER_APPEAL}, IncidentState.VOID),
        "note": (_all(IncidentState), None),
        "appeal": (
            frozenset(
                {
                    IncidentState.LOGGED,
                    IncidentState.UNDER_APPEAL,
                    IncidentState.PROXY_DECIDED,
                    IncidentState.CONFIRMED,
                }
            ),
            IncidentState.UNDER_APPEAL,
        ),
        "accept": (frozenset({IncidentState.RECOMMENDED, IncidentState.TO_CONFIRM}), IncidentState.DECIDED),
        "decline": (frozenset({IncidentState.RECOMMENDED, IncidentState.TO_CONFIRM}), IncidentState.DECIDED),
    },
    refusals={
        "correct": (
            _l("This incident is {state}: it can no longer be corrected."),
            _l("Add a note to it instead, or log a new incident."),
        ),
        "void": {
            IncidentState.UNDER_APPEAL: (
                _l("This incident is under appeal: only the head judge may change it now, by deciding the appeal."),
                _l(
                    "Add a note, or ask the head judge: they settle it by deciding the "
                    "appeal (overturned, if the ruling should go)."
                ),
            ),
            IncidentState.VOID: (
                _l("This incident is already void."),
                _l("Add a note to it if something more should be known."),
            ),
        },
        "appeal": {
            IncidentState.RECOMMENDED: (
                _l("The ruling is not complete: the head judge has not decided the recommended penalty yet."),
                _l(
                    "The head judge's decision on it will be final: there is no appeal of it. Add a note now with "
                    "what the player contests, for the head judge to read before they decide."
                ),
            ),
            IncidentState.TO_CONFIRM: (
                _l("The ruling is not complete: the penalty waits for the head judge or an assistant head judge."),
                _l(
                    "Add a note now with what the player contests. Once an assistant head judge has confirmed it, "
                    "the player may appeal to the head judge; the head judge's own decision is final."
                ),
            ),
            IncidentState.DECIDED: (_l("The head judge has decided on this ruling: their decision is final."), ""),
            IncidentState.VOID: (_l("This incident is void: there is no ruling to appeal."), ""),
            IncidentState.OVERTURNED: (_l("This ruling was already overturned."), ""),
        },
        "accept": (_l("This incident has no recommendation waiting for the head judge (it is {state})."), ""),
        "decline": (_l("This incident has no recommendation waiting for the head judge (it is {state})."), ""),
    },
)


# ---- appeals ---------------------------------------------------------------------------------------------------------


class AppealState(str, enum.Enum):
    OPEN = "open"
    OPEN_TO_HEAD_JUDGE = "open_to_head_judge"  # a proxy already ruled on this incident: the head judge alone decides
    UPHELD = "upheld"
    OVERTURNED = "overturned"
    CHANGED = "changed"

    @property
    def label(self) -> str:
        return {
            "open": _l("waiting for a decision"),
            "open_to_head_judge": _l("waiting for the head judge (a proxy already ruled)"),
            "upheld": _l("upheld"),
            "overturned": _l("overturned"),
            "changed": _l("changed"),
        }[self.value]


def appeal_state(status: str, *, after_proxy_ruling: bool) -> AppealState:
    """An appeal's state from its stored status and whether a proxy already decided an appeal of the same ruling."""
    if status == "open" and after_proxy_ruling:
        return AppealState.OPEN_TO_HEAD_JUDGE
    return AppealState(status)


_OPEN_APPEAL = frozenset({AppealState.OPEN, AppealState.OPEN_TO_HEAD_JUDGE})
_DECIDED_APPEAL = frozenset({AppealState.UPHELD, AppealState.OVERTURNED, AppealState.CHANGED})
APPEAL = Machine(
    "appeal",
    AppealState,
    {
        "uphold": (_OPEN_APPEAL, AppealState.UPHELD),
        "overturn": (_OPEN_APPEAL, AppealState.OVERTURNED),
        "change": (_OPEN_APPEAL, AppealState.CHANGED),
        "delegate": (frozenset({AppealState.OPEN}), None),
        "acknowledge": (_DECIDED_APPEAL, None),
    },
    refusals={
        "uphold": (_l("This appeal is already decided: {state}."), _l("Open the incident to see the decision.")),
        "overturn": (_l("This appeal is already decided: {state}."), _l("Open the incident to see the decision.")),
        "change": (_l("This appeal is already decided: {state}."), _l("Open the incident to see the decision.")),
        "delegate": {
            AppealState.OPEN_TO_HEAD_JUDGE: (
                _l("A proxy has already ruled on this incident: this appeal is for the head judge alone."),
                _l("Decide it yourself."),
            ),
            **{
                s: (_l("This appeal is already decided ({state}): there is nothing left to hand over."), "")
                for s in (AppealState.UPHELD, AppealState.OVERTURNED, AppealState.CHANGED)
            },
        },
        "acknowledge": (_l("This appeal is still waiting for a decision."), ""),
    },
)


# ---- disqualifications and their investigations --------------------------------------------------------------------


class InvestigationState(str, enum.Enum):
    OPEN = "open"
    FINALIZED = "finalized"
    DECLINED = "declined"
    WITHDRAWN = "withdrawn"

    @property
    def label(self) -> str:
        return {
            # TRANSLATORS: an investigation's state (statements are being taken)
            "open": _l("open"),
            "finalized": _l("finalized"),
            "declined": _l("recommendation declined"),
            "withdrawn": _l("withdrawn (no longer a disqualification)"),
        }[self.value]


_TAKING_STATEMENTS = frozenset({InvestigationState.OPEN, InvestigationState.FINALIZED})
INVESTIGATION = Machine(
    "investigation",
    InvestigationState,
    {
        "write_up": (frozenset({InvestigationState.OPEN}), None),
        "finalize": (frozenset({InvestigationState.OPEN}), InvestigationState.FINALIZED),
        "decline": (frozenset({InvestigationState.OPEN}), InvestigationState.DECLINED),
        "withdraw": (_TAKING_STATEMENTS, InvestigationState.WITHDRAWN),
        "add_statement": (_TAKING_STATEMENTS, None),  # after finalizing: a dated addendum
        "request_statement": (_TAKING_STATEMENTS, None),
        "revoke_link": (_all(InvestigationState), None),
    },
    refusals={
        "write_up": (
            _l("This investigation is {state} and locked: nothing was changed."),
            _l("Add a dated addendum (a statement) instead."),
        ),
        "finalize": (_l("This investigation is already {state}."), ""),
        "decline": (_l("This investigation is {state}."), ""),
        "withdraw": (_l("This investigation is already {state}."), ""),
        "add_statement": (_l("This investigation is {state}: it takes no more statements."), ""),
        "request_statement": (_l("This investigation is {state}: it takes no more statements."), ""),
    },
)


# ---- deck checks, rounds, events -------------------------------------------------------------------------------------


class DeckCheckState(str, enum.Enum):
    IN_PROGRESS = "in_progress"
    MATCHES = "matches"
    PROBLEMS = "problems"
    UNFINISHED = "unfinished"  # still open when its round ended

    @property
    def label(self) -> str:
        return {
            "in_progress": _l("in progress"),
            "matches": _l("deck matches the registration"),
            "problems": _l("problems found"),
            "unfinished": _l("ended with the round, no result"),
        }[self.value]


DECK_CHECK = Machine(
    "deck check",
    DeckCheckState,
    {
        # a deck check can always be ended while it runs, however long it has been open
        "end": (frozenset({DeckCheckState.IN_PROGRESS}), None),  # to MATCHES or PROBLEMS, as the judge found
        "end_with_round": (frozenset({DeckCheckState.IN_PROGRESS}), DeckCheckState.UNFINISHED),
    },
    refusals={
        "end": (_l("This deck check already ended ({state})."), _l("Log an incident from it if a problem was found.")),
        "end_with_round": (_l("This deck check already ended ({state})."), ""),
    },
)


class RoundState(str, enum.Enum):
    RUNNING = "running"
    ENDED = "ended"


ROUND = Machine(
    "round",
    RoundState,
    {
        "end": (frozenset({RoundState.RUNNING}), RoundState.ENDED),
        "log": (frozenset({RoundState.RUNNING, RoundState.ENDED}), None),  # late incidents of a round stay possible
    },
    refusals={"end": (_l("This round has already ended."), "")},
)


class EventState(str, enum.Enum):
    OPEN = "open"
    CLOSED = "closed"


EVENT = Machine(
    "event",
    EventState,
    {
        "close": (frozenset({EventState.OPEN}), EventState.CLOSED),
        "reopen": (frozenset({EventState.CLOSED}), EventState.OPEN),
        "change": (frozenset({EventState.OPEN}), None),
    },
    refusals={
        "close": (_l("This event is already closed."), ""),
        "reopen": (_l("This event is open."), ""),
        "change": (
            _l("This event is closed: its incidents, appeals and investigations are read-only."),
            _l("The organizer can reopen it, with a reason, if something must still change."),
        ),
    },
)


class ImportState(str, enum.Enum):
    PENDING = "pending"  # uploaded; its columns to map, or a changed round to confirm
    APPLIED = "applied"
    DISCARDED = "discarded"  # the organizer chose not to apply it (kept, as every upload is)

    @property
    def label(self) -> str:
        return {"pending": _l("pending"), "applied": _l("applied"), "discarded": _l("discarded")}[self.value]


TOURNAMENT_IMPORT = Machine(
    "tournament file",
    ImportState,
    {
        "apply": (frozenset({ImportState.PENDING}), ImportState.APPLIED),
        "discard": (frozenset({ImportState.PENDING}), ImportState.DISCARDED),
    },
    refusals={
        "apply": (_l("This file was already {state}."), _l("Upload it again to read it once more.")),
        "discard": (_l("This file was already {state}."), ""),
    },
)


# ---- player records --------------------------------------------------------------------------------------------------


class PlayerRecordState(str, enum.Enum):
    """A player's record: in use, or merged into another record of the same person (kept, never deleted)."""

    ACTIVE = "active"
    MERGED = "merged"

    @property
    def label(self) -> str:
        return str({PlayerRecordState.ACTIVE: _l("in use"), PlayerRecordState.MERGED: _l("merged into another")}[self])


def player_record_state(merged_into_id: int | None) -> PlayerRecordState:
    return PlayerRecordState.ACTIVE if merged_into_id is None else PlayerRecordState.MERGED


PLAYER_RECORD = Machine(
    "player record",
    PlayerRecordState,
    {
        "correct": (frozenset({PlayerRecordState.ACTIVE}), None),
        "merge": (frozenset({PlayerRecordState.ACTIVE}), PlayerRecordState.MERGED),
        "keep": (frozenset({PlayerRecordState.ACTIVE}), None),  # the record another is merged into
    },
    refusals={
        "correct": (
            _l("This player's record was merged into another: it is kept as it was."),
            _l("Correct the record it was merged into."),
        ),
        "merge": (_l("This player's record was already merged into another."), ""),
        "keep": (
            _l("That record was merged into another: merge into the record it was merged into."),
            "",
        ),
    },
)


# ---- judge calls -----------------------------------------------------------------------------------------------------


class CallState(str, enum.Enum):
    """A player's call from their table: waiting, taken by a judge (or handed to the head judge), closed."""

    OPEN = "open"  # waiting for a judge
    TAKEN = "taken"  # a judge said "I'll take it" and is at the table
    ESCALATED = "escalated"  # the judge handed it to the head judge, who has not taken it yet
    CLOSED = "closed"  # answered (no incident), turned into an incident, or closed by the head judge

    @property
    def label(self) -> str:
        return {
            "open": _l("waiting for a judge"),
            "taken": _l("taken"),
            "escalated": _l("handed to the head judge"),
            "closed": _l("closed"),
        }[self.value]


class CallOutcome(str, enum.Enum):
    NO_INCIDENT = "no_incident"  # a rules question answered, nothing to log
    INCIDENT = "incident"  # the judge logged an incident from it
    CANCELLED = "cancelled"  # closed without a judge at the table (the head judge, or the event closing)

    @property
    def label(self) -> str:
        return {"no_incident": _l("no incident"), "incident": _l("incident logged"), "cancelled": _l("cancelled")}[
            self.value
        ]


_CALL_LIVE = frozenset({CallState.OPEN, CallState.TAKEN, CallState.ESCALATED})
CALL = Machine(
    "judge call",
    CallState,
    {
        "take": (frozenset({CallState.OPEN, CallState.ESCALATED}), CallState.TAKEN),
        "escalate": (frozenset({CallState.TAKEN}), CallState.ESCALATED),
        "close": (_CALL_LIVE, CallState.CLOSED),
        "log_incident": (frozenset({CallState.TAKEN}), CallState.CLOSED),
    },
    refusals={
        "take": {
            CallState.TAKEN: (_l("This call was already taken."), _l("See who has it in the queue.")),
            CallState.CLOSED: (_l("This call is already closed."), ""),
        },
        "escalate": {
            CallState.OPEN: (_l("Take the call first, then hand it to the head judge if you need them."), ""),
            CallState.ESCALATED: (_l("This call is already with the head judge."), ""),
            CallState.CLOSED: (_l("This call is already closed."), ""),
        },
        "close": (_l("This call is already closed."), ""),
        "log_incident": {
            CallState.OPEN: (_l("Take the call first."), ""),
            CallState.ESCALATED: (_l("This call is with the head judge: they take it and log what happened."), ""),
            CallState.CLOSED: (_l("This call is already closed."), _l("Log the incident from the event page instead.")),
        },
    },
)

# ---- staff invitations -----------------------------------------------------------------------------------------------


class InvitationState(str, enum.Enum):
    """An organizer's invitation to a role: it counts only once its person accepts it; every end is kept."""

    INVITED = "invited"  # waiting for the invited person's answer; gives no role yet
    ACCEPTED = "accepted"  # the person accepted: the role is theirs (a staff assignment)
    DECLINED = "declined"  # the person said no
    EXPIRED = "expired"  # nobody answered in time (read off the expiry, never stored)

    @property
    def label(self) -> str:
        return {
            "invited": _l("invited"),
            "accepted": _l("accepted"),
            "declined": _l("declined"),
            "expired": _l("expired"),
        }[self.value]


def invitation_state(status: str, *, expired: bool) -> InvitationState:
    """The state of an invitation from its stored status and whether its expiry has passed."""
    state = InvitationState(status)
    return InvitationState.EXPIRED if state is InvitationState.INVITED and expired else state


_ANSWERED = {
    InvitationState.ACCEPTED: (_l("You have already accepted this invitation."), _l("The event is in your list.")),
    InvitationState.DECLINED: (
        _l("You have declined this invitation."),
        _l("Ask the organizer to invite you again if you changed your mind."),
    ),
    InvitationState.EXPIRED: (
        _l("This invitation has expired."),
        _l("Ask the organizer to invite you again."),
    ),
}
INVITATION = Machine(
    "staff invitation",
    InvitationState,
    {
        "accept": (frozenset({InvitationState.INVITED}), InvitationState.ACCEPTED),
        "decline": (frozenset({InvitationState.INVITED}), InvitationState.DECLINED),
    },
    refusals={"accept": _ANSWERED, "decline": _ANSWERED},
)

# ---- jobs ------------------------------------------------------------------------------------------------------------


class JobState(str, enum.Enum):
    """Heavy work run off the request by the job worker (judgeapp/jobs.py): waiting, running, then done or failed."""

    QUEUED = "queued"  # submitted; waits for a worker
    RUNNING = "running"  # a worker runs it and writes its progress
    DONE = "done"  # finished; its result is kept (it may say the organizer must take a step)
    FAILED = "failed"  # ended with a readable reason: an error, over its time or memory limit, or its worker died

    @property
    def label(self) -> str:
        return {"queued": _l("waiting"), "running": _l("running"), "done": _l("done"), "failed": _l("failed")}[
            self.value
        ]


JOB = Machine(
    "job",
    JobState,
    {
        "start": (frozenset({JobState.QUEUED}), JobState.RUNNING),
        "finish": (frozenset({JobState.RUNNING}), JobState.DONE),
        "fail": (frozenset({JobState.QUEUED, JobState.RUNNING}), JobState.FAILED),
    },
    refusals={
        "start": (_l("This job is already {state}."), ""),
        "finish": (_l("This job is {state}: it cannot finish now."), ""),
        "fail": (_l("This job is already {state}."), ""),
    },
)

MACHINES = (
    INCIDENT,
    APPEAL,
    INVESTIGATION,
    DECK_CHECK,
    ROUND,
    EVENT,
    TOURNAMENT_IMPORT,
    CALL,
    INVITATION,
    JOB,
)
