"""Fixtures for request tests. Only the tests whose database behaviour can differ on PostgreSQL carry the `db` marker
and run again there (make test-postgres; docs/contributing/tests.md says which kinds): a request test that only reads
and writes rows through the ORM runs once, on SQLite."""

import pytest

from judgeapp.extensions import db


@pytest.fixture
def floor(app, make_user, make_event):
    """Level 2 Bushiroad event, round 1 running, a head judge, two floor judges, a scorekeeper and four players."""
    from judgeapp.events.player_services import add_player
    from judgeapp.events.round_services import start_round
    from judgeapp.events.staff_services import assign_staff
    from judgeapp.models import Event, Role, User

    people = {
        role: make_user(name=role.replace("_", " ").title())
        for role in ("head_judge", "floor_judge", "other_floor", "scorekeeper", "outsider")
    }
    organizer = make_user(organizer=True, name="Organizer")
    event_id = make_event(organizer[0])
    with app.app_context():  # the roles, the round and the players in one transaction (one commit instead of five)
        event = db.session.get(Event, event_id)
        for role, (_, email) in people.items():
            if role != "outsider":
                assign_staff(
                    db.session,
                    actor=event.organizer,
                    event=event,
                    email=email,
                    name="",
                    role=Role({"other_floor": "floor_judge"}.get(role, role)),
                )
        start_round(db.session, actor=db.session.get(User, people["head_judge"][0]), event=event)
        players = {}
        for name, code, team in [
            ("Aiko Mori", "P-001", "Blue Lions"),
            ("Ben Ode", "P-002", "Blue Lions"),
            ("Chen Yu", "P-003", None),
            ("Dana Roy", "P-004", None),
        ]:
            players[code] = add_player(
                db.session, actor=event.organizer, event=event, name=name, player_code=code, team=team
            )
        db.session.commit()
        ids = {code: p.id for code, p in players.items()}
    return {"event_id": event_id, "people": people, "players": ids, "organizer": organizer}
