"""Issue 33's guards from the floor judge's walkthrough, in Chromium at 390x844 (the picker's own tests are in
test_picker.py)."""

import re

import pytest
from sqlalchemy import select

from tests.browser.conftest import log_in, shot
from tests.browser.test_offline import incidents_in_db, ready_for_offline
from tests.browser.test_phone import no_horizontal_scroll

pytestmark = pytest.mark.browser


def waiting(page) -> int:
    return page.evaluate(
        "async () => (await JudgeOutbox.list(document.body.dataset.user)).filter(r => r.state === 'waiting').length"
    )


def test_a_second_tap_on_save_after_a_save_or_on_the_emptied_form_does_nothing_and_the_saved_note_stays(
    live_server, phone
):
    """Guard 3: offline, the save keeps the incident on the phone and empties the form; Save tapped again at once
    stores nothing more and shows no error, and "Saved on this phone" stays in view."""
    log_in(phone, live_server)
    phone.goto(f"{live_server}/events/1/incidents/new")
    ready_for_offline(phone, live_server)
    phone.context.set_offline(True)
    phone.goto(f"{live_server}/events/1/incidents/new")
    phone.get_by_label("Table").fill("1")
    phone.get_by_role("button", name="Haruto Sato · DEMO-001").click()
    phone.locator("#infraction-search").fill("3.5.2")
    phone.locator("#suggestion").get_by_text("Suggested: Warning").wait_for()
    save = phone.get_by_role("button", name="Save incident")
    save.click()
    said = phone.locator("#outbox-said").get_by_text("Saved on this phone")
    said.wait_for()
    save.click()  # at once, on the emptied form
    save.click()
    phone.wait_for_timeout(500)  # a refused or second record would show by now: give it the time to
    assert said.is_visible()
    assert phone.locator("#incident-form .error:visible").count() == 0
    assert waiting(phone) == 1
    shot(phone, "guard-3-second-save-ignored")
    assert incidents_in_db(live_server) == []


def test_tapping_the_table_field_replaces_the_number_it_holds(live_server, phone):
    """Guard 5: a table carried over ("Another incident" at table 8) is replaced by what is typed: "10", not "810"."""
    log_in(phone, live_server)
    phone.goto(f"{live_server}/events/1/incidents/new?table=8")
    table = phone.get_by_label("Table")
    assert table.input_value() == "8"
    table.click()
    table.press_sequentially("10", delay=20)
    assert table.input_value() == "10"


def test_taking_the_policys_own_alternative_is_one_tap_and_records_its_condition_as_the_reason(live_server, phone):
    """Guard 6: 3.5.1.2 suggests a Loss of Game; "Instead: Warning when the judge can still legalise the game state…"
    is one tap, asks for no typed reason, and the record keeps the condition as its reason."""
    log_in(phone, live_server)
    phone.goto(f"{live_server}/events/1/incidents/new")
    phone.get_by_label("Table").fill("1")
    phone.get_by_role("button", name="Haruto Sato · DEMO-001").click()
    phone.locator("#infraction-search").fill("3.5.1.2")
    suggestion = phone.locator("#suggestion")
    suggestion.get_by_text("Suggested: Loss of Game").wait_for()
    suggestion.get_by_role("button", name="Give Warning: the condition holds").click()  # the one tap
    assert phone.get_by_label("Penalty", exact=True).input_value() == "warning"
    assert suggestion.get_by_text("Recorded with the condition as the reason.").is_visible()
    assert phone.locator("#reason-field").is_hidden()  # nothing to type
    shot(phone, "guard-6-alternative-taken")
    phone.get_by_role("button", name="Save incident").click()
    phone.locator(".confirm").get_by_text("Saved: incident #1").wait_for()
    [incident] = incidents_in_db(live_server)
    assert (incident.rank_id, incident.deviation_reason) == (
        "warning",
        "the judge can still legalise the game state without advantage to the offender (the game continues)",
    )


def test_starting_the_next_round_or_ending_this_one_while_it_runs_asks_first_naming_the_round_and_its_time_left(
    live_server, phone
):
    """Guard 1: on the event page, with round 1 running, "Start next round" and "End this round now" each ask first,
    naming the round and its minutes left; a cancel changes nothing."""
    from judgeapp.extensions import db
    from judgeapp.models import Round

    def rounds():
        with live_server.app.app_context():
            rows = db.session.query(Round).filter_by(event_id=1).order_by(Round.number)
            return [(r.number, r.ended_at is not None) for r in rows]

    log_in(phone, live_server, "head@demo.test")
    phone.goto(f"{live_server}/events/1")
    assert rounds() == [(1, False)]
    asked: list[str] = []
    phone.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    phone.get_by_role("button", name="Start next round").click()
    phone.wait_for_timeout(300)  # a cancelled question sends nothing: give a stray request the time to show
    assert re.fullmatch(
        r"Round 1 is still running: \d+ min left \(it ends \d\d:\d\d\)\. Start round 2 anyway\?", asked[-1]
    ), asked
    assert rounds() == [(1, False)]
    phone.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    phone.get_by_role("button", name="End this round now").click()
    phone.wait_for_timeout(300)
    assert re.fullmatch(r"End round 1 now\? It still has \d+ min left \(it ends \d\d:\d\d\)\.", asked[-1]), asked
    assert rounds() == [(1, False)]
    phone.once("dialog", lambda d: d.accept())
    phone.get_by_role("button", name="End this round now").click()
    phone.wait_for_load_state()
    phone.locator("main").get_by_text("ended").first.wait_for()
    assert rounds() == [(1, True)]


def test_the_minutes_owed_for_a_call_say_how_long_it_was_open_and_that_they_are_rounded_up(live_server, phone):
    """Guard 8: the incident form opened from a call a little over a minute ago explains its proposal: "Call open 1 min
    N s, rounded up: the policy owes the match 2 min" (Bushiroad: time back when a ruling takes over a minute)."""
    from datetime import timedelta

    from judgeapp.models import utcnow

    started = (utcnow() - timedelta(seconds=65)).replace(microsecond=0).isoformat()
    log_in(phone, live_server)
    phone.goto(f"{live_server}/events/1/incidents/new?call_started={started}&table=1")
    hint = phone.locator("#owed-hint")
    hint.wait_for()
    assert re.fullmatch(
        r"Call open 1 min \d+ s, rounded up: the policy owes the match 2 min "
        r"\(counted again by the server when you save\)\.",
        hint.inner_text(),
    ), hint.inner_text()
    assert phone.get_by_label("Time extension (minutes)").input_value() == "2"


def test_offline_a_page_from_the_phones_copy_says_so_and_when_and_the_calls_badge_says_unknown(live_server, phone):
    """Guard 7: with the network gone, the event page comes from the phone's copy: it says so, with the time the copy
    was made, and the calls badge shows "unknown", not the 0 the copy was made with."""
    log_in(phone, live_server)
    phone.goto(f"{live_server}/events/1")
    ready_for_offline(phone, live_server)
    assert phone.locator("#calls-badge .count").inner_text() == "0"
    phone.context.set_offline(True)
    phone.goto(f"{live_server}/events/1")
    note = phone.locator("#kept-note")
    note.wait_for()
    assert re.fullmatch(
        r"No network: this page is this phone's copy, made at \d\d:\d\d\. What changed since is not shown\.",
        note.inner_text(),
    ), note.inner_text()
    badge = phone.locator("#calls-badge .count")
    assert badge.inner_text() == "unknown"
    assert badge.get_attribute("aria-label") == "Not known: no network"
    shot(phone, "guard-7-offline-copy-said")
    phone.context.set_offline(False)


def test_a_new_incident_asks_before_restoring_an_unsaved_draft_of_another_and_restores_it_only_on_a_tap(
    live_server, phone
):
    """Guard 5: a draft left unsaved at table 4 is not poured into the form opened for table 8: the form asks, naming
    the draft, and restores it only when the judge taps "Restore it" ("Discard it" drops it)."""
    log_in(phone, live_server)
    phone.goto(f"{live_server}/events/1/incidents/new")
    phone.get_by_label("Table").fill("4")
    phone.get_by_label("Description").fill("Left unsaved at table 4.")
    phone.goto(f"{live_server}/events/1/incidents/new?table=8")  # New incident for another table
    question = phone.locator(".draft-question")
    question.wait_for()
    assert question.inner_text().startswith(
        "An incident you had not saved is on this phone (table 4). Restore it into this form?"
    )
    assert phone.get_by_label("Table").input_value() == "8"  # nothing restored without asking
    assert phone.get_by_label("Description").input_value() == ""
    shot(phone, "guard-5-draft-asked")
    question.get_by_role("button", name="Restore it").click()
    assert phone.get_by_label("Description").input_value() == "Left unsaved at table 4."
    assert phone.get_by_label("Table").input_value() == "4"
    phone.goto(f"{live_server}/events/1/incidents/new?table=8")
    phone.locator(".draft-question").get_by_role("button", name="Discard it").click()
    phone.goto(f"{live_server}/events/1/incidents/new?table=8")
    phone.get_by_label("Table").wait_for()
    assert phone.locator(".draft-question").count() == 0
    assert phone.get_by_label("Description").input_value() == ""


def test_an_upgraded_suggestion_names_the_default_it_upgrades_and_by_how_many_ranks(live_server, phone):
    """Guard 8: after a warning for 3.5.2, 3.5.3.2 for the same player is upgraded; the panel says from what:
    "default Warning, one rank up: Loss of Game"."""
    log_in(phone, live_server)
    for code in ("3.5.2", "3.5.3.2"):
        phone.goto(f"{live_server}/events/1/incidents/new")
        phone.get_by_label("Table").fill("1")
        phone.get_by_role("button", name="Haruto Sato · DEMO-001").click()
        phone.locator("#infraction-search").fill(code)
        phone.locator("#suggestion").get_by_text("Suggested:").wait_for()
        if code == "3.5.2":
            phone.get_by_role("button", name="Save incident").click()
            phone.locator(".confirm").get_by_text("Saved: incident #1").wait_for()
    panel = phone.locator("#suggestion")
    panel.get_by_text("Suggested: Loss of Game").wait_for()
    assert panel.locator(".upgrade-base").inner_text() == "default Warning, one rank up: Loss of Game"
    shot(phone, "guard-8-upgrade-names-its-base")


def test_the_script_after_an_upgrade_names_only_the_penalty_given_and_labels_the_remedys_own_penalty_words(
    live_server, phone
):
    """Guard 4: after a 3.5 warning, 3.5.4 (Drawing Extra Cards) for the same player is upgraded. "Tell the players"
    names the upgraded penalty and does not go on with the remedy's "play continues with a warning instead of the loss
    of game" as if it applied: the remedy is shown as the policy's text for an incident that is not upgraded."""
    log_in(phone, live_server, "head@demo.test")
    for number, code in ((1, "3.5.2"), (2, "3.5.4")):
        phone.goto(f"{live_server}/events/1/incidents/new")
        phone.get_by_label("Table").fill("1")
        phone.get_by_role("button", name="Haruto Sato · DEMO-001").click()
        phone.locator("#infraction-search").fill(code)
        phone.locator("#suggestion").get_by_text("Suggested:").wait_for()
        phone.get_by_role("button", name="Save incident").click()
        phone.locator(".confirm").get_by_text(f"Saved: incident #{number}").wait_for()
    confirmation = phone.locator(".confirm")
    told = confirmation.locator("p", has_text="Tell the players:").inner_text()
    assert "upgraded because it repeats an earlier infraction in 3.5" in told, told
    assert "instead of the loss of game" not in told, told
    penalty = confirmation.locator("p.big").inner_text()
    assert f"the penalty stays {penalty}." in confirmation.locator(".remedy-upgraded").inner_text()
    assert "its penalty words are for an incident that is not upgraded" in confirmation.inner_text()
    shot(phone, "guard-4-upgrade-script")


def test_time_added_in_the_background_is_confirmed_with_the_tables_new_end_and_the_policys_reminder(live_server, phone):
    """Guard 2: "Add time" saved on the phone with no network; when it goes, the banner says what the server did
    ("Table 4: 3 min added; it now ends at 20:23.") with Bushiroad 1.2.2's reminder to tell both players."""
    from tests.browser.test_offline import offline_at_form

    offline_at_form(phone, live_server, "/events/1/extensions/new")
    phone.get_by_label("Table").fill("4")
    phone.get_by_label("Minutes to add").fill("3")
    phone.get_by_role("button", name="Add time").click()
    phone.locator("#outbox-said").get_by_text("Saved on this phone: Time extension · round 1 · table 4").wait_for()
    phone.context.set_offline(False)
    phone.wait_for_function("() => document.body.dataset.outboxWaiting === '0'", timeout=30000)
    said = phone.locator("#outbox .outbox-sent .sent-said")
    said.wait_for()
    assert re.fullmatch(
        r"Table 4: 3 min added; it now ends at \d\d:\d\d\. Tell both players how much extra time or how many turns "
        r"they have and note it on their score sheets: .*\(Floor Rules 1\.2\.2.*\)\.",
        said.inner_text().strip(),
    ), said.inner_text()
    shot(phone, "guard-2-time-confirmed-after-background-save")


def test_an_incident_saved_from_a_call_with_time_given_shows_the_policys_reminder(live_server, phone):
    """Guard 2: the incident's confirmation, when the save gave time back for the call, carries the same reminder."""
    from datetime import timedelta

    from judgeapp.models import utcnow

    started = (utcnow() - timedelta(seconds=130)).replace(microsecond=0).isoformat()
    log_in(phone, live_server)
    phone.goto(f"{live_server}/events/1/incidents/new?call_started={started}&table=1")
    phone.get_by_role("button", name="Haruto Sato · DEMO-001").click()
    phone.locator("#infraction-search").fill("3.5.2")
    phone.locator("#suggestion").get_by_text("Suggested: Warning").wait_for()
    phone.locator("#owed-hint").wait_for()
    phone.get_by_role("button", name="Save incident").click()
    confirmation = phone.locator(".confirm")
    confirmation.get_by_text("Saved: incident #1").wait_for()
    time_line = confirmation.locator("p", has_text="Time:").inner_text()
    assert re.search(r"min added; table 1 now ends at \d\d:\d\d\.", time_line), time_line
    assert "Tell both players how much extra time" in time_line and "1.2.2" in time_line, time_line


def decided_rulings(app, rulings):
    """Fatima Floor's warnings (player, table, infraction), each appealed and decided by the head judge in turn."""
    from judgeapp.appeals import services as appeals
    from judgeapp.extensions import CATALOG_KEY, db
    from judgeapp.incidents import services as incidents
    from judgeapp.models import Event, Player, User
    from judgeapp.permissions import roles_at

    with app.app_context():
        event = db.session.scalar(select(Event).where(Event.name == "Demo Open"))
        policy = app.extensions[CATALOG_KEY].policy(event.policy_id)
        floor = db.session.scalar(select(User).where(User.email == "floor1@demo.test"))
        head = db.session.scalar(select(User).where(User.email == "head@demo.test"))
        for n, (code, table, infraction, outcome, reason) in enumerate(rulings, 1):
            player = db.session.scalar(select(Player).where(Player.event_id == event.id, Player.player_code == code))
            logged = incidents.log_incident(
                db.session,
                policy,
                actor=floor,
                roles=roles_at(db.session, floor, event),
                event=event,
                data=incidents.IncidentInput(
                    key=f"guards-decision-news-{n:04d}",
                    infraction_code=infraction,
                    table_number=table,
                    player_id=player.id,
                    rank_id="warning",
                ),
            )
            db.session.commit()
            appeal, _ = appeals.file_appeal(
                db.session,
                actor=floor,
                event=event,
                incident=logged.incident,
                data=appeals.AppealInput(
                    key=f"guards-decision-appeal-{n:04d}", appellant=f"player:{player.id}", contest="Disputes it."
                ),
            )
            db.session.commit()
            appeals.decide(
                db.session,
                policy,
                actor=head,
                roles=roles_at(db.session, head, event),
                event=event,
                appeal=appeal,
                data=appeals.Decision(outcome=outcome, reason=reason),
            )
            db.session.commit()


def test_older_decisions_on_the_judges_rulings_fold_to_one_line_and_the_newest_stays_open(live_server, phone):
    """Guard 5: as the phone's old "Sent as incident #N" notices, the head judge's decisions on this judge's rulings
    show the newest in full; the older ones are one line that a tap opens, each still with its own "Got it"."""
    decided_rulings(
        live_server.app,
        [
            ("DEMO-001", 1, "3.5.2", "upheld", "Both players saw it."),
            ("DEMO-003", 2, "3.4", "overturned", "The card was never revealed."),
            ("DEMO-005", 3, "3.5.2", "upheld", "A warning, as ruled."),
        ],
    )
    log_in(phone, live_server)
    newest = phone.locator("main > form.decision-news")
    assert newest.count() == 1
    assert "Appeal of your ruling, incident #3: upheld" in newest.inner_text()
    assert "A warning, as ruled." in newest.inner_text()
    older = phone.locator("#decisions-older")
    summary = older.locator("summary")
    assert summary.inner_text().startswith("2 earlier decisions: #2 overturned, #1 upheld")
    box = summary.bounding_box()
    assert 44 <= box["height"] < 60  # one line, still a tap target
    assert not older.locator("form.decision-news").first.is_visible()  # folded
    assert no_horizontal_scroll(phone)
    shot(phone, "guard-5-decisions-folded")

    summary.click()  # a tap opens them, each in full with its own "Got it"
    opened = older.locator("form.decision-news")
    assert opened.count() == 2 and opened.first.is_visible()
    assert "incident #2: overturned" in opened.first.inner_text()
    assert "The card was never revealed." in opened.first.inner_text()
    shot(phone, "guard-5-decisions-opened")
    opened.first.get_by_role("button", name="Got it").click()  # acknowledges #2 only
    phone.locator("main > form.decision-news").first.wait_for()
    assert phone.locator("#decisions-older summary").inner_text().startswith("1 earlier decision: #1 upheld")
    assert "incident #3: upheld" in phone.locator("main > form.decision-news").inner_text()
