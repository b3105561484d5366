"""Database records (SQLAlchemy 2.0 typed models). Records only: rules live in services and infractions/."""
from __future__ import annotations

import enum
from datetime import date, datetime, timezone
from typing import Annotated, Any, ClassVar, Optional

from sqlalchemy import JSON, Enum, ForeignKey, Index, String, Text, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .extensions import Base


def utcnow() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


intpk = Annotated[int, mapped_column(primary_key=True)]
created_at = Annotated[datetime, mapped_column(default=utcnow)]
name_str = Annotated[str, mapped_column(String(200))]


def _enum(cls: type[enum.Enum]) -> Enum:
    """Store enums by value, with a CHECK constraint named after the type."""
    return Enum(cls, values_callable=lambda e: [m.value for m in e], native_enum=False, length=32,
                create_constraint=True, name=cls.__name__.lower())


class Role(str, enum.Enum):
    HEAD_JUDGE = "head_judge"
    FLOOR_JUDGE = "floor_judge"
    SCOREKEEPER = "scorekeeper"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ").capitalize()


class User(Base):
    __tablename__ = "users"

    id: Mapped[intpk]
    email: Mapped[str] = mapped_column(String(254), unique=True)
    name: Mapped[name_str]
    password_hash: Mapped[str] = mapped_column(String(255))
    is_organizer: Mapped[bool] = mapped_column(default=False)
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
    ended_at: Mapped[Optional[datetime]]
    end_reason: Mapped[Optional[str]] = mapped_column(String(40))
    user_agent: Mapped[Optional[str]] = mapped_column(String(300))

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
    challenge_limit: Mapped[Optional[int]]
    organizer_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created_at: Mapped[created_at]

    organizer: Mapped[User] = relationship()
    staff: Mapped[list["StaffAssignment"]] = relationship(back_populates="event", order_by="StaffAssignment.id")


class StaffAssignment(Base):
    """One role one person holds at one event. Ended, never deleted."""

    __tablename__ = "staff_assignments"
    __table_args__ = (
        Index("uq_staff_one_head_judge", "event_id", unique=True,
              sqlite_where=text("role = 'head_judge' AND ended_at IS NULL"),
              postgresql_where=text("role = 'head_judge' AND ended_at IS NULL")),
        Index("ix_staff_event_user", "event_id", "user_id"),
    )

    id: Mapped[intpk]
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    role: Mapped[Role] = mapped_column(_enum(Role))
    created_at: Mapped[created_at]
    ended_at: Mapped[Optional[datetime]]
    end_reason: Mapped[Optional[str]] = mapped_column(String(300))

    event: Mapped[Event] = relationship(back_populates="staff")
    user: Mapped[User] = relationship()


class Player(Base):
    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("event_id", "player_code", name="uq_players_event_code"),)

    id: Mapped[intpk]
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    name: Mapped[name_str]
    player_code: Mapped[Optional[str]] = mapped_column(String(64))
    created_at: Mapped[created_at]


class Round(Base):
    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("event_id", "number", name="uq_rounds_event_number"),)

    id: Mapped[intpk]
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), index=True)
    number: Mapped[int]
    started_at: Mapped[datetime]
    length_minutes: Mapped[int]
    started_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"))


class AuditEntry(Base):
    """One row per state change, written in the same transaction as the change."""

    __tablename__ = "audit_entries"

    id: Mapped[intpk]
    at: Mapped[created_at]
    actor_id: Mapped[Optional[int]] = mapped_column(ForeignKey("users.id"))
    event_id: Mapped[Optional[int]] = mapped_column(ForeignKey("events.id"), index=True)
    action: Mapped[str] = mapped_column(String(64))
    object_type: Mapped[str] = mapped_column(String(64))
    object_id: Mapped[Optional[int]]
    details: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    note: Mapped[Optional[str]] = mapped_column(Text)
