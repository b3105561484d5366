"""Judge calls in real Chromium at 390x844: a player calls from table 7's link in their own browser; the floor judge's
queue shows it without a reload; the judge takes it and logs the incident from it; a second judge is told who has it;
a tap made offline waits in the outbox and the server's first taker wins; the player's page works without script."""

import subprocess

import pytest
from sqlalchemy import select

from judgeapp.extensions import db
from tests.browser.conftest import ARTIFACTS, CALL_STATUS_EVERY_MS, PHONE, log_in, refresh_until, shot
from tests.browser.test_floor_judge import no_horizontal_scroll
from tests.browser.test_offline import ready_for_offline

pytestmark = pytest.mark.browser


def table_link(server, table: int) -> str:
    from judgeapp.calls import services
    from judgeapp.models import Event

    with server.app.app_context():
        event = db.session.scalar(select(Event))
        key = services.call_key_of(db.session, event, event.organizer)
        db.session.commit()
        return f"{server}/call/{event.id}/{table}/{services.signature(key, event.id, table)}"


def the_call(server, number=1):
    from judgeapp.models import Incident, JudgeCall

    with server.app.app_context():
        call = db.session.scalar(select(JudgeCall).where(JudgeCall.number == number))
        incident = db.session.get(Incident, call.incident_id) if call.incident_id else None
        db.session.expunge_all()
        return call, incident


def phone_of(browser, **kwargs):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, **kwargs)
    return context, context.new_page()


def test_a_players_call_reaches_the_judges_queue_without_a_reload_and_becomes_the_incident(live_server, browser, phone):
    link = table_link(live_server, 7)
    log_in(phone, live_server, "floor1@demo.test")
    phone.goto(f"{live_server}/events/1/calls")
    phone.get_by_text("No call is waiting.").wait_for()
    second_context, second = phone_of(browser)
    log_in(second, live_server, "floor2@demo.test")
    second.goto(f"{live_server}/events/1")  # another page: the header's badge counts the call
    assert second.locator("#calls-badge .count").inner_text() == "0"

    player_context, player = phone_of(browser)  # the player's own phone: no account, the link from the QR code
    player.goto(link)
    assert player.get_by_role("heading", name="Call a judge to table 7").is_visible()
    assert no_horizontal_scroll(player)
    shot(player, "70-player-call-page")
    player.get_by_label("Rules question").check()
    player.get_by_label("In a few words (optional)").fill("Does the counter resolve first?")
    player.get_by_role("button", name="Call a judge").click()
    player.get_by_text("Your call is in the queue: next.").wait_for()
    shot(player, "71-player-call-queued")
    player.emulate_media(color_scheme="dark")  # a dark hall: the page follows the phone's setting
    shot(player, "71a-player-call-queued-dark")
    player.emulate_media(color_scheme="light")

    phone.locator("#call-queue").get_by_text("Table 7").wait_for(timeout=5_000)  # no reload: within 5 s
    assert "Rules question: “Does the counter resolve first?”" in phone.locator("#call-queue").inner_text()
    second.wait_for_function(
        "() => document.querySelector('#calls-badge .count').textContent.trim() === '1'", timeout=5_000
    )
    assert no_horizontal_scroll(phone)
    shot(phone, "72-judge-queue-with-the-call")

    second.goto(f"{live_server}/events/1/calls")  # the second judge's queue, before anyone takes it
    # ...and not refreshed before their tap (a slow venue network): the list's own updates (GET fetches, every few
    # seconds) are held back, so the queue is stale for certain, not only when the tap beats the next refresh
    second.route(
        f"{live_server}/events/1/calls*",
        lambda route: (
            route.abort()
            if route.request.method == "GET" and route.request.resource_type == "fetch"
            else route.continue_()
        ),
    )
    phone.get_by_role("button", name="I'll take it").click()
    phone.locator("#call-state").get_by_text("Taken").wait_for()
    assert "Nguyen Van An vs Tran Thi Mai" in phone.locator("dl.facts").inner_text()  # the pairings' players
    shot(phone, "73-call-taken")

    second.get_by_role("button", name="I'll take it").click()  # a stale queue: someone was quicker
    second.get_by_text("Fatima Floor took the call at table 7 first").wait_for()
    second.unroute(f"{live_server}/events/1/calls*")
    shot(second, "74-second-judge-told-who-has-it")

    player.get_by_text("A judge is coming to table 7.").wait_for(timeout=15_000)  # updated in place, no reload
    assert "Fatima" not in player.content()  # the player learns nothing but the table's own call state
    shot(player, "75-player-judge-coming")

    phone.get_by_role("link", name="Log an incident").click()
    assert phone.get_by_label("Table").input_value() == "7"
    phone.locator("#from-call").wait_for()
    phone.get_by_role("button", name="Nguyen Van An · DEMO-013").click()  # the table's players, from the pairings
    phone.get_by_placeholder("Search by code or words").press_sequentially("3.5.2", delay=10)
    phone.locator("#suggestion").get_by_text("Suggested: Warning").wait_for()
    shot(phone, "76-incident-form-from-the-call")
    phone.get_by_role("button", name="Save incident").click()
    phone.locator(".confirm").get_by_text("Saved: incident #1").wait_for()

    call, incident = the_call(live_server)
    assert call.outcome.value == "incident" and incident.table_number == 7
    assert incident.call_started_at == call.raised_at.replace(microsecond=0)  # the extension counts from the call
    phone.goto(f"{live_server}/events/1/incidents/1")
    shown = phone.locator("#incident-call").inner_text()
    called = call.raised_at.strftime("%H:%M:%S")  # the demo's clock is UTC
    assert "table 7: Nguyen Van An vs Tran Thi Mai" in shown and f"called {called}" in shown
    shot(phone, "77-incident-from-the-call")
    for context in (second_context, player_context):
        context.close()


def test_a_take_tapped_offline_waits_in_the_outbox_and_the_servers_first_taker_wins(live_server, browser, phone):
    link = table_link(live_server, 9)
    log_in(phone, live_server, "floor1@demo.test")
    phone.goto(f"{live_server}/events/1/calls")
    ready_for_offline(phone, live_server)
    player_context, player = phone_of(browser, java_script_enabled=False)  # any phone browser, no script needed
    player.goto(link)
    player.get_by_role("button", name="Call a judge").click()
    player.get_by_text("Your call is in the queue: next.").wait_for()
    phone.locator("#call-queue").get_by_text("Table 9").wait_for(timeout=5_000)

    phone.context.set_offline(True)  # the hall's wi-fi drops as the judge taps
    phone.get_by_role("button", name="I'll take it").click()
    phone.locator("#outbox-said").get_by_text("Saved on this phone: Take the call at table 9").wait_for()

    head_context, head = phone_of(browser)  # meanwhile the head judge, online, takes it
    log_in(head, live_server, "head@demo.test")
    head.goto(f"{live_server}/events/1/calls/1")
    head.get_by_role("button", name="I'll take it").click()
    head.locator("#call-state").get_by_text("Taken").wait_for()

    phone.context.set_offline(False)  # back: the outbox sends the tap; the server says who was first
    phone.wait_for_function("() => document.body.dataset.outboxWaiting === '0'", timeout=30_000)
    phone.goto(f"{live_server}/events/1/calls")
    outbox = phone.locator("#outbox")
    outbox.get_by_text("took the call at table 9 first").wait_for(timeout=10_000)
    shot(phone, "78-offline-take-refused-first-taker-wins")
    call, _ = the_call(live_server)
    from judgeapp.models import User

    with live_server.app.app_context():
        assert db.session.get(User, call.taken_by_id).email == "head@demo.test"
    for context in (player_context, head_context):
        context.close()


def test_the_organizer_asks_for_the_qr_sheet_sees_it_being_prepared_and_downloads_it(live_server, phone, tmp_path):
    """The sheet is a job (issue 32): the organizer's button starts it, the page says it is being prepared, the worker
    makes it, and the page then offers the file."""
    from tests.conftest import Worker

    log_in(phone, live_server, "organizer@demo.test")
    phone.goto(f"{live_server}/events/1")
    phone.get_by_role("link", name="Tables' call links and QR sheet").click()
    # The click returns once the page's answer starts arriving: count and measure it once it has loaded (its whole
    # list parsed, its styles applied), which a busy machine makes take a while.
    phone.wait_for_url(f"{live_server}/events/1/calls/links**")  # and its load event
    assert phone.locator("#table-links li").count() == 16  # the demo's 32 players sit at 16 tables
    assert no_horizontal_scroll(phone)
    shot(phone, "79-call-links-page")
    phone.get_by_role("button", name="Prepare the QR sheet (PDF)").click()
    phone.get_by_text("The QR sheet is being prepared: it will be offered for download on this page.").wait_for()
    phone.wait_for_load_state()  # the page after the redirect, loaded before it is measured
    assert phone.locator("#qr-sheet-state").inner_text() == "Waiting to be prepared."  # no worker has taken it yet
    assert phone.locator("#qr-sheet-title").inner_text() == "QR sheet, tables 1 to 16"
    assert no_horizontal_scroll(phone)
    shot(phone, "79-qr-sheet-being-prepared")
    worker = Worker(live_server.app).start()
    try:
        refresh_until(phone, "#qr-sheet-download")
    finally:
        worker.stop()
    assert phone.locator("#qr-sheet-state").inner_text() == "Ready to download."
    shot(phone, "79-qr-sheet-ready")
    with phone.expect_download() as download:
        phone.get_by_role("link", name="Download the QR sheet (PDF)").click()
    assert download.value.suggested_filename == "call-links-1-tables-1-16.pdf"
    pdf = tmp_path / "sheet.pdf"
    download.value.save_as(pdf)
    words = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, check=True, text=True).stdout
    assert "Demo Open" in words and "Table 1" in words and "Table 16" in words
    subprocess.run(["pdftoppm", "-r", "60", "-png", "-f", "1", "-l", "1", str(pdf), str(ARTIFACTS / "80-qr-sheet")])


def test_the_judges_service_worker_never_answers_for_a_players_call_page(live_server, browser, phone):
    """A phone a judge used has the judges' service worker; a player's link opened on it goes to the network, never
    to the judges' kept pages or offline page (with a slow or absent network that page replaced the call page)."""
    from playwright.sync_api import Error

    link = table_link(live_server, 5)
    log_in(phone, live_server, "floor1@demo.test")
    phone.goto(f"{live_server}/events/1/calls")
    phone.evaluate("navigator.serviceWorker.ready.then(() => true)")  # installed, with its offline page
    if not phone.evaluate("!!navigator.serviceWorker.controller"):
        phone.reload()
    phone.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=30_000)
    phone.context.set_offline(True)
    shown = None
    try:
        phone.goto(link)
        shown = phone.content()
    except Error:
        pass  # the browser's own "no network": the worker left the request alone
    phone.context.set_offline(False)
    assert shown is None, "the service worker answered for a player's call page"

    player_context, player = phone_of(browser)  # a player's own phone: an error page installs no service worker
    for url in (link[:-16] + "a" * 16, link.replace("/call/", "/call/x/")):
        player.goto(url)
        player.wait_for_timeout(300)
        assert player.evaluate("navigator.serviceWorker.getRegistrations().then((r) => r.length)") == 0
    player_context.close()


def head_judge_closes(server, number):
    """The head judge closes call `number` from their phone (nobody took it: cancelled)."""
    from judgeapp.calls import services
    from judgeapp.models import Event, User

    with server.app.app_context():
        event = db.session.scalar(select(Event))
        head = db.session.scalar(select(User).where(User.email == "head@demo.test"))
        call = services.call_by_number(db.session, event, number)
        services.close(db.session, actor=head, roles=frozenset({"head_judge"}), event=event, call=call)
        db.session.commit()


def the_event_closes(server):
    from judgeapp.calls import services
    from judgeapp.models import Event, utcnow

    with server.app.app_context():
        event = db.session.scalar(select(Event))
        services.close_with_event(db.session, actor=event.organizer, event=event)
        event.closed_at = utcnow()
        db.session.commit()


def test_the_players_page_says_the_head_judge_closed_the_call_then_that_calls_are_closed_and_stops_asking(
    live_server, browser
):
    link = table_link(live_server, 3)
    player_context, player = phone_of(browser)
    player.goto(link)
    button = player.get_by_role("button", name="Call a judge")
    assert player.get_by_label("In a few words (optional)").bounding_box()["y"] < button.bounding_box()["y"]
    assert player.get_by_label("Rules question").bounding_box()["y"] < button.bounding_box()["y"]
    button.click()
    player.get_by_text("Your call is in the queue: next.").wait_for()
    player.get_by_text("this page also updates by itself").wait_for()  # shown by the page's script, once it runs

    head_judge_closes(live_server, 1)
    player.get_by_text("Your call was closed by the head judge").wait_for(timeout=15_000)  # no reload
    assert player.get_by_role("button", name="Call a judge").is_visible()  # to call again
    assert no_horizontal_scroll(player)
    shot(player, "81-player-call-closed-by-the-head-judge")

    player.get_by_role("button", name="Call a judge").click()
    player.get_by_text("Your call is in the queue: next.").wait_for()
    the_event_closes(live_server)
    player.get_by_text("judge calls are closed").wait_for(timeout=15_000)
    assert "in the queue" not in player.locator("main").inner_text()
    shot(player, "82-player-judge-calls-closed")
    asked = []
    player.on("request", lambda r: asked.append(r.url))
    player.wait_for_timeout(3 * CALL_STATUS_EVERY_MS)  # three of the page's intervals: no look is waited for here
    assert not [u for u in asked if "/call/" in u], "the page went on asking after the event closed"
    player_context.close()


def test_without_script_the_players_page_claims_no_updating_and_a_refusal_is_the_players_own_page(live_server, browser):
    live_server.app.config["CALL_LIMIT_PER_TABLE"] = "1 per 10 minutes"
    link = table_link(live_server, 4)
    player_context, player = phone_of(browser, java_script_enabled=False)
    player.goto(link)
    player.get_by_role("button", name="Call a judge").click()
    player.get_by_text("Your call is in the queue: next.").wait_for()
    assert not player.get_by_text("updates by itself").is_visible()
    head_judge_closes(live_server, 1)
    player.get_by_role("link", name="Refresh").click()
    player.get_by_text("Your call was closed by the head judge").wait_for()
    player.get_by_role("button", name="Call a judge").click()  # a second new call from the table in 10 minutes
    player.get_by_role("heading", name="Too many calls").wait_for()
    assert "Raise your hand and call “Judge!” aloud" in player.locator("main").inner_text()
    assert player.locator("header, nav").count() == 0  # the player's own page: no judges' menu
    assert no_horizontal_scroll(player)
    shot(player, "83-player-too-many-calls")
    player_context.close()


def test_a_judges_phone_five_minutes_fast_shows_the_calls_real_length_and_proposes_no_time_for_a_short_call(
    live_server, browser
):
    """The stopwatch and the minutes it proposes count from the server's clock, not the phone's."""
    import time
    from datetime import timedelta

    from judgeapp.calls import services
    from judgeapp.models import Event, User, utcnow

    with live_server.app.app_context():
        event = db.session.scalar(select(Event))
        floor = db.session.scalar(select(User).where(User.email == "floor1@demo.test"))
        call, _ = services.raise_call(db.session, event=event, table=6, reason="dispute", note="")
        services.take(db.session, actor=floor, roles=frozenset({"floor_judge"}), event=event, call=call)
        call.raised_at = utcnow() - timedelta(seconds=35)
        db.session.commit()
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    context.clock.install(time=time.time() + 5 * 60)  # the judge's phone is five minutes fast
    judge = context.new_page()
    log_in(judge, live_server, "floor1@demo.test")
    judge.goto(f"{live_server}/events/1/calls/1")
    reading = judge.locator("#stopwatch .elapsed").inner_text()
    assert reading.startswith("0:"), f"the call page's stopwatch reads {reading} for a 35-second call"
    judge.get_by_role("link", name="Log an incident").click()
    judge.locator("#from-call").wait_for()
    judge.wait_for_timeout(1_500)
    reading = judge.locator("#stopwatch .elapsed").inner_text()
    assert reading.startswith("0:"), f"the incident form's stopwatch reads {reading} for a 35-second call"
    assert judge.get_by_label("Time extension (minutes)").input_value() == ""  # nothing owed for 35 s
    shot(judge, "84-incident-from-a-call-phone-clock-fast")
    context.close()


def test_the_queue_keeps_the_focused_button_changes_only_when_calls_change_and_says_when_it_is_stale(
    live_server, browser, phone
):
    from judgeapp.calls import services
    from judgeapp.models import Event, User

    def raise_at(table):
        with live_server.app.app_context():
            event = db.session.scalar(select(Event))
            services.raise_call(db.session, event=event, table=table, reason="other", note="")
            db.session.commit()

    raise_at(2)
    log_in(phone, live_server, "floor1@demo.test")
    phone.goto(f"{live_server}/events/1/calls")
    phone.evaluate("""() => {
        window.feedChanges = 0;
        new MutationObserver((m) => { window.feedChanges += m.length; })
            .observe(document.getElementById('feed'), { childList: true, subtree: true, characterData: true });
    }""")
    button = phone.get_by_role("button", name="I'll take it")
    button.focus()
    phone.evaluate("() => { window.focusedButton = document.activeElement; }")
    phone.evaluate("""() => {  // counts the queue's answers read, before feed.js gets to show them
        window.feedAnswers = 0;
        const text = Response.prototype.text;
        Response.prototype.text = function () {
            const read = text.call(this);
            return this.url.includes('partial=1') ? read.then((t) => { window.feedAnswers += 1; return t; }) : read;
        };
    }""")
    phone.wait_for_function("() => window.feedAnswers >= 2")  # two refreshes with nothing new, however long they take
    assert phone.evaluate("window.feedChanges") == 0, "the queue was rewritten with nothing new"
    assert phone.evaluate("document.activeElement === window.focusedButton")

    raise_at(5)  # a new call: the list changes, the focus stays on the same call's button
    phone.locator("#call-queue").get_by_text("Table 5").wait_for(timeout=5_000)
    assert phone.evaluate("document.activeElement.closest('li').dataset.table") == "2"

    head_context, head = phone_of(browser)  # the head judge's page shows a hand-over without a reload
    log_in(head, live_server, "head@demo.test")
    with live_server.app.app_context():
        event = db.session.scalar(select(Event))
        floor = db.session.scalar(select(User).where(User.email == "floor1@demo.test"))
        call = services.call_by_number(db.session, event, 1)
        services.take(db.session, actor=floor, roles=frozenset({"floor_judge"}), event=event, call=call)
        services.escalate(db.session, actor=floor, roles=frozenset({"floor_judge"}), event=event, call=call)
        db.session.commit()
    head.get_by_text("Judge call at table 2 handed to you").wait_for(timeout=6_000)
    head.get_by_role("link", name="Go to the call").click()
    head.get_by_role("button", name="I'll take it").click()
    head.locator("#call-state").get_by_text("Taken").wait_for()
    head_context.close()

    phone.context.set_offline(True)  # the hall's wi-fi drops
    stale = phone.locator("#feed-stale")
    stale.get_by_text("check your connection").wait_for(timeout=6_000)
    assert stale.inner_text().startswith("Not updated since ")
    assert no_horizontal_scroll(phone)
    shot(phone, "85-judge-queue-not-updated-no-network")
    phone.context.set_offline(False)
    stale.wait_for(state="hidden", timeout=6_000)

    other = phone.context.new_page()  # signed out in another tab: the queue never shows the sign-in page
    other.goto(f"{live_server}/events/1")
    with other.expect_navigation():
        other.get_by_role("button", name="Log out").click()
    other.close()
    stale.get_by_text("Sign in again").wait_for(timeout=6_000)
    assert phone.locator("#feed input[name=password]").count() == 0
    assert phone.locator("#call-queue").get_by_text("Table 5").is_visible()  # the last list stays
    shot(phone, "86-judge-queue-not-updated-signed-out")
