"""Events, staff, players and rounds: one function per use case."""

from __future__ import annotations

import csv
import hashlib
import io
import unicodedata
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import func, select
from sqlalchemy.orm import Session, aliased

from .. import audit, names, permissions
from ..auth.services import create_user, has_password, issue_link, normalise_email
from ..choices import catalog_name
from ..errors import DIRECTION_CONTROLS, FieldError
from ..imports.model import MAX_TABLE, table_number
from ..infractions import Catalog, CatalogError, Policy, UnknownChoice, parse_catalog, round_end
from ..lifecycles import DECK_CHECK, ROUND, DeckCheckState, InvitationState, RoundState, invitation_state
from ..models import (
    DeckCheck,
    DeckCheckResult,
    Division,
    Event,
    EventPolicy,
    Incident,
    InvitationStatus,
    Pairing,
    Player,
    Role,
    Round,
    StaffAssignment,
    StaffInvitation,
    TokenPurpose,
    User,
    utcnow,
)
from ..permissions import Action
from ..records import MAX_CODE, MAX_NAME, lock_event
from ..sandbox import ParseRefused, run_limited
from .forms import ROLE_IN_SENTENCE


@dataclass
class EventData:
    name: str
    date: date
    venue: str
    policy_id: str
    level: int
    rounds: int
    round_minutes: int
    challenge_limit: int | None = None
    statement_days: int = 7
    language: str = "en"  # judgeapp.i18n.LANGUAGES
    tables_across_divisions: bool = False  # the venue numbers its tables once for every division


def _check_language(code: str) -> str:
    from ..i18n import LANGUAGES

    if code not in LANGUAGES:
        raise FieldError("language", _("Unknown language; choose one of %(choices)s.", choices=", ".join(LANGUAGES)))
    return code


def _check_policy_level(catalog: Catalog, policy_id: str, level: int, uploaded: Policy | None = None):
    try:
        policy = uploaded if uploaded is not None and uploaded.id == policy_id else catalog.policy(policy_id)
    except UnknownChoice as err:
        raise FieldError(
            "policy_id", _("Unknown policy; choose one of %(choices)s.", choices=", ".join(err.choices))
        ) from None
    try:
        policy.level(level)
    except UnknownChoice as err:
        raise FieldError(
            "level", _("%(policy)s has levels %(levels)s.", policy=catalog_name(policy), levels=", ".join(err.choices))
        ) from None
    return policy


def create_event(session: Session, catalog: Catalog, *, organizer: User, data: EventData) -> Event:
    """An organizer sets up an event under a policy of the catalog."""
    policy = _check_policy_level(catalog, data.policy_id, data.level)
    event = Event(
        name=data.name.strip(),
        date=data.date,
        venue=data.venue.strip(),
        policy_id=policy.id,
        policy_version=policy.version,
        level=data.level,
        rounds=data.rounds,
        round_minutes=data.round_minutes,
        challenge_limit=data.challenge_limit,
        organizer_id=organizer.id,
        statement_days=data.statement_days or 7,
        language=_check_language(data.language),
        tables_across_divisions=bool(data.tables_across_divisions),
    )
    session.add(event)
    session.flush()
    session.add(Division(event_id=event.id, name="", position=0))  # its one division until a file brings more
    audit.record(session, organizer, "event.create", event, event_id=event.id, policy=policy.id, level=data.level)
    return event


def update_event(
    session: Session, catalog: Catalog, *, actor: User, event: Event, data: EventData, uploaded: Policy | None = None
) -> Event:
    """Change an event's settings; the rounds already started stay. `uploaded`: the policy file the event enforces
    now, when its organizer uploaded one (kept when still chosen; choosing a shipped policy leaves it)."""
    policy = _check_policy_level(catalog, data.policy_id, data.level, uploaded)
    started = session.scalar(select(func.max(Round.number)).where(Round.event_id == event.id)) or 0
    if data.rounds < started:
        raise FieldError(
            "rounds", ngettext("%(num)d round has already started.", "%(num)d rounds have already started.", started)
        )
    if (policy.id, data.level) != (event.policy_id, event.level):
        logged = session.scalar(select(func.count()).select_from(Incident).where(Incident.event_id == event.id))
        if logged:
            field_name = "policy_id" if policy.id != event.policy_id else "level"
            raise FieldError(
                field_name,
                ngettext(
                    "%(num)d incident was logged under %(policy)s at level %(level)s: their penalties and upgrades "
                    "were decided by that policy and level, so they cannot change now. Create a new event for "
                    "another policy or level.",
                    "%(num)d incidents were logged under %(policy)s at level %(level)s: their penalties and upgrades "
                    "were decided by that policy and level, so they cannot change now. Create a new event for "
                    "another policy or level.",
                    logged,
                    policy=event.policy_id,
                    level=event.level,
                ),
            )
    before = {k: _plain(getattr(event, k)) for k in vars(data)}
    event.name, event.date, event.venue = data.name.strip(), data.date, data.venue.strip()
    event.policy_id, event.policy_version, event.level = policy.id, policy.version, data.level
    if policy is not uploaded:
        event.policy_sha = None  # a shipped policy chosen again
    event.rounds, event.round_minutes, event.challenge_limit = data.rounds, data.round_minutes, data.challenge_limit
    event.statement_days = data.statement_days or 7
    event.language = _check_language(data.language)
    event.tables_across_divisions = bool(data.tables_across_divisions)
    after = {k: _plain(getattr(event, k)) for k in vars(data)}
    changed = audit.changes(before, after)
    if changed:
        audit.record(session, actor, "event.update", event, event_id=event.id, changed=changed)
    return event


MAX_POLICY_BYTES = 1024 * 1024  # a whole publisher's guide is some 100 KB of YAML


def upload_policy(
    session: Session,
    *,
    actor: User,
    event: Event,
    filename: str,
    content: bytes,
    level: str,
    reserved: Collection[str] = (),
) -> Policy:
    """The organizer's own policy file for this event (a house policy, a publisher's newer version): validated like the
    shipped catalog (its problems named with the file, line and field), holding exactly one policy whose id is not one
    of `reserved` (the shipped policies' ids); the event enforces it from now on, at `level` (its number or id; empty:
    the event's level, when the policy has it). Refused once incidents are logged, as a change of policy is: that is
    checked before the file is read. The file is bounded before it is parsed, and parsed in a limited child process
    (judgeapp.sandbox). The file is kept as it came, less any text-direction control characters."""
    name = "".join(c for c in filename.replace("\\", "/").rsplit("/", 1)[-1] if c.isprintable())[:200] or "policy.yaml"
    lock_event(session, event)
    logged = session.scalar(select(func.count()).select_from(Incident).where(Incident.event_id == event.id))
    if logged:
        raise FieldError(
            "file",
            ngettext(
                "%(num)d incident was logged under %(policy)s %(version)s: their penalties were decided by it, so "
                "the policy cannot change now.",
                "%(num)d incidents were logged under %(policy)s %(version)s: their penalties were decided by it, so "
                "the policy cannot change now.",
                logged,
                policy=event.policy_id,
                version=event.policy_version,
            ),
        )
    if len(content) > MAX_POLICY_BYTES:
        raise FieldError(
            "file",
            _(
                "%(file)s is larger than %(kb)s KB; a policy file is far smaller.",
                file=name,
                kb=MAX_POLICY_BYTES // 1024,
            ),
        )
    try:
        text = DIRECTION_CONTROLS.sub("", content.decode("utf-8-sig"))
    except UnicodeDecodeError as err:
        raise FieldError(
            "file", _("%(file)s: not UTF-8 text (byte %(byte)s); save the file as UTF-8.", file=name, byte=err.start)
        ) from None
    try:
        catalog = run_limited(parse_catalog, text, name)
    except CatalogError as err:
        raise FieldError("file", "\n".join(err.problems)) from None  # at most MAX_PROBLEMS, then a count
    except ParseRefused as err:
        raise FieldError("file", _("%(file)s: %(why)s", file=name, why=str(err))) from None
    if len(catalog.policies) != 1:
        found = ", ".join(catalog.policies)
        raise FieldError(
            "file",
            _(
                "%(file)s holds %(count)s policies (%(found)s); upload one at a time.",
                file=name,
                count=len(catalog.policies),
                found=found,
            ),
        )
    policy = next(iter(catalog.policies.values()))
    if policy.id in reserved:
        raise FieldError(
            "file",
            _(
                "%(file)s names its policy %(id)s, the id of a policy judgeapp ships; give your policy its own id.",
                file=name,
                id=policy.id,
            ),
        )
    chosen = level.strip() or str(event.level)
    try:
        number = policy.level(chosen).number
    except UnknownChoice as err:
        raise FieldError(
            "level",
            _(
                "%(policy)s has levels %(levels)s; choose one.",
                policy=catalog_name(policy),
                levels=", ".join(err.choices),
            ),
        ) from None
    sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    session.add(
        EventPolicy(
            event_id=event.id,
            policy_id=policy.id,
            version=policy.version,
            filename=name,
            sha256=sha,
            text=text,
            uploaded_by_id=actor.id,
        )
    )
    before = {"policy": event.policy_id, "version": event.policy_version, "level": event.level, "sha": event.policy_sha}
    event.policy_id, event.policy_version, event.level, event.policy_sha = policy.id, policy.version, number, sha
    session.flush()
    audit.record(
        session,
        actor,
        "event.policy_upload",
        event,
        event_id=event.id,
        before=before,
        policy=policy.id,
        version=policy.version,
        level=number,
        sha256=sha,
        file=name,
    )
    return policy


def _plain(value):
    return value.isoformat() if isinstance(value, (date, datetime)) else value


@dataclass
class StaffResult:
    invitation: StaffInvitation
    invite_token: str | None  # the account has no password yet: this one-time link goes to their inbox, nowhere else


def current_staff(session: Session, event: Event) -> list[StaffAssignment]:
    """The event's staff now, role by role; within a role, in the order they were added, or by the readings of their
    names (gojūon order) at a Japanese event."""
    staff = list(
        session.scalars(
            select(StaffAssignment)
            .where(StaffAssignment.event_id == event.id, StaffAssignment.ended_at.is_(None))
            .order_by(StaffAssignment.role, StaffAssignment.id)
        )
    )
    if not in_reading_order(event):
        return staff
    roles = {a.role: i for i, a in reversed(list(enumerate(staff)))}  # each role where it first comes
    return sorted(staff, key=lambda a: (roles[a.role], names.sort_key(a.user.name, a.user.reading)))


def in_reading_order(event: Event) -> bool:
    """Whether the event's lists of people go by the readings of their names: a Japanese event's."""
    return event.language == "ja"


def current_head_judge(session: Session, event: Event) -> StaffAssignment | None:
    return session.scalar(
        select(StaffAssignment).where(
            StaffAssignment.event_id == event.id,
            StaffAssignment.role == Role.HEAD_JUDGE,
            StaffAssignment.ended_at.is_(None),
        )
    )


def add_staff(
    session: Session,
    *,
    actor: User,
    event: Event,
    email: str,
    name: str,
    role: Role | Any,
    invite_lifetime: timedelta = timedelta(days=7),
    replace_head_judge: bool = False,
    now: datetime | None = None,
) -> StaffResult:
    """Invite a person to a role at the event, creating their account (without a password) when they have none.

    The invitation gives no role until its person accepts it (accept_invitation). The organizer's view of it is the
    same whether or not an account existed: the name they typed (else the address) and "invited", never the account
    owner's own name. A new account gets no password (its owner chooses one from an emailed link). Inviting a head
    judge while there is one needs `replace_head_judge`: the organizer is asked first, with the name of who goes."""
    role = Role(role)  # the one Role (judgeapp/roles.py), or its value as a form sends it
    email = normalise_email(email)
    shown = " ".join(name.split()) or email
    current = current_head_judge(session, event) if role is Role.HEAD_JUDGE else None
    if current is not None and not replace_head_judge:
        raise FieldError(
            "replace_head_judge",
            _(
                "%(name)s is the head judge now. Tick the box to replace them once this person accepts.",
                name=current.user.name,
            ),
        )
    user = session.scalar(select(User).where(User.email == email))
    if user is None:  # no name typed: the address stands in until they give theirs with the invite link
        user = create_user(
            session, email=email, name=name.strip() or email.partition("@")[0], password=None, actor=actor
        )
        session.flush()
    already = session.scalar(
        select(StaffAssignment.id).where(
            StaffAssignment.event_id == event.id,
            StaffAssignment.user_id == user.id,
            StaffAssignment.role == role,
            StaffAssignment.ended_at.is_(None),
        )
    )
    waiting = session.scalar(
        select(StaffInvitation.id).where(
            StaffInvitation.event_id == event.id,
            StaffInvitation.user_id == user.id,
            StaffInvitation.role == role,
            StaffInvitation.status == InvitationStatus.INVITED,
            StaffInvitation.expires_at > (now or utcnow()),
        )
    )
    if already is not None:
        raise FieldError(
            "email", _("%(email)s is already %(role)s at this event.", email=email, role=ROLE_IN_SENTENCE[role])
        )
    if waiting is not None:
        raise FieldError(
            "email",
            _("%(email)s is already invited as %(role)s at this event.", email=email, role=ROLE_IN_SENTENCE[role]),
        )
    invitation = StaffInvitation(
        event_id=event.id,
        user_id=user.id,
        invited_by_id=actor.id,
        name=shown[:200],
        role=role,
        status=InvitationStatus.INVITED,
        expires_at=(now or utcnow()) + invite_lifetime,
    )
    session.add(invitation)
    session.flush()
    audit.record(session, actor, "staff.invite", invitation, event_id=event.id, user=email, role=role.value)
    invite = (
        None
        if has_password(user)
        else issue_link(session, user, TokenPurpose.INVITE, lifetime=invite_lifetime, actor=actor)
    )
    return StaffResult(invitation, invite)


def assign_staff(
    session: Session, *, actor: User, event: Event, email: str, name: str, role: Role | Any
) -> StaffAssignment:
    """Give a person a role at the event at once (an accepted invitation; the operator's demo data; tests' set-up),
    creating their account without a password when they have none. A new head judge replaces the current one."""
    role = Role(role)  # the one Role (judgeapp/roles.py), or its value
    email = normalise_email(email)
    user = session.scalar(select(User).where(User.email == email))
    if user is None:
        user = create_user(
            session, email=email, name=name.strip() or email.partition("@")[0], password=None, actor=actor
        )
    return _assign(session, actor, event, user, role)


def _assign(session: Session, actor: User, event: Event, user: User, role: Role) -> StaffAssignment:
    existing = session.scalar(
        select(StaffAssignment).where(
            StaffAssignment.event_id == event.id,
            StaffAssignment.user_id == user.id,
            StaffAssignment.role == role,
            StaffAssignment.ended_at.is_(None),
        )
    )
    if existing is not None:
        raise FieldError(
            "email", _("%(email)s is already %(role)s at this event.", email=user.email, role=ROLE_IN_SENTENCE[role])
        )
    if role == Role.HEAD_JUDGE:
        for old in session.scalars(
            select(StaffAssignment).where(
                StaffAssignment.event_id == event.id,
                StaffAssignment.role == Role.HEAD_JUDGE,
                StaffAssignment.ended_at.is_(None),
            )
        ):
            _end(session, actor, old, f"replaced as head judge by {user.name}")
        session.flush()  # the old head judge's row must be ended before the new one is inserted
    assignment = StaffAssignment(event_id=event.id, user_id=user.id, role=role)
    session.add(assignment)
    session.flush()
    audit.record(session, actor, "staff.add", assignment, event_id=event.id, user=user.email, role=role.value)
    return assignment


# ---- invitations, as the invited person sees and answers them --------------------------------------------------------


def invitation_state_of(invitation: StaffInvitation, now: datetime | None = None) -> InvitationState:
    return invitation_state(invitation.status.value, expired=invitation.expires_at <= (now or utcnow()))


def open_invitations(session: Session, user: User, now: datetime | None = None) -> list[StaffInvitation]:
    """The invitations waiting for `user`'s answer (not answered, not expired), oldest first."""
    return list(
        session.scalars(
            select(StaffInvitation)
            .where(
                StaffInvitation.user_id == user.id,
                StaffInvitation.status == InvitationStatus.INVITED,
                StaffInvitation.expires_at > (now or utcnow()),
            )
            .order_by(StaffInvitation.id)
        )
    )


def invitations_of(session: Session, event: Event) -> list[StaffInvitation]:
    """Every invitation to the event not (yet) accepted, newest first: what the organizer sees of them."""
    return list(
        session.scalars(
            select(StaffInvitation)
            .where(StaffInvitation.event_id == event.id, StaffInvitation.status != InvitationStatus.ACCEPTED)
            .order_by(StaffInvitation.id.desc())
        )
    )


def answer_invitation(
    session: Session, *, user: User, invitation_id: int, accept: bool, now: datetime | None = None
) -> StaffInvitation:
    """The invited person accepts (the role becomes theirs; a head judge replaces the current one) or declines.
    LookupError for an invitation that is not theirs (never shown to anyone else); Refused when it is answered or
    expired. The invitation is kept either way."""
    invitation = session.scalar(select(StaffInvitation).where(StaffInvitation.id == invitation_id).with_for_update())
    if invitation is None or invitation.user_id != user.id:
        raise LookupError(invitation_id)
    transition = "accept" if accept else "decline"
    decision = permissions.answer_invitation(user, invitation, transition, now=now)
    if not decision:
        raise permissions.Refused(decision)
    lock_event(session, invitation.event)
    when = now or utcnow()
    invitation.answered_at = when
    if accept:
        assignment = _assign(session, invitation.invited_by, invitation.event, user, invitation.role)
        invitation.status, invitation.assignment_id = InvitationStatus.ACCEPTED, assignment.id
    else:
        invitation.status = InvitationStatus.DECLINED
    audit.record(
        session,
        user,
        f"staff.invitation_{invitation.status.value}",
        invitation,
        event_id=invitation.event_id,
        role=invitation.role.value,
    )
    return invitation


def join_as_scorekeeper(session: Session, *, actor: User, roles: frozenset[str], event: Event) -> StaffAssignment:
    """The organizer makes themselves the event's scorekeeper (to start and end rounds); their own account, so no
    invitation. Holding the role already changes nothing (a repeated tap)."""
    permissions.transition(session, Action.JOIN_AS_SCOREKEEPER, user=actor, roles=roles, event=event)
    held = session.scalar(
        select(StaffAssignment).where(
            StaffAssignment.event_id == event.id,
            StaffAssignment.user_id == actor.id,
            StaffAssignment.role == Role.SCOREKEEPER,
            StaffAssignment.ended_at.is_(None),
        )
    )
    if held is not None:
        return held
    assignment = StaffAssignment(event_id=event.id, user_id=actor.id, role=Role.SCOREKEEPER)
    session.add(assignment)
    audit.record(
        session,
        actor,
        "staff.add",
        assignment,
        event_id=event.id,
        user=actor.email,
        role=Role.SCOREKEEPER.value,
        own=True,
    )
    return assignment


def current_assignment(session: Session, event: Event, assignment_id: int) -> StaffAssignment | None:
    """A role someone holds now at this event; None for an ended one or another event's."""
    assignment = session.get(StaffAssignment, assignment_id)
    if assignment is None or assignment.event_id != event.id or assignment.ended_at is not None:
        return None
    return assignment


def end_staff(session: Session, *, actor: User, event: Event, assignment_id: int, reason: str) -> StaffAssignment:
    """Take a role away from a person; the assignment is kept, ended, with the reason."""
    assignment = current_assignment(session, event, assignment_id)
    if assignment is None:
        raise LookupError("no such current staff assignment at this event")
    if not reason.strip():
        raise FieldError("reason", _("Say why this person leaves the role."))
    _end(session, actor, assignment, reason.strip())
    return assignment


def _end(session: Session, actor: User, assignment: StaffAssignment, reason: str) -> None:
    assignment.ended_at, assignment.end_reason = utcnow(), reason
    audit.record(
        session,
        actor,
        "staff.end",
        assignment,
        event_id=assignment.event_id,
        note=reason,
        role=assignment.role.value,
        user_id=assignment.user_id,
    )


def _clean_player(name: str, code: str | None) -> tuple[str, str | None]:
    name = " ".join((name or "").split())
    code = (code or "").strip() or None
    if not name:
        raise FieldError("name", "Give the player's name.")
    if len(name) > MAX_NAME:
        raise FieldError("name", f"At most {MAX_NAME} characters.")
    if code is not None and len(code) > MAX_CODE:
        raise FieldError("player_code", f"At most {MAX_CODE} characters.")
    return name, code


def _clean_optional(value: str | None, field_name: str, limit: int, *, nfkc: bool = False) -> str | None:
    """One line of text or None; NFKC for a reading (half-width ｶﾅ as カナ, as imports store it) and an ID."""
    value = " ".join((value or "").split()) or None
    if value is not None and nfkc:
        value = unicodedata.normalize("NFKC", value)
    if value is not None and len(value) > limit:
        raise FieldError(field_name, f"At most {limit} characters.")
    return value


def players_of(session: Session, event: Event) -> list[Player]:
    """The event's players by name, or by the readings of their names (gojūon order) at a Japanese event; not the
    records merged into another (judgeapp/events/player_records.py)."""
    players = list(
        session.scalars(
            select(Player).where(Player.event_id == event.id, Player.merged_into_id.is_(None)).order_by(Player.name)
        )
    )
    return in_name_order(event, players)


def in_name_order(event: Event, players: list[Player]) -> list[Player]:
    """Players (listed by name) as the event lists them: a Japanese event by reading, those without one last."""
    if not in_reading_order(event):
        return players
    return sorted(players, key=lambda p: names.sort_key(p.name, p.reading))


def _code_taken(session: Session, event: Event, code: str | None) -> bool:
    return (
        code is not None
        and session.scalar(select(Player.id).where(Player.event_id == event.id, Player.player_code == code)) is not None
    )


def _clean_team(team: str | None) -> str | None:
    team = " ".join((team or "").split()) or None
    if team is not None and len(team) > MAX_NAME:
        raise FieldError("team", f"At most {MAX_NAME} characters.")
    return team


def add_player(
    session: Session,
    *,
    actor: User,
    event: Event,
    name: str,
    player_code: str | None,
    team: str | None = None,
    reading: str | None = None,
    handle: str | None = None,
    bushiroad_id: str | None = None,
) -> Player:
    """Register one player at the event: a name, and where given their ID, team, the reading of the name (フリガナ),
    the handle they go by and their Bushiroad ID (kept in platform_ids, as imports keep it)."""
    name, code = _clean_player(name, player_code)
    team = _clean_team(team)
    reading = _clean_optional(reading, "reading", MAX_NAME, nfkc=True)
    handle = _clean_optional(handle, "handle", MAX_NAME)
    bushiroad = _clean_optional(bushiroad_id, "bushiroad_id", MAX_CODE, nfkc=True)
    if _code_taken(session, event, code):
        raise FieldError("player_code", f"Player ID {code} is already registered at this event.")
    extra = {"bushiroad": bushiroad} if bushiroad else {}
    player = Player(
        event_id=event.id, name=name, player_code=code, team=team, reading=reading, handle=handle, platform_ids=extra
    )
    session.add(player)
    details: dict[str, Any] = {
        k: v for k, v in (("reading", reading), ("handle", handle), ("platform_ids", extra or None)) if v is not None
    }
    audit.record(
        session, actor, "player.add", player, event_id=event.id, name=name, player_code=code, team=team, **details
    )
    return player


def csv_rows(text: str):
    """The rows of an uploaded CSV, whatever its line endings (old Mac files end lines with a lone CR)."""
    return csv.reader(io.StringIO(text.lstrip("\ufeff"), newline=None))


def start_round(
    session: Session, *, actor: User, event: Event, now: datetime | None = None, division_id: int | None = None
) -> Round:
    """Start a division's next round now (None: the event's first division, its only one in most events); it ends
    after the event's round length. The division's round before it ends now if the head judge had not ended it (with
    whatever was still open in it). Each division keeps its own round clock."""
    now = now or utcnow()
    lock_event(session, event)
    division_id = _division_of_event(session, event, division_id)
    previous = current_round(session, event, division_id)
    last = previous.number if previous else 0
    if last >= event.rounds:
        raise FieldError(
            "round",
            ngettext("The event's only round has been started.", "All %(num)d rounds have been started.", event.rounds),
        )
    if previous is not None and previous.ended_at is None:
        end_round(session, actor=actor, event=event, rnd=previous, now=now)
    rnd = Round(
        event_id=event.id,
        division_id=division_id,
        number=last + 1,
        day=previous.day if previous else 1,  # the same day until the head judge says the next has begun
        started_at=now,
        length_minutes=event.round_minutes,
        started_by_id=actor.id,
    )
    session.add(rnd)
    session.flush()
    audit.record(session, actor, "round.start", rnd, event_id=event.id, number=rnd.number, division_id=division_id)
    return rnd


def _division_of_event(session: Session, event: Event, division_id: int | None, field_name: str = "division") -> int:
    """The division asked for, when it is the event's (None: the event's first division)."""
    if division_id is None:
        first = first_division_id(session, event.id)
        if first is None:  # an event made before it had divisions in code: its one division, made now
            division = Division(event_id=event.id, name="", position=0)
            session.add(division)
            session.flush()
            return division.id
        return first
    if session.scalar(select(Division.id).where(Division.id == division_id, Division.event_id == event.id)) is None:
        raise FieldError(field_name, _("Choose one of the event's divisions."))
    return division_id


@dataclass
class RoundEnded:
    round: Round
    deck_checks: list[DeckCheck]  # ended with the round, unfinished


def end_round(session: Session, *, actor: User, event: Event, rnd: Round, now: datetime | None = None) -> RoundEnded:
    """End a round now (early, once every match is reported, or as the next one starts). What is still open in it
    ends with it, and says so: a deck check still running is ended as unfinished, with its real length."""
    now = now or utcnow()
    lock_event(session, event)
    session.refresh(rnd)
    ROUND.move(RoundState.ENDED if rnd.ended_at else RoundState.RUNNING, "end")
    rnd.ended_at, rnd.ended_by_id = max(now, rnd.started_at), actor.id
    open_checks = list(
        session.scalars(
            select(DeckCheck)
            .where(DeckCheck.round_id == rnd.id, DeckCheck.result == DeckCheckResult.IN_PROGRESS)
            .order_by(DeckCheck.id)
        )
    )
    for dc in open_checks:
        DECK_CHECK.move(DeckCheckState(dc.result.value), "end_with_round")
        dc.ended_at, dc.result = rnd.ended_at, DeckCheckResult.UNFINISHED
        audit.record(
            session,
            actor,
            "deck_check.end_with_round",
            dc,
            event_id=event.id,
            round=rnd.number,
            result=dc.result.value,
            seconds=int((dc.ended_at - dc.started_at).total_seconds()),
        )
    audit.record(
        session,
        actor,
        "round.end",
        rnd,
        event_id=event.id,
        number=rnd.number,
        ended_early=rnd.ended_at < round_ends_at(rnd),
        deck_checks_ended=[dc.id for dc in open_checks],
    )
    return RoundEnded(rnd, open_checks)


def days_open_to(session: Session, rnd: Round) -> list[int]:
    """The days a round may be on: its division's round before it's day or the next one (Day 1 for a first round),
    never past the day of the round after it."""
    before = session.scalar(
        select(Round.day).where(Round.division_id == rnd.division_id, Round.number < rnd.number)
        .order_by(Round.number.desc()).limit(1)
    )  # fmt: skip
    after = session.scalar(
        select(Round.day).where(Round.division_id == rnd.division_id, Round.number > rnd.number)
        .order_by(Round.number).limit(1)
    )  # fmt: skip
    days = [before, before + 1] if before is not None else [1]
    return [d for d in days if after is None or d <= after]


def set_round_day(session: Session, *, actor: User, event: Event, rnd: Round, day: int | None) -> bool:
    """Put a round on the event's day `day` (Day 2 begins with it, or it stays on Day 1); audited as round.day.
    False when it was on that day already. FieldError ("day") for a day the round's place does not allow."""
    lock_event(session, event)
    allowed = days_open_to(session, rnd)
    if day not in allowed:
        raise FieldError(
            "day",
            _(
                "Round %(number)s cannot be on day %(day)s: a round is on the day of the round before it, or the "
                "next day.",
                number=rnd.number,
                day=day if day is not None else "—",
            ),
        )
    if day == rnd.day:
        return False
    audit.record(
        session, actor, "round.day", rnd, event_id=event.id, number=rnd.number, changes={"day": [rnd.day, day]}
    )
    rnd.day = day
    return True


def round_by_number(session: Session, event: Event, number: int, division_id: int | None = None) -> Round | None:
    """Round `number` of a division (None: of the event's first division)."""
    division_id = division_id or first_division_id(session, event.id)
    return session.scalar(
        select(Round).where(Round.event_id == event.id, Round.division_id == division_id, Round.number == number)
    )


def current_round(session: Session, event: Event, division_id: int | None = None) -> Round | None:
    """A division's latest round (None: the event's first division's)."""
    division_id = division_id or first_division_id(session, event.id)
    return session.scalar(
        select(Round)
        .where(Round.event_id == event.id, Round.division_id == division_id)
        .order_by(Round.number.desc())
        .limit(1)
    )


def day_of_round(session: Session, event: Event, number: int | None, division_id: int | None = None) -> int:
    """The event's day (1, 2…) of a division's round `number` (None: its current round; no division: the event's
    first division), which the policy's "day" window counts; Day 1 where there is no such round yet."""
    division_id = division_id or first_division_id(session, event.id)
    query = select(Round.day).where(Round.event_id == event.id, Round.division_id == division_id)
    if number is not None:
        query = query.where(Round.number == number)
    return session.scalar(query.order_by(Round.number.desc()).limit(1)) or 1


def started_round(
    session: Session, event: Event, number: int | None, field_name: str = "round", division_id: int | None = None
) -> Round:
    """The round `number` of a division (default: its current one); it must have started. Without a division, the
    event's only round of that number: where two divisions have one, the division must be chosen."""
    if division_id is None and number is not None:
        found = list(session.scalars(select(Round).where(Round.event_id == event.id, Round.number == number).limit(2)))
        if len(found) > 1:
            raise FieldError(
                "division", _("Choose the division: round %(number)s is running in several.", number=number)
            )
        if found:
            return found[0]
        raise FieldError(field_name, _("Round %(number)s has not started.", number=number))
    if division_id is not None:
        _division_of_event(session, event, division_id)
    if number is None:
        rnd = current_round(session, event, division_id)
        if rnd is None:
            raise FieldError(field_name, _("No round has started yet; the head judge or scorekeeper starts round 1."))
        return rnd
    rnd = round_by_number(session, event, number, division_id)
    if rnd is None:
        raise FieldError(field_name, _("Round %(number)s has not started.", number=number))
    return rnd


def pairings_of(session: Session, rnd: Round | None) -> dict[int, list[Player]]:
    """Table number → the players seated there in `rnd` (empty when no pairings were imported); byes have no table."""
    if rnd is None:
        return {}
    return seating_of(session, rnd.event_id, rnd.number, rnd.division_id)


@dataclass
class PlayerRound:
    """Where the pairings put a player in one round: a table and the opponents there, or a bye (table None)."""

    number: int
    table: int | None
    opponents: list[Player]
    started: bool


def rounds_of_player(session: Session, event: Event, player: Player) -> list[PlayerRound]:
    """The player's round-by-round tables and opponents as imported, rounds not started yet included."""
    mine, theirs = aliased(Pairing), aliased(Pairing)
    rows = session.execute(
        select(mine.round_number, mine.table_number, Player)
        .outerjoin(
            theirs,
            (theirs.event_id == mine.event_id)
            & (theirs.division_id == mine.division_id)
            & (theirs.round_number == mine.round_number)
            & (theirs.table_number == mine.table_number)
            & (theirs.player_id != mine.player_id)
            & theirs.replaced_at.is_(None),
        )
        .outerjoin(Player, Player.id == theirs.player_id)
        .where(mine.event_id == event.id, mine.player_id == player.id, mine.replaced_at.is_(None))
        .order_by(mine.round_number, Player.name)
    )
    started = {r.number for r in rounds_of(session, event) if r.division_id == player.division_id}
    out: dict[int, PlayerRound] = {}
    for number, table, opponent in rows:
        entry = out.setdefault(number, PlayerRound(number, table, [], number in started))
        if opponent is not None:
            entry.opponents.append(opponent)
    return list(out.values())


def byes_of(session: Session, rnd: Round | None) -> list[int]:
    """The ids of the players the pairings give a bye in `rnd` (no table)."""
    if rnd is None:
        return []
    return list(
        session.scalars(
            select(Pairing.player_id).where(
                Pairing.event_id == rnd.event_id,
                Pairing.division_id == rnd.division_id,
                Pairing.round_number == rnd.number,
                Pairing.replaced_at.is_(None),
                Pairing.table_number.is_(None),
            )
        )
    )


def seating_of(
    session: Session, event_id: int, round_number: int, division_id: int | None = None
) -> dict[int, list[Player]]:
    """Table number → the players the pairings seat there in round `round_number` (started or not) of one division
    (None: of the event's first division, the only one of most events)."""
    if division_id is None:
        division_id = first_division_id(session, event_id)
    out: dict[int, list[Player]] = {}
    rows = session.execute(
        select(Pairing.table_number, Player)
        .join(Player, Player.id == Pairing.player_id)
        .where(
            Pairing.event_id == event_id,
            Pairing.division_id == division_id,
            Pairing.round_number == round_number,
            Pairing.replaced_at.is_(None),
            Pairing.table_number.is_not(None),
        )
        .order_by(Pairing.table_number, Pairing.seat, Player.name)
    )
    for table, player in rows:
        if table is not None:  # byes are filtered above; this tells the type checker
            out.setdefault(table, []).append(player)
    return out


def divisions_of(session: Session, event: Event | int) -> list[Division]:
    """The event's divisions in their order (one for most events)."""
    event_id = event if isinstance(event, int) else event.id
    return list(
        session.scalars(select(Division).where(Division.event_id == event_id).order_by(Division.position, Division.id))
    )


@dataclass
class DivisionGroup:
    """A list's records of one division (`division` None: the event has only one, and the list shows no heading)."""

    division: Division | None
    items: list


def by_division(divisions: list[Division], items: Iterable[Any], division_id_of: Callable[[Any], int]) -> list:
    """A list grouped by division in the event's order, each group in the list's own order; at an event of one
    division, one group without a division, the list as it was."""
    items = list(items)
    if len(divisions) < 2:
        return [DivisionGroup(None, items)]
    groups = {d.id: DivisionGroup(d, []) for d in divisions}
    for item in items:
        groups[division_id_of(item)].items.append(item)
    return [g for g in groups.values() if g.items] or [DivisionGroup(None, [])]  # none: the list's empty line


def first_division_id(session: Session, event_id: int) -> int | None:
    return session.scalar(
        select(Division.id).where(Division.event_id == event_id).order_by(Division.position, Division.id).limit(1)
    )


def rounds_of(session: Session, event: Event) -> list[Round]:
    return list(session.scalars(select(Round).where(Round.event_id == event.id).order_by(Round.number)))


def round_ends_at(rnd: Round) -> datetime:
    return round_end(rnd.started_at, rnd.length_minutes)


@dataclass
class PairingReport:
    round: Round
    added: int = 0
    rejected: list[tuple[int, str, str]] = field(default_factory=list)


def _pairing_row(
    cells: list[str],
    codes: dict[str, Player],
    seated: set[int],
    in_file: dict[str, tuple[int, int]],
    tables: dict[int, int | None],
) -> tuple[str | None, int, list[str]]:
    """(what is wrong with a pairings row or None, its table, its player IDs)."""
    table, wanted = table_number(cells[0]), [c for c in cells[1:] if c]
    if not wanted:
        return _("expected: table number, player id, player id"), 0, wanted
    if table is None:
        return _("the table must be a number from 1 to %(max)s", max=MAX_TABLE), 0, wanted
    unknown = [c for c in wanted if c not in codes]
    if unknown:
        return _("unknown player ID %(ids)s", ids=", ".join(unknown)), table, wanted
    repeated = sorted({c for c in wanted if wanted.count(c) > 1})
    if repeated:
        return _("player ID %(ids)s is named twice in this row", ids=", ".join(repeated)), table, wanted
    earlier = [c for c in wanted if c in in_file]
    if earlier:
        where = in_file[earlier[0]]
        return (
            _(
                "already seated this round: %(id)s (table %(table)s, line %(line)s of this file)",
                id=earlier[0],
                table=where[0],
                line=where[1],
            ),
            table,
            wanted,
        )
    twice = [c for c in wanted if codes[c].id in seated]
    if twice:
        return _("already seated this round: %(ids)s", ids=", ".join(twice)), table, wanted
    if table in tables:
        line = tables[table]
        if line is None:
            return _("table %(table)s already seats a match this round", table=table), table, wanted
        return (
            _("table %(table)s already seats a match this round (line %(line)s of this file)", table=table, line=line),
            table,
            wanted,
        )
    return None, table, wanted


def import_pairings(
    session: Session, *, actor: User, event: Event, round_number: int, text: str, division_id: int | None = None
) -> PairingReport:
    """Seat players for a started round (of a division: None, the event's only one) from CSV rows `table, player
    id[, player id …]`; bad rows are reported."""
    rnd = started_round(session, event, round_number, division_id=division_id)
    report = PairingReport(rnd)
    codes = {p.player_code: p for p in players_of(session, event) if p.player_code}
    live = select(Pairing.player_id, Pairing.table_number).where(
        Pairing.event_id == event.id,
        Pairing.division_id == rnd.division_id,
        Pairing.round_number == rnd.number,
        Pairing.replaced_at.is_(None),
    )
    stored = session.execute(live).all()
    seated = {pid for pid, _table in stored}
    tables: dict[int, int | None] = {t: None for _pid, t in stored if t is not None}  # table -> line of this file
    in_file: dict[str, tuple[int, int]] = {}  # player ID -> (table, line) where this file seats them
    for line, row in enumerate(csv_rows(text), start=1):
        raw = ",".join(row)
        cells = [c.strip() for c in row]
        if not any(cells):
            continue
        if line == 1 and table_number(cells[0]) is None and not any(c in codes for c in cells[1:]):
            continue  # a header row
        problem, table, wanted = _pairing_row(cells, codes, seated, in_file, tables)
        if problem:
            report.rejected.append((line, raw, problem))
            continue
        tables[table] = line
        for seat, code in enumerate(wanted, start=1):
            session.add(
                Pairing(
                    event_id=event.id,
                    division_id=rnd.division_id,
                    round_number=rnd.number,
                    table_number=table,
                    seat=seat,
                    player_id=codes[code].id,
                )
            )
            in_file[code] = (table, line)
            report.added += 1
    if report.added:
        audit.record(
            session,
            actor,
            "pairings.import",
            rnd,
            event_id=event.id,
            round=rnd.number,
            seated=report.added,
            rejected=len(report.rejected),
        )
    return report
