"""Database records (SQLAlchemy 2.0 typed models). Records only: rules live in services and infractions/."""

from __future__ import annotations

import enum
from datetime import UTC, date, datetime
from typing import Annotated, Any, ClassVar

from sqlalchemy import (
    JSON,
    Dialect,
    Enum,
    ForeignKey,
    Index,
    LargeBinary,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    false,
    select,
    text,
)
from sqlalchemy import event as sa_event
from sqlalchemy.orm import Mapped, mapped_column, relationship
from sqlalchemy.orm import Session as OrmSession

from .database import Base
from .infractions import ExtensionReason
from .lifecycles import (  # one wording of each state
    AppealState,
    CallOutcome,
    CallState,
    DeckCheckState,
    ImportState,
    InvestigationState,
    JobState,
)
from .roles import STAFF_ROLES as STAFF_ROLES  # re-exported: the stored staff roles
from .roles import Role as Role
from .texts import lazy_gettext as _l


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


intpk = Annotated[int, mapped_column(primary_key=True)]
created_at = Annotated[datetime, mapped_column(default=utcnow)]
name_str = Annotated[str, mapped_column(String(200))]


def _enum(cls: type[enum.Enum]) -> Enum:
    """Store enums by value, with a CHECK constraint named after the type."""
    return Enum(
        cls,
        values_callable=lambda e: [m.value for m in e],
        native_enum=False,
        length=32,
        create_constraint=True,
        name=cls.__name__.lower(),
    )


class _StaffRole(TypeDecorator[Role]):
    """A staff role (STAFF_ROLES) stored by value, with the CHECK constraint named `role`: the one Role
    (judgeapp/roles.py) also names who holds no assignment (the organizer, a table link), never stored here."""

    impl = Enum(*(r.value for r in STAFF_ROLES), native_enum=False, length=32, create_constraint=True, name="role")
    cache_ok = True

    def process_bind_param(self, value: Role | str | None, dialect: Dialect) -> str | None:
        if value is None:
            return None
        if Role(value) not in STAFF_ROLES:
            raise ValueError(f"{Role(value).value} is not a staff role")
        return Role(value).value

    def process_result_value(self, value: str | None, dialect: Dialect) -> Role | None:
        return None if value is None else Role(value)


class User(Base):
    __tablename__ = "users"

    id: Mapped[intpk]
    email: Mapped[str] = mapped_column(String(254), unique=True)
    name: Mapped[name_str]
    password_hash: Mapped[str] = mapped_column(String(255))
    is_organizer: Mapped[bool] = mapped_column(default=False)
    reading: Mapped[str | None] = mapped_column(String(200))  # the reading of the name (フリガナ), where given
    locale: Mapped[str | None] = mapped_column(String(16))  # the account's language (judgeapp/i18n.py); None: browser's
    created_at: Mapped[created_at]

    # Flask-Login protocol: the id kept in the cookie is the server-side session token, not the user id.
    session_token: ClassVar[str | None] = None  # set per loaded instance, never stored
    is_active = True
    is_authenticated = True
    is_anonymous = False

    def get_id(self) -> str | None:
        return self.session_token


class UserSession(Base):
    """A signed-in browser. The cookie holds a random token; only its SHA-256 is stored."""

    __tablename__ = "user_sessions"

    id: Mapped[intpk]
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created_at: Mapped[created_at]
    expires_at: Mapped[datetime]
    ended_at: Mapped[datetime | None]
    end_reason: Mapped[str | None] = mapped_column(String(40))
    user_agent: Mapped[str | None] = mapped_column(String(300))

    user: Mapped[User] = relationship()


class Event(Base):
    __tablename__ = "events"

    id: Mapped[intpk]
    name: Mapped[name_str]
    date: Mapped[date]
    venue: Mapped[name_str]
    policy_id: Mapped[str] = mapped_column(String(64))
    policy_version: Mapped[str] = mapped_column(String(64))
    level: Mapped[int]
    rounds: Mapped[int]
    round_minutes: Mapped[int]
    challenge_limit: Mapped[int | None]
    statement_days: Mapped[int] = mapped_column(default=7, server_default="7")  # one-time statement links stay open
    organizer_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created_at: Mapped[created_at]
    # Closed by the organizer after the last round: records are read-only until reopened (both audited).
    closed_at: Mapped[datetime | None]
    closed_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    # The secret the tables' call links are signed with (judgeapp/calls): made when the links are first shown.
    call_key: Mapped[str | None] = mapped_column(String(64))
    # When the event enforces a policy file its organizer uploaded (EventPolicy) instead of a shipped one: its SHA-256.
    policy_sha: Mapped[str | None] = mapped_column(String(64))
    # The event's language (judgeapp/i18n.LANGUAGES): its reports, players' pages, and judges who chose no language.
    language: Mapped[str] = mapped_column(String(16), default="en", server_default="en")
    # The venue numbers its tables across divisions (table 12 is one table whatever the division): a table number is
    # then used once per round by the whole event, not once per round of each division.
    tables_across_divisions: Mapped[bool] = mapped_column(default=False, server_default=false())

    organizer: Mapped[User] = relationship(foreign_keys=[organizer_id])
    closed_by: Mapped[User | None] = relationship(foreign_keys=[closed_by_id])
    staff: Mapped[list[StaffAssignment]] = relationship(back_populates="event", order_by="StaffAssignment.id")


class StaffAssignment(Base):
    """One role one person holds at one event. Ended, never deleted."""

    __tablename__ = "staff_assignments"
    __table_args__ = (
        Index(
            "uq_staff_one_head_judge",
            "event_id",
            unique=True,
            sqlite_where=text("role = 'head_judge' AND ended_at IS NULL"),
            postgresql_where=text("role = 'head_judge' AND ended_at IS NULL"),
        ),
        Index("ix_staff_event_user", "event_id", "user_id"),
    )

    id: Mapped[intpk]
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    role: Mapped[Role] = mapped_column(_StaffRole())
    created_at: Mapped[created_at]
    ended_at: Mapped[datetime | None]
    end_reason: Mapped[str | None] = mapped_column(String(300))

    event: Mapped[Event] = relationship(back_populates="staff")
    user: Mapped[User] = relationship()


class InvitationStatus(str, enum.Enum):
    """What became of a staff invitation (stored; an open one past its expiry reads as expired, lifecycles.py)."""

    INVITED = "invited"
    ACCEPTED = "accepted"
    DECLINED = "declined"


class StaffInvitation(Base):
    """An organizer's invitation of one account to one role at one event. It gives no role until its person accepts
    (then `assignment_id` names the role it became); declined and expired ones are kept, never deleted."""

    __tablename__ = "staff_invitations"
    __table_args__ = (Index("ix_staff_invitations_user_status", "user_id", "status"),)

    id: Mapped[intpk]
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    invited_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    name: Mapped[str] = mapped_column(String(200))  # as the organizer typed it (else the address): all they ever see
    role: Mapped[Role] = mapped_column(_StaffRole())
    status: Mapped[InvitationStatus] = mapped_column(_enum(InvitationStatus), default=InvitationStatus.INVITED)
    created_at: Mapped[created_at]
    expires_at: Mapped[datetime]
    answered_at: Mapped[datetime | None]
    assignment_id: Mapped[int | None] = mapped_column(ForeignKey("staff_assignments.id"))

    event: Mapped[Event] = relationship()
    user: Mapped[User] = relationship(foreign_keys=[user_id])
    invited_by: Mapped[User] = relationship(foreign_keys=[invited_by_id])


class Division(Base):
    """One part of an event run by the same staff with its own players, rounds (and round clock), pairings and tables:
    a Pokémon age division, a flight, a side event. Every event has one (named "" until a file names it); an event
    with one division shows none. `top_cut_from`: its first single-elimination round, where the file says so (the
    rounds from there are its top cut of `top_cut_size` players)."""

    __tablename__ = "divisions"
    __table_args__ = (UniqueConstraint("event_id", "name", name="uq_divisions_event_name"),)

    id: Mapped[intpk]
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    name: Mapped[str] = mapped_column(String(200), default="")
    position: Mapped[int] = mapped_column(default=0)  # its place among the event's divisions
    starting_table: Mapped[int | None]
    top_cut_from: Mapped[int | None]
    top_cut_size: Mapped[int | None]
    created_at: Mapped[created_at]


class Player(Base):
    """One player of one event. A record found to be the same person as another is merged into it: kept, marked
    (`merged_into_id`, `merged_at`), its incidents, pairings and deck checks moved to the record kept (audited as
    `player.merge`), never deleted (judgeapp/events/player_records.py)."""

    __tablename__ = "players"
    __table_args__ = (
        UniqueConstraint("event_id", "player_code", name="uq_players_event_code"),
        # the players page: the records in use (not merged), counted and paged in name or reading order by index
        Index("ix_players_event_merged_name", "event_id", "merged_into_id", "name"),
        Index("ix_players_event_merged_list_key", "event_id", "merged_into_id", "list_key"),
    )

    id: Mapped[intpk]
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    name: Mapped[name_str]
    player_code: Mapped[str | None] = mapped_column(String(64))
    team: Mapped[str | None] = mapped_column(String(200))  # team events: a team penalty counts for each member
    reading: Mapped[str | None] = mapped_column(String(200))  # the reading of the name (フリガナ), where known
    handle: Mapped[str | None] = mapped_column(String(200))  # the name the player goes by (online or at the shop)
    country: Mapped[str | None] = mapped_column(String(64))
    # IDs of the player on other platforms, as the imported file gave them: {"pokemon": "…", "konami": "…"}
    platform_ids: Mapped[dict[str, str]] = mapped_column(JSON, default=dict, server_default=text("'{}'"))
    created_at: Mapped[created_at]
    # The division the player plays in (one per player); left None on a new record, the event's first division is
    # given at flush (judgeapp/divisions.py).
    division_id: Mapped[int] = mapped_column(ForeignKey("divisions.id"), index=True)

    division: Mapped[Division] = relationship(foreign_keys=[division_id])
    # Kept up to date from the fields above whenever the record is written (judgeapp/events/player_records.py):
    # what the players page searches (names.search_key of the name, reading, handle and ID) and the order of a
    # Japanese event's list (names.list_key: gojūon order of the reading), so a page of 130,000 is one indexed query.
    search_key: Mapped[str | None] = mapped_column(String(800))
    list_key: Mapped[str | None] = mapped_column(String(800))
    merged_into_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    merged_at: Mapped[datetime | None]


class Round(Base):
    """A started round of one division, with its clock."""

    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("division_id", "number", name="uq_rounds_division_number"),)

    id: Mapped[intpk]
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    division_id: Mapped[int] = mapped_column(ForeignKey("divisions.id"), index=True)
    number: Mapped[int]
    # The event's day the round is played on (Day 1, Day 2…): the policy's "day" window counts these, not calendar
    # dates. A new round continues its division's day; the head judge moves it on from the event page.
    day: Mapped[int] = mapped_column(default=1, server_default="1")
    started_at: Mapped[datetime]
    length_minutes: Mapped[int]
    started_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    # Ended by the head judge or scorekeeper (early, once every match is reported); None: ends on the clock.
    ended_at: Mapped[datetime | None]
    ended_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))

    division: Mapped[Division] = relationship(foreign_keys=[division_id])


class AuditEntry(Base):
    """One row per state change, written in the same transaction as the change."""

    __tablename__ = "audit_entries"

    id: Mapped[intpk]
    at: Mapped[created_at]
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    event_id: Mapped[int | None] = mapped_column(ForeignKey("events.id"), index=True)
    action: Mapped[str] = mapped_column(String(64))
    object_type: Mapped[str] = mapped_column(String(64))
    object_id: Mapped[int | None]
    details: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    note: Mapped[str | None] = mapped_column(Text)


class EventPolicy(Base):
    """A policy file an organizer uploaded for one event (a house policy, a publisher's newer version), kept as it
    came; the event enforces the one whose SHA-256 it names. Earlier uploads stay, never deleted."""

    __tablename__ = "event_policies"

    id: Mapped[intpk]
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    policy_id: Mapped[str] = mapped_column(String(64))
    version: Mapped[str] = mapped_column(String(64))
    filename: Mapped[str] = mapped_column(String(255), default="")
    sha256: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    uploaded_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    uploaded_at: Mapped[created_at]

    uploaded_by: Mapped[User] = relationship()


class TournamentImport(Base):
    """One tournament file an organizer or scorekeeper uploaded, kept as it came: what it was read as, and whether
    it was applied (pending while the organizer maps its columns or confirms replacing a round's pairings)."""

    __tablename__ = "tournament_imports"

    id: Mapped[intpk]
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    uploaded_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    uploaded_at: Mapped[created_at]
    filename: Mapped[str] = mapped_column(String(255), default="")
    sha256: Mapped[str] = mapped_column(String(64))
    content: Mapped[bytes] = mapped_column(LargeBinary)
    format: Mapped[str | None] = mapped_column(String(16))  # tom, kts, melee, csv; None: not understood
    mapping: Mapped[dict[str, str] | None] = mapped_column(
        JSON
    )  # a spreadsheet's columns, as the organizer mapped them
    status: Mapped[ImportState] = mapped_column(_enum(ImportState), default=ImportState.PENDING)
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # the report shown, once applied
    settled_at: Mapped[datetime | None]

    uploaded_by: Mapped[User] = relationship()


class Pairing(Base):
    """Who sits at which table in a round, as the pairing software paired them; a bye has no table. Pairings are
    kept by round number, so a file can bring rounds the head judge has not started yet. A round's pairings that a
    later file replaced (the organizer confirmed it) are kept, marked replaced, never deleted. A pairing belongs to
    its player's division; `seat` is the player's place at the table (1, 2…): a table of a division's round seats one
    match, so no two live pairings share a division, round, table and seat."""

    __tablename__ = "pairings"
    __table_args__ = (
        Index(
            "uq_pairings_division_round_table_seat",
            "division_id",
            "round_number",
            "table_number",
            "seat",
            unique=True,
            sqlite_where=text("replaced_at IS NULL AND table_number IS NOT NULL"),
            postgresql_where=text("replaced_at IS NULL AND table_number IS NOT NULL"),
        ),
        Index(
            "uq_pairings_event_round_player",
            "event_id",
            "round_number",
            "player_id",
            unique=True,
            sqlite_where=text("replaced_at IS NULL"),
            postgresql_where=text("replaced_at IS NULL"),
        ),
        Index("ix_pairings_event_round_table", "event_id", "round_number", "table_number"),
        Index("ix_pairings_player", "player_id"),
    )

    id: Mapped[intpk]
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"))
    round_number: Mapped[int]
    table_number: Mapped[int | None]  # None: a bye
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    import_id: Mapped[int | None] = mapped_column(ForeignKey("tournament_imports.id"))
    replaced_at: Mapped[datetime | None]
    replaced_by_import_id: Mapped[int | None] = mapped_column(ForeignKey("tournament_imports.id"))
    division_id: Mapped[int] = mapped_column(ForeignKey("divisions.id"))
    seat: Mapped[int] = mapped_column(default=1, server_default="1")

    player: Mapped[Player] = relationship(foreign_keys=[player_id])
    division: Mapped[Division] = relationship(foreign_keys=[division_id])


class SubjectKind(str, enum.Enum):
    """Who an incident is about."""

    PLAYER = "player"
    TEAM = "team"
    SPECTATOR = "spectator"


class IncidentStatus(str, enum.Enum):
    STANDING = "standing"
    RECOMMENDED = "recommended"  # a floor judge recommends a penalty only the head judge may give
    VOID = "void"
    OVERTURNED = "overturned"

    @property
    def label(self) -> str:
        return {
            "standing": _l("standing"),
            "recommended": _l("pending head judge"),
            "void": _l("void"),
            "overturned": _l("overturned"),
        }[self.value]


class Incident(Base):
    """One infraction logged by a judge. Corrected or voided, never deleted."""

    __tablename__ = "incidents"
    __table_args__ = (
        UniqueConstraint("event_id", "number", name="uq_incidents_event_number"),
        UniqueConstraint("event_id", "client_key", name="uq_incidents_event_client_key"),
    )

    id: Mapped[intpk]
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"))
    number: Mapped[int]  # shown as "incident #n", counted per event
    client_key: Mapped[str] = mapped_column(String(64))  # the form's one-time key, unique in its event (records.py)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"))
    table_number: Mapped[int | None]
    subject_kind: Mapped[SubjectKind] = mapped_column(_enum(SubjectKind))
    subject_name: Mapped[name_str]  # player, team or spectator as it read when logged
    infraction_code: Mapped[str] = mapped_column(String(32))
    subsection: Mapped[str] = mapped_column(String(32))
    rank_id: Mapped[str | None] = mapped_column(String(64))  # None: not penalised
    # the assistant head judge who confirmed (or declined) the recommended penalty: final for the floor judge, still
    # appealable to the head judge (Play! Pokémon Penalty Guidelines 2.1, 4.1)
    confirmed_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    # the escalation the policy offered as the judge's call when it was logged (Pokémon 4.2.2), taken or not: the
    # reports and CSVs say which
    offered_rank_id: Mapped[str | None] = mapped_column(String(64))
    suggested_rank_id: Mapped[str | None] = mapped_column(String(64))
    suggestion_explanation: Mapped[str | None] = mapped_column(Text)  # the engine's sentence when it suggested
    upgraded: Mapped[bool] = mapped_column(default=False)
    upgrade_refs: Mapped[list[int]] = mapped_column(JSON, default=list)  # incident numbers that made it a repeat
    deviation_reason: Mapped[str | None] = mapped_column(Text)
    description: Mapped[str] = mapped_column(Text, default="")
    minutes_late: Mapped[int | None]  # for tardiness by minutes (the policy's rows): how late, as the judge gave it
    # the game of the round's match (1, 2, 3…), asked where a rule counts per game (FaB PPG 3.3: "in the same game")
    game_number: Mapped[int | None]
    # the earlier incident of the same player and round this one shares its cause with, where the policy gives one
    # penalty for related errors (Magic IPG 1.2): this one is kept with no penalty of its own and is never a repeat
    related_to_id: Mapped[int | None] = mapped_column(ForeignKey("incidents.id"))
    status: Mapped[IncidentStatus] = mapped_column(_enum(IncidentStatus), default=IncidentStatus.STANDING)
    status_reason: Mapped[str | None] = mapped_column(Text)
    deck_check_id: Mapped[int | None] = mapped_column(ForeignKey("deck_checks.id"))
    call_started_at: Mapped[datetime | None]
    judge_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[created_at]
    updated_at: Mapped[datetime | None]
    # logged on a phone without network and sent later from its outbox:
    logged_offline_at: Mapped[datetime | None]  # when the judge logged it, by the phone's clock (UTC)
    phone_suggestion: Mapped[dict | None] = mapped_column(JSON)  # what the phone showed: suggested, upgraded, because
    suggestion_changed: Mapped[bool] = mapped_column(default=False, server_default=false())  # server's answer differed
    # when the head judge last ruled on it (their own ruling, a correction, a decision): final for floor judges since
    head_judge_decided_at: Mapped[datetime | None]

    judge: Mapped[User] = relationship(foreign_keys="Incident.judge_id")
    round: Mapped[Round] = relationship()
    subjects: Mapped[list[IncidentSubject]] = relationship(back_populates="incident", order_by="IncidentSubject.id")
    related_to: Mapped[Incident | None] = relationship(remote_side="Incident.id", foreign_keys="Incident.related_to_id")


class IncidentSubject(Base):
    """A player whose history an incident counts in (one for a player, every member for a team)."""

    __tablename__ = "incident_subjects"
    __table_args__ = (UniqueConstraint("incident_id", "player_id", name="uq_incident_subjects"),)

    id: Mapped[intpk]
    incident_id: Mapped[int] = mapped_column(ForeignKey("incidents.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)

    incident: Mapped[Incident] = relationship(back_populates="subjects")
    player: Mapped[Player] = relationship()


class DeckCheckResult(str, enum.Enum):
    IN_PROGRESS = "in_progress"
    MATCHES = "matches"
    PROBLEMS = "problems"
    UNFINISHED = "unfinished"  # still open when its round ended: ended with the round, no result

    @property
    def label(self) -> str:
        return DeckCheckState(self.value).label


class DeckCheck(Base):
    __tablename__ = "deck_checks"
    __table_args__ = (UniqueConstraint("event_id", "client_key", name="uq_deck_checks_event_client_key"),)

    id: Mapped[intpk]
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    client_key: Mapped[str] = mapped_column(String(64))
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"))
    table_number: Mapped[int]
    judge_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    started_at: Mapped[datetime]
    ended_at: Mapped[datetime | None]
    result: Mapped[DeckCheckResult] = mapped_column(_enum(DeckCheckResult), default=DeckCheckResult.IN_PROGRESS)
    notes: Mapped[str] = mapped_column(Text, default="")

    judge: Mapped[User] = relationship()
    round: Mapped[Round] = relationship()
    players: Mapped[list[Player]] = relationship(secondary="deck_check_players", order_by="Player.name")


class DeckCheckPlayer(Base):
    __tablename__ = "deck_check_players"

    deck_check_id: Mapped[int] = mapped_column(ForeignKey("deck_checks.id"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)


class TimeExtension(Base):
    """Minutes given back to the match at one table in one round."""

    __tablename__ = "time_extensions"
    __table_args__ = (
        Index("ix_time_extensions_round_table", "round_id", "table_number"),
        UniqueConstraint("event_id", "client_key", name="uq_time_extensions_event_client_key"),
    )

    id: Mapped[intpk]
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    client_key: Mapped[str] = mapped_column(String(64))
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"))
    table_number: Mapped[int]
    minutes: Mapped[int]  # 0 when only extra turns were given
    extra_turns: Mapped[int | None]  # turns given as well as (or instead of) minutes, where the policy allows them
    proposed_minutes: Mapped[int | None]  # what the policy's rule owed, when the pause was timed
    adjust_reason: Mapped[str | None] = mapped_column(Text)
    reason: Mapped[ExtensionReason] = mapped_column(_enum(ExtensionReason))
    paused_from: Mapped[datetime | None]
    paused_to: Mapped[datetime | None]
    incident_id: Mapped[int | None] = mapped_column(ForeignKey("incidents.id"))
    deck_check_id: Mapped[int | None] = mapped_column(ForeignKey("deck_checks.id"))
    judge_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[created_at]
    voided_at: Mapped[datetime | None]
    void_reason: Mapped[str | None] = mapped_column(Text)

    judge: Mapped[User] = relationship()
    round: Mapped[Round] = relationship()


class AppealStatus(str, enum.Enum):
    OPEN = "open"
    UPHELD = "upheld"
    OVERTURNED = "overturned"  # the penalty is taken back
    CHANGED = "changed"  # another infraction or penalty replaces the ruling

    @property
    def label(self) -> str:
        return AppealState(self.value).label


class Appeal(Base):
    """A player's appeal of a floor ruling to the head judge (or the head judge's proxy for this appeal)."""

    __tablename__ = "appeals"
    __table_args__ = (
        UniqueConstraint("event_id", "number", name="uq_appeals_event_number"),
        Index("ix_appeals_event_status", "event_id", "status"),
        UniqueConstraint("event_id", "client_key", name="uq_appeals_event_client_key"),
    )

    id: Mapped[intpk]
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"))
    number: Mapped[int]  # "appeal #n", counted per event
    client_key: Mapped[str] = mapped_column(String(64))
    incident_id: Mapped[int] = mapped_column(ForeignKey("incidents.id"), index=True)
    appellant_name: Mapped[name_str]
    appellant_player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), index=True)
    appellant_is_penalized: Mapped[bool]  # the penalized player (True) or their opponent
    contest: Mapped[str] = mapped_column(Text)  # what the player disputes, in their words as the judge noted them
    # which part of the ruling is disputed: "penalty", "remedy" (how the game was put right) or "both"
    contests: Mapped[str] = mapped_column(String(16), default="both", server_default="both")
    ruling: Mapped[dict[str, Any]] = mapped_column(JSON)  # the floor ruling as it stood when appealed
    ruling_judge_id: Mapped[int] = mapped_column(ForeignKey("users.id"))  # who made the ruling appealed
    filed_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    filed_at: Mapped[created_at]
    status: Mapped[AppealStatus] = mapped_column(_enum(AppealStatus), default=AppealStatus.OPEN)
    proxy_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))  # a judge deciding for the head judge
    decided_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    decided_as_proxy: Mapped[bool] = mapped_column(default=False)
    decided_at: Mapped[datetime | None]
    decision_reason: Mapped[str | None] = mapped_column(Text)
    new_ruling: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    uses_challenge: Mapped[bool] = mapped_column(default=False)
    seen_by_judge_at: Mapped[datetime | None]  # when the judge who ruled acknowledged the decision

    incident: Mapped[Incident] = relationship()
    ruling_judge: Mapped[User] = relationship(foreign_keys=[ruling_judge_id])
    filed_by: Mapped[User] = relationship(foreign_keys=[filed_by_id])
    proxy: Mapped[User | None] = relationship(foreign_keys=[proxy_id])
    decided_by: Mapped[User | None] = relationship(foreign_keys=[decided_by_id])


class InvestigationStatus(str, enum.Enum):
    OPEN = "open"
    FINALIZED = "finalized"
    DECLINED = "declined"  # the head judge declined a floor judge's recommendation
    WITHDRAWN = "withdrawn"  # the disqualification was corrected down: statements kept, shown as withdrawn

    @property
    def label(self) -> str:
        return InvestigationState(self.value).label


class DisqualificationJudge(Base):
    """A judge who agreed to a disqualification the policy has decided by a number of judges (Play! Pokémon 4.1: at
    Regional Championships and above three judges, the head judge among them): one row per other judge, recorded
    when the head judge issues it. Never deleted."""

    __tablename__ = "disqualification_judges"
    __table_args__ = (UniqueConstraint("incident_id", "user_id", name="uq_disqualification_judges_incident_user"),)

    id: Mapped[intpk]
    incident_id: Mapped[int] = mapped_column(ForeignKey("incidents.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[created_at]

    user: Mapped[User] = relationship()


class Investigation(Base):
    """The head judge's inquiry into one disqualification: statements, their own write-up, the decision."""

    __tablename__ = "investigations"
    __table_args__ = (UniqueConstraint("event_id", "number", name="uq_investigations_event_number"),)

    id: Mapped[intpk]
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    number: Mapped[int]  # report number DQ-<event>-<n>
    incident_id: Mapped[int] = mapped_column(ForeignKey("incidents.id"), unique=True)
    status: Mapped[InvestigationStatus] = mapped_column(_enum(InvestigationStatus), default=InvestigationStatus.OPEN)
    opened_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    opened_at: Mapped[created_at]
    # The head judge's own statement, from the template.
    hj_infraction: Mapped[str] = mapped_column(Text, default="")
    hj_facts: Mapped[str] = mapped_column(Text, default="")
    hj_assumptions: Mapped[str] = mapped_column(Text, default="")
    hj_reasoning: Mapped[str] = mapped_column(Text, default="")
    # The decision.
    decision_infraction_code: Mapped[str | None] = mapped_column(String(32))
    revoke_prizes: Mapped[bool] = mapped_column(default=False)
    revoke_standing: Mapped[bool] = mapped_column(default=False)
    ejected: Mapped[bool] = mapped_column(default=False)
    summary: Mapped[str] = mapped_column(Text, default="")
    decided_at: Mapped[datetime | None]
    finalized_at: Mapped[datetime | None]
    finalized_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    withdrawn_at: Mapped[datetime | None]
    withdrawn_reason: Mapped[str | None] = mapped_column(Text)

    incident: Mapped[Incident] = relationship()
    opened_by: Mapped[User] = relationship(foreign_keys=[opened_by_id])
    finalized_by: Mapped[User | None] = relationship(foreign_keys=[finalized_by_id])
    statements: Mapped[list[Statement]] = relationship(back_populates="investigation", order_by="Statement.id")
    requests: Mapped[list[StatementRequest]] = relationship(
        back_populates="investigation", order_by="StatementRequest.id"
    )


class StatementRole(str, enum.Enum):
    PLAYER = "player"  # the player under investigation
    OPPONENT = "opponent"
    WITNESS = "witness"
    JUDGE = "judge"
    HEAD_JUDGE = "head_judge"  # the head judge's addenda after finalizing

    @property
    def label(self) -> str:
        return {
            "player": _l("player"),
            "opponent": _l("opponent"),
            "witness": _l("witness"),
            "judge": _l("judge"),
            "head_judge": _l("head judge"),
        }[self.value]


class Statement(Base):
    """One person's account, kept as written: never edited; after finalizing only dated addenda are added."""

    __tablename__ = "statements"
    # A statement's key is scoped by its investigation, which belongs to one event (records.py).
    __table_args__ = (
        UniqueConstraint("investigation_id", "client_key", name="uq_statements_investigation_client_key"),
    )

    id: Mapped[intpk]
    investigation_id: Mapped[int] = mapped_column(ForeignKey("investigations.id"), index=True)
    author_name: Mapped[name_str]
    author_role: Mapped[StatementRole] = mapped_column(_enum(StatementRole))
    text: Mapped[str] = mapped_column(Text)
    taken_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))  # None: written on a one-time link
    client_key: Mapped[str] = mapped_column(String(64))
    taken_at: Mapped[created_at]
    addendum: Mapped[bool] = mapped_column(default=False)

    investigation: Mapped[Investigation] = relationship(back_populates="statements")
    taken_by: Mapped[User | None] = relationship()


class StatementRequest(Base):
    """A one-time link for one person to write one statement without an account. Only the token's hash is kept."""

    __tablename__ = "statement_requests"

    id: Mapped[intpk]
    investigation_id: Mapped[int] = mapped_column(ForeignKey("investigations.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    author_name: Mapped[name_str]
    author_role: Mapped[StatementRole] = mapped_column(_enum(StatementRole))
    created_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[created_at]
    expires_at: Mapped[datetime]
    used_at: Mapped[datetime | None]
    statement_id: Mapped[int | None] = mapped_column(ForeignKey("statements.id"))
    revoked_at: Mapped[datetime | None]

    investigation: Mapped[Investigation] = relationship(back_populates="requests")


class TokenPurpose(str, enum.Enum):
    INVITE = "invite"  # a new account sets its first password
    RESET = "reset"  # "Forgot password?" or the operator's `flask users reset-link`


class AccountToken(Base):
    """A one-time, expiring link that lets a person set their own password. Only the token's SHA-256 is kept."""

    __tablename__ = "account_tokens"

    id: Mapped[intpk]
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    purpose: Mapped[TokenPurpose] = mapped_column(_enum(TokenPurpose))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[created_at]
    expires_at: Mapped[datetime]
    used_at: Mapped[datetime | None]

    user: Mapped[User] = relationship()


class CallReason(str, enum.Enum):
    """What the player says the call is about (the call page's one-line choice)."""

    RULES_QUESTION = "rules_question"
    GAME_STATE = "game_state"
    DISPUTE = "dispute"
    OTHER = "other"

    @property
    def label(self) -> str:
        return {
            "rules_question": _l("Rules question"),
            "game_state": _l("Game state error"),
            "dispute": _l("Dispute with the opponent"),
            "other": _l("Other"),
        }[self.value]


class JudgeCall(Base):
    """A player's "Judge!" from a table, sent from the table's call link (no account). A table holds one live call at
    a time: `live_table` is its table number while the call is live and NULL once closed, unique per event. The times
    are the queue's figures: raised (the match stopped), taken, closed. A call handed to the head judge keeps its
    first take (who and when: the waiting time and the per-judge figures are the first taker's), and the head judge's
    own take beside it; whoever took it last holds it (`holder_id`)."""

    __tablename__ = "judge_calls"
    __table_args__ = (
        UniqueConstraint("event_id", "number", name="uq_judge_calls_event_number"),
        UniqueConstraint("division_id", "live_table", name="uq_judge_calls_one_live_call_per_table"),
        Index("ix_judge_calls_event_state", "event_id", "state"),
    )

    id: Mapped[intpk]
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"))
    number: Mapped[int]
    table_number: Mapped[int]
    live_table: Mapped[int | None]
    # the division whose table called (its link names it; the event's first division for a link without one)
    division_id: Mapped[int] = mapped_column(ForeignKey("divisions.id"))
    round_id: Mapped[int | None] = mapped_column(ForeignKey("rounds.id"))  # the round running when it was raised
    reason: Mapped[CallReason] = mapped_column(_enum(CallReason), default=CallReason.OTHER)
    note: Mapped[str] = mapped_column(String(120), default="")  # the player's own words, one line
    state: Mapped[CallState] = mapped_column(_enum(CallState), default=CallState.OPEN)
    raised_at: Mapped[created_at]
    taken_at: Mapped[datetime | None]
    taken_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    escalated_at: Mapped[datetime | None]
    escalated_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    head_taken_at: Mapped[datetime | None]  # the head judge took it after it was handed to them
    head_taken_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    closed_at: Mapped[datetime | None]
    closed_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    outcome: Mapped[CallOutcome | None] = mapped_column(_enum(CallOutcome))
    incident_id: Mapped[int | None] = mapped_column(ForeignKey("incidents.id"))

    round: Mapped[Round | None] = relationship()
    division: Mapped[Division] = relationship(foreign_keys=[division_id])
    taken_by: Mapped[User | None] = relationship(foreign_keys=[taken_by_id])
    escalated_by: Mapped[User | None] = relationship(foreign_keys=[escalated_by_id])
    head_taken_by: Mapped[User | None] = relationship(foreign_keys=[head_taken_by_id])
    closed_by: Mapped[User | None] = relationship(foreign_keys=[closed_by_id])
    incident: Mapped[Incident | None] = relationship()

    @property
    def holder_id(self) -> int | None:
        """Who has the call now: the head judge once they took it after the hand-over, else its first taker."""
        return self.head_taken_by_id if self.head_taken_by_id is not None else self.taken_by_id

    @property
    def holder(self) -> User | None:
        return self.head_taken_by if self.head_taken_by_id is not None else self.taken_by

    @property
    def held_since(self) -> datetime | None:
        return self.head_taken_at if self.head_taken_by_id is not None else self.taken_at


class Job(Base):
    """Heavy work run off the request by the job worker (judgeapp/jobs.py): an import, a render, a mail. Who asked
    for it and for which event, its state (lifecycles.JOB), its progress (`done` of `total` of what `counting` names,
    plus any other counts), a bounded summary of its result, or the readable reason it failed. Kept, never deleted."""

    __tablename__ = "jobs"
    __table_args__ = (
        Index("ix_jobs_event_kind_state", "event_id", "kind", "state"),
        Index("ix_jobs_subject", "subject"),
        Index("ix_jobs_state", "state"),
    )

    id: Mapped[intpk]
    kind: Mapped[str] = mapped_column(String(32))  # a task of the registry: "import", "mail"…
    event_id: Mapped[int | None] = mapped_column(ForeignKey("events.id"))
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))  # None: asked by no account (a mail)
    subject: Mapped[str | None] = mapped_column(String(64))  # the record it works on, e.g. "import:12"
    state: Mapped[JobState] = mapped_column(_enum(JobState), default=JobState.QUEUED)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)  # what the task needs (kept small)
    counting: Mapped[str] = mapped_column(String(32), default="")  # what `done`/`total` count: "rows_read"…
    done: Mapped[int] = mapped_column(default=0, server_default="0")
    total: Mapped[int | None]  # None: not known yet
    counts: Mapped[dict[str, int]] = mapped_column(JSON, default=dict)  # every count so far, by what it counts
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # a bounded summary, once done
    error: Mapped[str | None] = mapped_column(Text)  # the readable reason, once failed
    worker: Mapped[str | None] = mapped_column(String(128))  # host:pid of the process running it
    created_at: Mapped[created_at]
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]

    actor: Mapped[User | None] = relationship()


class JobFile(Base):
    """The file a render job made (judgeapp/renders.py: the QR sheet, a report PDF), kept for its download. Its bytes
    are let go (`data` None, `released_at` set) once a newer file of the same kind is kept for the same event: the
    row stays, with the name and size of what was made."""

    __tablename__ = "job_files"

    id: Mapped[intpk]
    job_id: Mapped[int] = mapped_column(ForeignKey("jobs.id"), unique=True)
    filename: Mapped[str] = mapped_column(String(200))
    mimetype: Mapped[str] = mapped_column(String(64))
    size: Mapped[int]
    data: Mapped[bytes | None] = mapped_column(LargeBinary)
    created_at: Mapped[created_at]
    released_at: Mapped[datetime | None]


# ---- a new record's division -----------------------------------------------------------------------------------------


@sa_event.listens_for(OrmSession, "before_flush")
def _give_divisions(session: OrmSession, _context: Any, _instances: Any) -> None:
    """A new player, round, pairing or judge call written without a division belongs to its event's first division
    (made on first need for an event that has none): an event that never names a division works as before them."""
    firsts: dict[int, Division] = {}
    for record in list(session.new):
        if not isinstance(record, Player | Round | Pairing | JudgeCall) or record.division_id is not None:
            continue
        if record.division is not None:
            continue
        if isinstance(record, Pairing) and record.player is not None and record.player.division_id is not None:
            record.division_id = record.player.division_id
            continue
        first = firsts.get(record.event_id)
        if first is None:
            with session.no_autoflush:
                first = session.scalar(
                    select(Division)
                    .where(Division.event_id == record.event_id)
                    .order_by(Division.position, Division.id)
                ) or next((d for d in session.new if isinstance(d, Division) and d.event_id == record.event_id), None)
            if first is None:
                first = Division(event_id=record.event_id, name="", position=0)
                session.add(first)
            firsts[record.event_id] = first
        record.division = first
