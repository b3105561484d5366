"""Events, staff, players and rounds: one function per use case."""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from .. import audit
from ..choices import catalog_name
from ..errors import DIRECTION_CONTROLS, FieldError
from ..infractions import Catalog, CatalogError, Policy, UnknownChoice, parse_catalog
from ..models import Division, Event, EventPolicy, Incident, Round, User
from ..records import lock_event
from ..sandbox import ParseRefused, run_limited
from ..texts import gettext as _
from ..texts import ngettext


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


def in_reading_order(event: Event) -> bool:
    """Whether the event's lists of people go by the readings of their names: a Japanese event's."""
    return event.language == "ja"
