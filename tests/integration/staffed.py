"""An event of a given policy and level with its staff, round 1 running and one player (P-001), and a judge's penalty
logged through the incident form: the setting of the tests of who decides (confirmations, the assistant head judge,
the judges a disqualification needs, the policies' own rules)."""

from __future__ import annotations

import re

from judgeapp.extensions import db
from tests.integration.test_incidents import incidents, log, signed_in

JUDGES = {"head_judge": "head_judge", "floor_judge": "floor_judge"}


def staffed_event(app, make_user, make_event, *, policy_id: str, level: int, roles=JUDGES, player="Aiko Mori") -> dict:
    """`roles`: each person's key (also their name, title-cased) and staff role, in the order they are made."""
    from judgeapp.events.player_services import add_player
    from judgeapp.events.round_services import start_round
    from judgeapp.events.staff_services import assign_staff
    from judgeapp.models import Event, Role, User

    people = {who: make_user(name=who.replace("_", " ").title()) for who in roles}
    organizer = make_user(organizer=True, name="Organizer")
    event_id = make_event(organizer[0], policy_id=policy_id, level=level)
    with app.app_context():
        event = db.session.get(Event, event_id)
        for who, role in roles.items():
            assign_staff(db.session, actor=event.organizer, event=event, email=people[who][1], name="", role=Role(role))
        start_round(db.session, actor=db.session.get(User, people["head_judge"][0]), event=event)
        add_player(db.session, actor=event.organizer, event=event, name=player, player_code="P-001", team=None)
        db.session.commit()
    return {"event_id": event_id, "people": people, "organizer": organizer}


def give(app, event, who, infraction, penalty, **fields):
    """`who` logs `infraction` with `penalty` against P-001 at table 1; the form must accept it. The incident."""
    fields.setdefault("deviation_reason", "The game state could not be repaired.")
    response = log(
        signed_in(app, event["people"][who][1]),
        event["event_id"],
        player="P-001",
        table="1",
        infraction=infraction,
        penalty=penalty,
        **fields,
    )
    errors = re.findall(r"class=\"(?:error|field-error)[^>]*>([^<]*)", response.get_data(as_text=True))
    assert response.status_code == 302, errors
    return incidents(app, event["event_id"])[-1]
