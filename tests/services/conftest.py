"""Service-layer tests: each use case through its service function, as a view calls it, with no test client
(Cosmic Python's `tests/unit/test_services.py`). The request is the unit of work, so a helper here commits once after
a use case, and rolls back when the service refuses, as the app's error handlers do. The files are marked `db`, so
they run again on PostgreSQL in the second pass of `make test`.

The event is the request tests' own made-to-order one (`floor` in tests/integration/conftest.py): a level 2
Bushiroad event, round 1 running, a head judge, two floor judges, a scorekeeper, an outsider and four players. Its
fixtures write in app contexts of their own, so they run before this tier's session begins a transaction (SQLite
takes the write lock at BEGIN outside a request)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from uuid import uuid4

import pytest
from flask import Flask
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from judgeapp.clock.services import give_time_for_incident
from judgeapp.events.pairing_services import import_pairings
from judgeapp.extensions import db
from judgeapp.incidents.list_services import incident_by_number
from judgeapp.incidents.services import IncidentInput, LogResult, log_incident
from judgeapp.infractions import Catalog, Policy
from judgeapp.models import AuditEntry, Event, Incident, Player, User
from judgeapp.permissions import Role, roles_at
from tests.integration import conftest as integration

floor = integration.floor  # the same event as the request tests (reused, not copied)


@pytest.fixture
def session(app: Flask) -> Iterator[Session]:
    """The app's database session in an app context of its own, as a request would have it."""
    with app.app_context():
        yield db.session
        db.session.rollback()


@pytest.fixture
def policy(catalog: Catalog) -> Policy:
    return catalog.policy("bushiroad-afr")


@dataclass
class World:
    """The `floor` event seen from the service layer: its people as `User` rows, their roles, the use cases."""

    session: Session
    policy: Policy
    ids: dict[str, Any]

    @property
    def event(self) -> Event:
        return self.session.get(Event, self.ids["event_id"])

    def user(self, who: str) -> User:
        """'head_judge', 'floor_judge', 'other_floor', 'scorekeeper', 'outsider' or 'organizer'."""
        person = self.ids["organizer"] if who == "organizer" else self.ids["people"][who]
        return self.session.get(User, person[0])

    def roles(self, who: str) -> frozenset[Role]:
        return roles_at(self.session, self.user(who), self.event)

    def player(self, code: str) -> Player:
        return self.session.get(Player, self.ids["players"][code])

    def incident(self, number: int = 1) -> Incident:
        incident = incident_by_number(self.session, self.event, number)
        assert incident is not None, f"no incident #{number}"
        return incident

    def seat(self, text: str) -> None:
        """Round 1's pairings, imported by the organizer."""
        import_pairings(self.session, actor=self.event.organizer, event=self.event, round_number=1, text=text)
        self.session.commit()

    def log(
        self,
        who: str = "floor_judge",
        *,
        player: str = "P-001",
        infraction: str = "3.5.2",
        penalty: str | None = "warning",
        table: int | None = 2,
        key: str | None = None,
        **fields: Any,
    ) -> LogResult:
        """Log an incident as the incident form does (with any time given back on it), then commit."""
        data = IncidentInput(
            key=key or uuid4().hex,
            infraction_code=infraction,
            round_number=1,
            table_number=table,
            player_text=player,
            rank_id=penalty,
            **fields,
        )
        result = log_incident(
            self.session, self.policy, actor=self.user(who), roles=self.roles(who), event=self.event, data=data
        )
        give_time_for_incident(self.session, actor=self.user(who), event=self.event, result=result)
        self.session.commit()
        return result

    def incidents(self) -> list[Incident]:
        return list(
            self.session.scalars(
                select(Incident).where(Incident.event_id == self.ids["event_id"]).order_by(Incident.number)
            )
        )

    def entries(self, action: str | None = None) -> list[AuditEntry]:
        """The event's audit entries (of one action), oldest first."""
        query = select(AuditEntry).where(AuditEntry.event_id == self.ids["event_id"])
        if action is not None:
            query = query.where(AuditEntry.action == action)
        return list(self.session.scalars(query.order_by(AuditEntry.id)))

    def entries_of(self, event: Event, action: str) -> list[AuditEntry]:
        """Another event's audit entries of one action, oldest first."""
        query = select(AuditEntry).where(AuditEntry.event_id == event.id, AuditEntry.action == action)
        return list(self.session.scalars(query.order_by(AuditEntry.id)))

    @property
    def policy_catalog(self) -> Catalog:
        from judgeapp.extensions import current_catalog

        return current_catalog()

    def count(self, model: type) -> int:
        return self.session.scalar(select(func.count()).select_from(model)) or 0


@pytest.fixture
def world(floor: dict, session: Session, policy: Policy) -> World:
    """`floor` first (it writes in its own app contexts), then this tier's session."""
    return World(session, policy, floor)


@pytest.fixture
def refused(session: Session):
    """`with refused(status) as caught:` expects the permission table's refusal, then undoes the request's writes as
    the app's error handler does."""
    from contextlib import contextmanager

    from judgeapp.permissions import Refused

    @contextmanager
    def expect(status: int) -> Iterator[pytest.ExceptionInfo[Refused]]:
        with pytest.raises(Refused) as caught:
            yield caught
        session.rollback()
        assert caught.value.decision.status == status, caught.value.decision

    return expect
