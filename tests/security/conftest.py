"""Security tests, request-level, on SQLite; the ones whose outcome rests on the database (two clients at once, hostile
and fuzzed values stored as typed, numbers at the column's bounds) carry `db` and run again on PostgreSQL."""

import pytest
from sqlalchemy import select

from judgeapp.extensions import db
from judgeapp.models import Division, StaffAssignment

ROLES = [
    "signed_out",
    "no_role",
    "other_organizer",
    "other_event_judge",
    "floor_judge",
    "scorekeeper",
    "head_judge",
    "organizer",
]


@pytest.fixture
def world(app, make_user, make_event, give_role):
    users = {}
    for role in ROLES[1:]:
        users[role] = make_user(organizer=role in ("organizer", "other_organizer"), name=role)
    event_id = make_event(users["organizer"][0])
    other_event_id = make_event(users["other_organizer"][0], name="Other event")
    give_role(other_event_id, users["other_event_judge"][0], "head_judge")
    for role in ("floor_judge", "scorekeeper", "head_judge"):
        give_role(event_id, users[role][0], role)
    with app.app_context():
        assignment_id = db.session.scalar(select(StaffAssignment.id).where(StaffAssignment.event_id == event_id))
        objects = floor_objects(app, event_id, users["floor_judge"][0], users["head_judge"][0])
        division_id = db.session.scalar(select(Division.id).where(Division.event_id == event_id))
    args = {
        "division_id": division_id,  # the event's one division (a division's table link names it)
        "event_id": event_id,
        "other_event_id": other_event_id,
        "assignment_id": assignment_id,
        "policy_id": "bushiroad-afr",
        "kind": "incidents",
        "guide": "floor-judge",  # a Help page (judgeapp/help)
        **objects,
    }
    return users, args


def floor_objects(app, event_id, floor_id, head_id):
    """A round, a player, an incident, a time extension and a deck check, made by the floor judge; an appeal of the
    incident; a disqualification given by the head judge, with its investigation and a one-time statement link."""
    from judgeapp.appeals import services as appeals
    from judgeapp.clock import services as timekeeping
    from judgeapp.deckchecks import services as deckchecks
    from judgeapp.events.player_services import add_player
    from judgeapp.events.round_services import start_round
    from judgeapp.extensions import CATALOG_KEY
    from judgeapp.incidents import services
    from judgeapp.investigations import services as investigations
    from judgeapp.models import Event, User

    event, floor = db.session.get(Event, event_id), db.session.get(User, floor_id)
    policy = app.extensions[CATALOG_KEY].policy(event.policy_id)
    start_round(db.session, actor=db.session.get(User, head_id), event=event)
    player = add_player(db.session, actor=floor, event=event, name="Matrix Player", player_code="M-1")
    add_player(db.session, actor=floor, event=event, name="Matrix Opponent", player_code="M-2")
    db.session.flush()
    roles = frozenset({"floor_judge"})
    logged = services.log_incident(
        db.session,
        policy,
        actor=floor,
        roles=roles,
        event=event,
        data=services.IncidentInput(
            key="matrix-incident-key-0001",
            infraction_code="3.5.2",
            table_number=1,
            player_id=player.id,
            rank_id="warning",
        ),
    )
    ext, _ = timekeeping.add_extension(
        db.session,
        policy,
        actor=floor,
        event=event,
        data=timekeeping.ExtensionInput(key="matrix-extension-key-01", reason="other", table_number=1, minutes=3),
    )
    dc, _ = deckchecks.start_deck_check(
        db.session,
        actor=floor,
        event=event,
        data=deckchecks.DeckCheckInput(key="matrix-deck-check-key-1", table_number=1, player_texts=["M-1"]),
    )
    appeal, _ = appeals.file_appeal(
        db.session,
        actor=floor,
        event=event,
        incident=logged.incident,
        data=appeals.AppealInput("matrix-appeal-key-0001", f"player:{player.id}", "not me"),
    )
    head = db.session.get(User, head_id)
    dq = services.log_incident(
        db.session,
        policy,
        actor=head,
        roles=frozenset({"head_judge"}),
        event=event,
        data=services.IncidentInput(
            key="matrix-incident-key-0002",
            infraction_code="4.1",
            table_number=1,
            player_id=player.id,
            rank_id="disqualification",
        ),
    )
    investigation = investigations.investigation_of_incident(db.session, dq.incident)
    link, token = investigations.request_statement(
        db.session,
        actor=head,
        roles=frozenset({"head_judge"}),
        event=event,
        investigation=investigation,
        author_name="Witness",
        author_role="witness",
    )
    from judgeapp.events import imports

    upload = imports.receive(
        db.session, actor=event.organizer, event=event, data=b"name,player id\nA Player,S-1\n", filename="s.csv"
    )
    from judgeapp.calls import services as calls

    call, _ = calls.raise_call(db.session, event=event, table=2, reason="dispute", note="")
    key = calls.call_key_of(db.session, event, event.organizer)
    rendered = finished_renders(event)
    from judgeapp.events.staff_services import add_staff
    from judgeapp.models import Role as StaffRole
    from judgeapp.models import User

    invited = add_staff(  # the floor judge, invited to be scorekeeper too: an invitation waiting for its answer
        db.session,
        actor=event.organizer,
        event=event,
        email=db.session.get(User, floor_id).email,
        name="",
        role=StaffRole.SCOREKEEPER,
    ).invitation
    db.session.commit()
    assert appeal.number == investigation.number == logged.incident.number == 1  # one `number` argument serves all
    assert call.number == 1
    return {
        "table": 1,
        "sig": calls.signature(key, event.id, 1),  # table 1's real call link (call #1 is table 2's)
        # the same table's link naming the event's division (url_of gives it to calls.division_table)
        "division_sig": calls.signature(
            key, event.id, 1, db.session.scalar(select(Division.id).where(Division.event_id == event.id))
        ),
        "invitation_id": invited.id,
        "answer": "accept",
        "number": logged.incident.number,
        "player_id": player.id,
        "extension_id": ext.id,
        "deck_check_id": dc.id,
        "request_id": link.id,
        "token": token,
        "upload_id": upload.id,
        **rendered,
    }


def finished_renders(event) -> dict[str, int]:
    """A QR sheet and a report PDF as their jobs leave them (done, the file kept), for the download routes; the
    rendering itself, by a real worker, is tests/integration/test_renders.py's."""
    from judgeapp import jobs, renders
    from judgeapp.lifecycles import JobState
    from judgeapp.models import utcnow

    ids = {}
    for kind, arg in ((renders.QR_SHEET, "sheet_id"), (renders.EVENT_REPORT, "pdf_id")):
        job = jobs.submit(db.session, kind, actor=event.organizer, event=event, payload={"paper": "a4"}, subject=arg)
        job.state, job.finished_at, job.result = JobState.DONE, utcnow(), {}
        renders.keep_file(db.session, job, f"{arg}.pdf", b"%PDF-1.7\n% a stored render\n%%EOF\n")
        ids[arg] = job.id
    db.session.info.pop(jobs.QUEUE_KEY, None)  # done already: nothing for a worker to run
    return {**ids, "job_id": ids["sheet_id"]}  # a job for the job page too (events.job)


def url_of(app, rule, args: dict, **overrides) -> str:
    """The URL of `rule` filled from the world's arguments."""
    from flask import url_for

    values = {**args, **overrides}
    if rule.endpoint == "calls.division_table" and "division_sig" in values and "sig" not in overrides:
        values["sig"] = values["division_sig"]
    with app.test_request_context():
        return url_for(rule.endpoint, **{k: v for k, v in values.items() if k in rule.arguments})


def with_every_role(app, give_role, event_id: int, user: tuple[int, str]):
    """`user` made floor judge, scorekeeper and head judge at the event (besides any role held), signed in:
    (client, CSRF token of the session)."""
    from tests.conftest import csrf_token, login

    for role in ("head_judge", "scorekeeper", "floor_judge"):
        give_role(event_id, user[0], role)
    client = app.test_client()
    assert login(client, user[1]).status_code == 302
    return client, csrf_token(client, "/account/password")


def post_routes(app):
    """Every rule that accepts POST (the state-changing routes)."""
    return sorted((r for r in app.url_map.iter_rules() if "POST" in r.methods), key=lambda r: r.rule)


# Records that carry their own audit entry; the others (IncidentSubject, DeckCheckPlayer, Pairing, Round…) are parts
# of one of these or of the event, written in the same transaction as their parent's entry.
AUDITED = {
    "User",
    "Event",
    "StaffAssignment",
    "Player",
    "Incident",
    "DeckCheck",
    "TimeExtension",
    "Appeal",
    "Investigation",
    "Statement",
    "StatementRequest",
}
BOOKKEEPING = {"AuditEntry"}  # the entries themselves


@pytest.fixture
def audit_watch(app):
    """Watches every commit of the app's sessions: what changed, and which audit entries the same transaction holds.
    Yields the list of problems found (empty when each change has exactly one entry, in its own transaction); its
    `audited` attribute counts the transactions checked that held audit entries."""
    from sqlalchemy import event as sa_event
    from sqlalchemy.orm import Session

    from judgeapp.models import AuditEntry, UserSession

    class Problems(list):
        audited = 0

    pending: dict[int, dict] = {}
    problems = Problems()

    def tx(session):
        return pending.setdefault(id(session), {"changed": set(), "entries": []})

    def after_flush(session, _context):
        state = tx(session)
        for obj in list(session.new) + list(session.dirty) + list(session.deleted):
            name = type(obj).__name__
            if isinstance(obj, AuditEntry):
                state["entries"].append((obj.action, obj.object_type, obj.object_id))
            elif isinstance(obj, UserSession) and obj not in session.new:
                continue  # last-seen and sign-out touches are not records (sign-out is audited as session.end)
            elif (
                obj in session.new
                or obj in session.deleted
                or (name in AUDITED and session.is_modified(obj, include_collections=False))
            ):  # a child added is its own
                state["changed"].add((name, getattr(obj, "id", None)))

    def audit_insert(orm_state):
        """judgeapp.audit.record writes an entry as one INSERT statement, not through the unit of work."""
        statement = orm_state.statement
        if orm_state.is_insert and getattr(getattr(statement, "table", None), "name", None) == AuditEntry.__tablename__:
            values = statement.compile().params
            tx(orm_state.session)["entries"].append((values["action"], values["object_type"], values["object_id"]))

    def before_commit(session):
        session.flush()
        state = pending.pop(id(session), None)
        if not state:
            return
        entries, changed = state["entries"], state["changed"]
        covered = {(t, i) for _, t, i in entries}
        for name, obj_id in sorted(changed, key=str):
            if name in AUDITED and (name, obj_id) not in covered:
                problems.append(f"{name} {obj_id} changed without an audit entry in its transaction ({entries})")
        if changed and not entries:
            problems.append(f"a transaction changed {sorted(changed, key=str)} with no audit entry")
        problems.audited += bool(entries)
        if len(entries) != len(set(entries)):
            problems.append(f"the same change was audited twice: {entries}")

    def after_rollback(session):
        pending.pop(id(session), None)

    listeners = [
        (Session, "after_flush", after_flush),
        (Session, "do_orm_execute", audit_insert),
        (Session, "before_commit", before_commit),
        (Session, "after_soft_rollback", lambda s, _t: after_rollback(s)),
    ]
    for target, name, fn in listeners:
        sa_event.listen(target, name, fn)
    yield problems
    for target, name, fn in listeners:
        sa_event.remove(target, name, fn)
