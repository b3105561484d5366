"""Every judge screen, once: the page list the accessibility scan (axe-core) and the 200 % zoom check both walk.

The screens are the demo with its sample cases (an appeal waiting, a disqualification under investigation) plus a
player's call waiting at table 12; each account's pages are visited in one browser context, signed in once.
"""

from __future__ import annotations

from collections.abc import Iterator

from tests.browser.conftest import DEMO_PASSWORD

PAGES = {
    None: ["/login", "/statement/not-a-real-token", "/help/player"],
    "head@demo.test": [
        "/",
        "/events/1",
        "/events/1/incidents/new",
        "/events/1/incidents/call",
        "/events/1/incidents",
        "/events/1/incidents/1",
        "/events/1/incidents/2",
        "/events/1/players",
        "/events/1/players/1",
        "/events/1/feed",
        "/events/1/clock",
        "/events/1/deck-checks",
        "/events/1/deck-checks/new",
        "/events/1/extensions/new",
        "/events/1/appeals",
        "/events/1/appeals/1",
        "/events/1/investigations",
        "/events/1/investigations/1",
        "/events/1/pairings",
        "/events/1/report",
        "/events/1/calls",
        "/events/1/calls/1",
        "/reference",
        "/reference/bushiroad-afr",
        "/account/password",
        "/help/floor-judge",
        "/help/head-judge",
        "/events/999",
    ],
    "organizer@demo.test": [
        "/events/new",
        "/events/1/settings",
        "/events/1/staff",
        "/events/1/close",
        "/events/1/calls/links",
        "/events/1/policy",
        "/reference/events/1",
        "/players/history?code=DEMO-003",
        "/events/1/pairings",
        "/help/organizer",
    ],
}


def a_call_from_table_12(server) -> list[str]:
    """A player's call waiting at table 12 (the queue and the call page have something to show); the player's page of
    table 12 (queued) and of table 13 (the form). Raising it again finds the same call (a table has one live call)."""
    from judgeapp.calls import services
    from judgeapp.extensions import db
    from judgeapp.models import Event

    with server.app.app_context():
        event = db.session.get(Event, 1)
        services.raise_call(db.session, event=event, table=12, reason="rules_question", note="Does it resolve?")
        key = services.call_key_of(db.session, event, event.organizer)
        db.session.commit()
        return [f"/call/1/{table}/{services.signature(key, 1, table)}" for table in (12, 13)]


def judge_screens(server) -> dict[str | None, list[str]]:
    """Every screen by the account that opens it (None: no account), the player's call pages included."""
    return {**PAGES, None: [*PAGES[None], *a_call_from_table_12(server), "/call/1/13/not-its-signature"]}


# The page on the screen is the service worker's offline page (#offline-ready) instead of the one asked for: it shows
# it for a page it holds no copy of when the server has not answered within NETWORK_WAIT_MS (6 s). (A kept copy,
# data-kept, is the same page: the worker shows the pages it keeps from the phone while they are current.)
OFFLINE_PAGE = "() => !!document.getElementById('offline-ready')"


def load_from_the_server(page, url: str, tries: int = 5) -> None:
    """`url` loaded and settled. On a busy machine the server may take more than 6 s, and the service worker then
    shows its offline page instead (as it should on a venue's slow network): the page is asked for again, else the
    checks would look at the offline page (seen at load ~25: every mode of /events/1/incidents/1 checked on "No
    network")."""
    for _ in range(tries):
        page.goto(url)
        page.wait_for_load_state("networkidle")
        if not page.evaluate(OFFLINE_PAGE):
            return
    raise AssertionError(f"{url}: the service worker's offline page shown {tries} times, never the page")


def visit_every_screen(browser, server, **context_options) -> Iterator[tuple[object, str]]:
    """(page, path) for every judge screen, loaded and settled; one browser context per account, signed in once."""
    for account, paths in judge_screens(server).items():
        context = browser.new_context(**context_options)
        try:
            page = context.new_page()
            if account:
                page.goto(f"{server}/login")
                page.get_by_label("Email").fill(account)
                page.get_by_label("Password").fill(DEMO_PASSWORD)
                page.get_by_role("button", name="Log in").click()
                page.wait_for_url(f"{server}/")
            for path in paths:
                load_from_the_server(page, server + path)
                yield page, path
        finally:
            context.close()
