"""The demo data `flask demo` creates: the English "Demo Open" (accounts, 32 players, round 1 seated, with
--sample-cases a ruling under appeal and a disqualification under investigation) and the Japanese "デモ大会" with its
Japanese-speaking accounts. Invented names only; for trying the app."""

from __future__ import annotations

from datetime import date

import click
from sqlalchemy import select

from .extensions import current_catalog, db, event_policy
from .texts import gettext as _

DEMO_PLAYERS = [
    "Haruto Sato",
    "Yui Suzuki",
    "Sota Takahashi",
    "Mei Tanaka",
    "Minato Watanabe",
    "Sakura Ito",
    "佐藤 陽翔",
    "鈴木 結衣",
    "Ji-ho Kim",
    "Seo-yeon Park",
    "Wei Chen",
    "Li Na Wang",
    "Nguyen Van An",
    "Tran Thi Mai",
    "Juan Pablo García",
    "María José López",
    "Liam O'Connor",
    "Aoife Byrne",
    "Lukas Müller",
    "Sophie Schneider",
    "Mateo Rossi",
    "Giulia Bianchi",
    "Noah Martin",
    "Chloé Dubois",
    "Oliver Smith",
    "Amelia Jones",
    "Ethan Brown",
    "Priya Sharma",
    "Arjun Patel",
    "Siti Nurhaliza",
    "Rizky Pratama",
    "Kwame Mensah",
]
# The Japanese demo ("デモ大会", the event's language Japanese): invented names with their readings, no real people.
DEMO_JA_EVENT = "デモ大会"
DEMO_JA_PLAYERS = [
    ("山田 太郎", "やまだ たろう"),
    ("佐々木 花", "ささき はな"),
    ("高橋 蓮", "たかはし れん"),
    ("伊藤 美咲", "いとう みさき"),
    ("渡辺 悠真", "わたなべ ゆうま"),
    ("中村 葵", "なかむら あおい"),
    ("小林 大翔", "こばやし ひろと"),
    ("加藤 結菜", "かとう ゆいな"),
]
DEMO_JA_ACCOUNTS = [  # email, name, reading, organizer
    ("organizer-ja@demo.test", "森 直子", "もり なおこ", True),
    ("head-ja@demo.test", "松本 健一", "まつもと けんいち", False),
    ("floor-ja@demo.test", "井上 さくら", "いのうえ さくら", False),
]


def english_demo(password, sample_cases):
    from .auth.services import create_user
    from .events import pairing_services, player_services, round_services, services, staff_services
    from .models import Role, User

    cat = current_catalog()
    people = {}
    for email, name, organizer in [
        ("organizer@demo.test", "Olivia Organizer", True),
        ("head@demo.test", "Hiro Head", False),
        ("floor1@demo.test", "Fatima Floor", False),
        ("floor2@demo.test", "Felix Floor", False),
    ]:
        user = db.session.scalar(select(User).where(User.email == email))
        people[email] = user or create_user(db.session, email=email, name=name, password=password, organizer=organizer)
    org = people["organizer@demo.test"]
    event = services.create_event(
        db.session,
        cat,
        organizer=org,
        data=services.EventData(
            name="Demo Open",
            date=date.today(),
            venue="Demo Convention Hall, Hall B",
            policy_id="bushiroad-afr",
            level=2,
            rounds=6,
            round_minutes=50,
            challenge_limit=2,
        ),
    )
    staff_services.assign_staff(
        db.session, actor=org, event=event, email="head@demo.test", name="", role=Role.HEAD_JUDGE
    )
    for email in ("floor1@demo.test", "floor2@demo.test"):
        staff_services.assign_staff(db.session, actor=org, event=event, email=email, name="", role=Role.FLOOR_JUDGE)
    staff_services.assign_staff(
        db.session, actor=org, event=event, email="head@demo.test", name="", role=Role.SCOREKEEPER
    )
    for n, name in enumerate(DEMO_PLAYERS, start=1):
        player_services.add_player(db.session, actor=org, event=event, name=name, player_code=f"DEMO-{n:03d}")
    round_services.start_round(db.session, actor=people["head@demo.test"], event=event)
    seating = "\n".join(f"{t},DEMO-{2 * t - 1:03d},DEMO-{2 * t:03d}" for t in range(1, len(DEMO_PLAYERS) // 2 + 1))
    pairing_services.import_pairings(
        db.session, actor=people["head@demo.test"], event=event, round_number=1, text=seating
    )
    if sample_cases:
        log_sample_cases(event, people)
    from .calls import services as calls

    key = calls.call_key_of(db.session(), event, org)
    db.session.commit()
    click.echo(_("Demo event “Demo Open” created (for trying judgeapp only). Log in at http://127.0.0.1:5000 as:"))
    for email in people:
        click.echo(_("  %(email)s password: %(password)s", email=f"{email:<22}", password=password))
    table_link = f"http://127.0.0.1:5000/call/{event.id}/12/{calls.signature(key, event.id, 12)}"
    click.echo(_("A player's call from table 12 (open it in another browser, no account): %(link)s", link=table_link))


def japanese_demo(password):
    """デモ大会: Bushiroad AFR at level 2 in Japanese, players with readings, round 1 seated; its organizer, head judge
    (also scorekeeper) and floor judge use judgeapp in Japanese."""
    from .auth.services import create_user
    from .events import pairing_services, player_services, round_services, services, staff_services
    from .models import Role, User

    people = {}
    for email, name, reading, organizer in DEMO_JA_ACCOUNTS:
        user = db.session.scalar(select(User).where(User.email == email))
        if user is None:
            user = create_user(db.session, email=email, name=name, password=password, organizer=organizer)
            user.reading, user.locale = reading, "ja"
        people[email] = user
    org, head = people["organizer-ja@demo.test"], people["head-ja@demo.test"]
    event = services.create_event(
        db.session,
        current_catalog(),
        organizer=org,
        data=services.EventData(
            name=DEMO_JA_EVENT,
            date=date.today(),
            venue="デモ会場 Bホール",
            policy_id="bushiroad-afr",
            level=2,
            rounds=4,
            round_minutes=50,
            language="ja",
        ),
    )
    staff_services.assign_staff(
        db.session, actor=org, event=event, email="head-ja@demo.test", name="", role=Role.HEAD_JUDGE
    )
    staff_services.assign_staff(
        db.session, actor=org, event=event, email="head-ja@demo.test", name="", role=Role.SCOREKEEPER
    )
    staff_services.assign_staff(
        db.session, actor=org, event=event, email="floor-ja@demo.test", name="", role=Role.FLOOR_JUDGE
    )
    for n, (name, reading) in enumerate(DEMO_JA_PLAYERS, start=1):
        player = player_services.add_player(
            db.session, actor=org, event=event, name=name, player_code=f"DEMOJA-{n:03d}"
        )
        player.reading = reading
    round_services.start_round(db.session, actor=head, event=event)
    seating = "\n".join(
        f"{t},DEMOJA-{2 * t - 1:03d},DEMOJA-{2 * t:03d}" for t in range(1, len(DEMO_JA_PLAYERS) // 2 + 1)
    )
    pairing_services.import_pairings(db.session, actor=head, event=event, round_number=1, text=seating)
    db.session.commit()
    click.echo(_("Japanese demo event “%(event)s” created (its pages are in Japanese). Log in as:", event=event.name))
    for email in people:
        click.echo(_("  %(email)s password: %(password)s", email=f"{email:<22}", password=password))


def log_sample_cases(event, people) -> None:
    """A warning at table 3 that the opponent appeals; a recommended disqualification at table 6 with a statement."""
    from .appeals import services as appeals
    from .incidents import services as incidents
    from .investigations import services as investigations
    from .models import Player

    session = db.session()
    policy = event_policy(event)
    code = {p.player_code: p for p in session.scalars(select(Player).where(Player.event_id == event.id))}
    floor1, floor2, head = people["floor1@demo.test"], people["floor2@demo.test"], people["head@demo.test"]
    judge = frozenset({"floor_judge"})
    warning = incidents.log_incident(
        session,
        policy,
        actor=floor1,
        roles=judge,
        event=event,
        data=incidents.IncidentInput(
            key="demo-sample-incident-0001",
            infraction_code="3.5.2",
            table_number=3,
            player_id=code["DEMO-005"].id,
            rank_id="warning",
            description="Did not discard down at the end of the turn.",
        ),
    )
    appeals.file_appeal(
        session,
        actor=floor1,
        event=event,
        incident=warning.incident,
        data=appeals.AppealInput(
            key="demo-sample-appeal-000001",
            appellant=f"player:{code['DEMO-006'].id}",
            contest="The opponent says the player should have discarded at random, not chosen the card.",
            contests="remedy",  # an opponent contests only the remedy (Bushiroad Floor Rules 1.2.1)
        ),
        policy=policy,
    )
    dq = incidents.log_incident(
        session,
        policy,
        actor=floor2,
        roles=judge,
        event=event,
        data=incidents.IncidentInput(
            key="demo-sample-incident-0002",
            infraction_code="4.1",
            table_number=6,
            player_id=code["DEMO-011"].id,
            rank_id="disqualification",
            description="Seen arranging the top of the deck while shuffling.",
        ),
    )
    investigation = investigations.investigation_of_incident(session, dq.incident)
    assert investigation is not None  # logging a disqualification opens its investigation
    investigations.add_statement(
        session,
        actor=head,
        roles=frozenset({"head_judge"}),
        event=event,
        investigation=investigation,
        key="demo-sample-statement-01",
        author_name=code["DEMO-012"].name,
        author_role="opponent",
        text="While shuffling he looked at the bottom card and moved two cards to the top.",
    )
