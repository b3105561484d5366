"""What the seed policies ask of an event, on the pages that show it: WARS TCG's settings per level (decklists and
random deck checks from level 2, "Special Rules — Championship-Level Tournaments") and the appeal rules."""

from __future__ import annotations

from judgeapp.extensions import db
from judgeapp.models import Event
from tests.integration.test_incidents import signed_in, text

# Not `db`: what is shown comes from the catalog in Python, and the rows through the ORM (docs/contributing/tests.md)


def use_policy(app, event_id, policy_id, level):
    with app.app_context():
        event = db.session.get(Event, event_id)
        event.policy_id, event.level = policy_id, level
        db.session.commit()


def test_a_wars_event_page_shows_what_its_level_asks_decklists_and_random_deck_checks(app, floor):
    use_policy(app, floor["event_id"], "wars-tcg", 2)
    page = text(signed_in(app, floor["people"]["floor_judge"][1]).get(f"/events/{floor['event_id']}"))
    assert "Level 2 (32K):</strong> decklists required" in page and "checks decks at random" in page
    assert "Level 1 (16K)" not in page  # only the event's own level
    assert "Championship-Level Tournaments" in page and "no limit on a player's challenges" in page


def test_the_wars_quick_reference_lists_the_settings_of_every_level_and_suggests_no_penalty(app, floor):
    page = text(signed_in(app, floor["people"]["floor_judge"][1]).get("/reference/wars-tcg?level=1"))
    assert "Level 1 (16K):</strong> no decklist required" in page
    assert "Level 4 (64K):</strong> decklists required" in page
    assert "The text names no penalty: no penalty is suggested." in page
    assert "Judge's discretion" in page and "DGMA Organized Play Code of Conduct" in page


def test_the_set_up_form_shows_what_each_policy_asks_of_an_event(app, floor):
    organizer = signed_in(app, floor["organizer"][1])
    page = text(organizer.get(f"/events/{floor['event_id']}/settings"))
    assert "What each policy asks of an event" in page and "Level 3 (48K):</strong> decklists required" in page
    assert "an opponent may contest only the remedy" in page and "the head judge may hand an appeal to a proxy" in page


def test_the_transformers_reference_marks_cheating_as_the_head_judges_and_names_only_disqualification(app, floor):
    page = text(signed_in(app, floor["people"]["floor_judge"][1]).get("/reference/transformers-tcg?level=1"))
    assert "head judge decides" in page and "Infraction Procedure Guide" in page
