"""Where each page's "?" leads: the part of the judge's guide about that page, in one place.

`GUIDES` are the Help pages (one per role); `HELP_FOR` maps every page's endpoint to its guide and the anchor of the
task that page serves. tests/integration/test_help.py checks that every page of the app has a row here (or is listed
in `NO_HELP`) and that every anchor exists in every language's guide.
"""

from __future__ import annotations

GUIDES = ("floor-judge", "head-judge", "organizer", "player")  # player: the table's call page, readable by anyone

HELP_FOR: dict[str, tuple[str, str]] = {
    # the floor judge (and the head judge at the table)
    "events.index": ("floor-judge", "your-events"),
    "events.show": ("floor-judge", "event-page"),
    "incidents.new": ("floor-judge", "log-a-penalty"),
    "incidents.start_call": ("floor-judge", "called-to-a-table"),
    "incidents.show": ("floor-judge", "correct-or-void"),
    "incidents.edit": ("floor-judge", "correct-or-void"),
    "incidents.index": ("floor-judge", "player-history"),
    "incidents.player": ("floor-judge", "player-history"),
    "clock.new_extension": ("floor-judge", "give-time"),
    "clock.clock": ("floor-judge", "give-time"),
    "deckchecks.new": ("floor-judge", "start-a-deck-check"),
    "deckchecks.show": ("floor-judge", "start-a-deck-check"),
    "deckchecks.index": ("floor-judge", "start-a-deck-check"),
    "calls.index": ("floor-judge", "take-a-call"),
    "calls.show": ("floor-judge", "take-a-call"),
    "calls.waiting": ("floor-judge", "take-a-call"),
    "appeals.new": ("floor-judge", "file-an-appeal"),
    "reference.index": ("floor-judge", "rules"),
    "reference.policy": ("floor-judge", "rules"),
    "reference.event_rules": ("floor-judge", "rules"),
    "offline.page": ("floor-judge", "no-network"),
    "auth.change_password": ("floor-judge", "account"),
    # the head judge
    "incidents.feed": ("head-judge", "feed"),
    "appeals.index": ("head-judge", "decide-an-appeal"),
    "appeals.show": ("head-judge", "decide-an-appeal"),
    "appeals.waiting": ("head-judge", "decide-an-appeal"),
    "investigations.index": ("head-judge", "disqualify"),
    "investigations.show": ("head-judge", "disqualify"),
    "events.pairings": ("head-judge", "rounds"),
    # the organizer and the scorekeeper
    "events.create": ("organizer", "create-an-event"),
    "events.settings": ("organizer", "settings"),
    "events.upload_policy": ("organizer", "settings"),
    "events.staff": ("organizer", "staff"),
    "events.players": ("organizer", "import-pairings"),
    "events.correct_player": ("organizer", "import-pairings"),
    "events.import_step": ("organizer", "import-pairings"),
    "events.job": ("organizer", "import-pairings"),
    "calls.links": ("organizer", "call-links"),
    "postevent.close": ("organizer", "close-the-event"),
    "postevent.report": ("organizer", "report"),
    "postevent.player_history": ("organizer", "report"),
    # the player at the table
    "calls.table": ("player", "call-a-judge"),
    "calls.division_table": ("player", "call-a-judge"),
}

# Endpoints that are no page of their own (files, JSON, the worker), or are read before signing in, where the guide
# (for signed-in accounts) cannot be opened: no "?" there.
NO_HELP = frozenset(
    {
        "static",
        "auth.login",
        "auth.forgot",
        "auth.set_password",
        "investigations.public_statement",  # a witness's one-time link: no account
        "investigations.report",
        "incidents.suggest",
        "events.job_status",
        "calls.sheet_download",
        "postevent.export",
        "postevent.report_pdf",
        "postevent.report_pdf_download",
        "offline.changed",
        "offline.copy",
        "offline.manifest",
        "offline.service_worker",
        "offline.token",
        "offline.finder",  # the policy's search words (JSON)
        "offline.event_finder",
    }
)


def topic_of(endpoint: str | None) -> tuple[str, str] | None:
    """The guide and the anchor about the page `endpoint` serves; None when it has none."""
    return HELP_FOR.get(endpoint or "")
