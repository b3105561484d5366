"""What a phone downloads, counted where it is exact: at the server's socket.

The live server's request handler counts every byte it writes for each request (status line, headers, body as sent:
brotli where the app compresses), so the service worker's own fetches count like the page's, a file the browser
serves from its cache costs nothing, and nothing depends on which browser target made the request (the DevTools
protocol reports a service worker's fetches on the worker's own target only). Bytes are HTTP/1.1 as this server
writes them; behind the HTTPS proxy of the README's recipe (HTTP/2) the repeated headers shrink (HPACK) and TLS adds
its own framing.

Used by tests/browser/test_network.py (sizes and behaviour) and bench/network.py (the figures and times).
"""

from __future__ import annotations

import gzip
import json
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta

import brotli
from sqlalchemy import select
from werkzeug.serving import WSGIRequestHandler, make_server

from judgeapp import create_app
from judgeapp.extensions import db
from judgeapp.models import AuditEntry

# Chromium DevTools' "3G" preset, called "Slow 3G" until May 2024 (devtools-frontend, front_end/core/sdk/
# NetworkManager.ts, Slow3GConditions): ~500 kbit/s down and up at 80 %, 400 ms RTT times 5.
SLOW_3G = {
    "offline": False,
    "downloadThroughput": 500 * 1000 / 8 * 0.8,  # bytes/s: 50,000
    "uploadThroughput": 500 * 1000 / 8 * 0.8,
    "latency": 400 * 5,  # ms: 2,000
}
NO_THROTTLING = {"offline": False, "downloadThroughput": -1, "uploadThroughput": -1, "latency": 0}

# Asked for again by design: the header's badge every few seconds; the outbox's CSRF token and session check on each
# page load (a few hundred bytes: it also tells a page shown from the phone's copy that the session has ended).
# Small answers a page asks for each time it loads, not downloads of a page or file: the calls badge, the page's
# token, and the check a page the phone showed from its copy makes (has the event changed since? a few hundred bytes).
POLLS = ("/calls/waiting?format=json", "/offline/token", "/offline/changed.json")
# The browser's own update check of the service worker (the spec's soft update after each page the worker serves;
# Chromium runs it a second after the last one, later while the worker is busy): answered 304 when unchanged, a few
# hundred bytes (judgeapp/offline/views.py). It lands inside or after a visit as that timer goes; a second download
# of the worker (200) still counts.
WORKER = "/sw.js"


@dataclass
class Sent:
    method: str
    path: str
    status: int
    content_type: str
    header_bytes: int
    body_bytes: int
    encoding: str = ""  # the Content-Encoding sent (br, gzip) or ""
    plain_body_bytes: int = 0  # the body uncompressed: what it would have cost without compression
    # who asked, from the request's headers: "navigate" (a page load, through the worker or not), "worker" (the
    # service worker's own fetch: its Referer is the worker's script), "page" (a page's script), "sw-script" (the
    # browser fetching the worker's script); and when the request came and its answer ended (s since the server began)
    by: str = ""
    began: float = 0.0
    ended: float = 0.0

    @property
    def bytes(self) -> int:
        return self.header_bytes + self.body_bytes

    @property
    def uncompressed_bytes(self) -> int:
        return self.header_bytes + self.plain_body_bytes


@dataclass
class Traffic:
    """Every answer the server wrote, in order."""

    answers: list[Sent] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    started: float = field(default_factory=time.monotonic)

    def mark(self) -> int:
        with self.lock:
            return len(self.answers)

    def since(self, mark: int) -> list[Sent]:
        with self.lock:
            return list(self.answers[mark:])


def asker(headers) -> str:
    """Who sent a request, by the headers the browser sets (Fetch Metadata, Referer, Service-Worker)."""
    if headers.get("Service-Worker") == "script":
        return "sw-script"
    if headers.get("Sec-Fetch-Mode") == "navigate":
        return "navigate"
    if (headers.get("Referer") or "").split("?")[0].endswith("/sw.js"):
        return "worker"
    return "page"


def handler_for(traffic: Traffic) -> type[WSGIRequestHandler]:
    class Counting(WSGIRequestHandler):
        def run_wsgi(self):
            began = time.monotonic() - traffic.started
            real = self.wfile
            self.wfile = _Counter(real)
            self._judgeapp_type = ""
            self._judgeapp_encoding = ""
            self._judgeapp_status = 0
            try:
                super().run_wsgi()
            finally:
                counter = self.wfile
                self.wfile = real
                body = bytes(counter.written[counter.head :])
                with traffic.lock:
                    traffic.answers.append(
                        Sent(
                            self.command,
                            self.path,
                            self._judgeapp_status,
                            self._judgeapp_type,
                            counter.head,
                            counter.total - counter.head,
                            self._judgeapp_encoding,
                            len(_decoded(body, self._judgeapp_encoding)),
                            asker(self.headers),
                            began,
                            time.monotonic() - traffic.started,
                        )
                    )

        def send_response(self, code, message=None):
            self._judgeapp_status = code
            super().send_response(code, message)

        def send_header(self, keyword, value):
            if keyword.lower() == "content-type":
                self._judgeapp_type = value.split(";")[0]
            if keyword.lower() == "content-encoding":
                self._judgeapp_encoding = value.strip().lower()
            super().send_header(keyword, value)

        def end_headers(self):
            super().end_headers()  # flushes the header buffer through wfile: what was written so far is the head
            self.wfile.head = self.wfile.total

        def log_request(self, *args):
            pass

    return Counting


def _decoded(body: bytes, encoding: str) -> bytes:
    """A body as it was before compression (the bench's "without compression" column)."""
    try:
        if encoding == "br":
            return brotli.decompress(body)
        if encoding == "gzip":
            return gzip.decompress(body)
    except (brotli.error, OSError, EOFError):
        pass
    return body


class _Counter:
    def __init__(self, raw):
        self.raw, self.total, self.head = raw, 0, 0
        self.written = bytearray()

    def write(self, data):
        self.total += len(data)
        self.written += data
        return self.raw.write(data)

    def __getattr__(self, name):
        return getattr(self.raw, name)


class CountedServer:
    """The demo event (one password for every account) on a live server whose answers are counted. The demo's records
    are dated an hour back: an event is not set up seconds before its judges open it (a page rendered within seconds
    of a change is fetched again, see outbox.js RENDER_GRACE_MS)."""

    def __init__(self, config: dict, password: str):
        self.traffic = Traffic()
        self.app = create_app(config)
        with self.app.app_context():
            db.create_all()
        assert self.app.test_cli_runner().invoke(args=["demo", "--password", password]).exit_code == 0
        with self.app.app_context():
            for entry in db.session.scalars(select(AuditEntry)):
                entry.at -= timedelta(hours=1)
            db.session.commit()
        self.server = make_server("127.0.0.1", 0, self.app, threaded=True, request_handler=handler_for(self.traffic))
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    def close(self):
        self.server.shutdown()
        self.thread.join(5)
        with self.app.app_context():
            db.engine.dispose()


@dataclass
class Visit:
    answers: list[Sent]
    # the judge signed in before the service worker controlled the login page: the page after signing in came from
    # the network, not through the worker, so its copy for offline use is fetched once more (sw.js, learnAccount)
    signed_in_before_the_worker: bool = False

    def allowed_twice(self) -> list[dict[str, int]]:
        # (the worker may still take over in the instant between that check and the tap: then once)
        return [{}, {"GET /": 2}] if self.signed_in_before_the_worker else [{}]

    @property
    def bytes(self) -> int:
        return sum(a.bytes for a in self.answers)

    @property
    def header_bytes(self) -> int:
        return sum(a.header_bytes for a in self.answers)

    @property
    def requests(self) -> int:
        return len(self.answers)

    def twice(self) -> dict[str, int]:
        """Addresses asked for more than once (POLLS and the worker's update checks aside)."""
        counts = Counter(
            f"{a.method} {a.path}"
            for a in self.answers
            if a.path not in POLLS and not (a.path == WORKER and a.status == 304)
        )
        return {k: n for k, n in counts.items() if n > 1}

    def pages_twice(self) -> dict[str, int]:
        counts = Counter(a.path for a in self.answers if a.method == "GET" and a.content_type == "text/html")
        return {k: n for k, n in counts.items() if n > 1}

    def table(self) -> str:
        return "\n".join(
            f"  {a.began:7.3f}-{a.ended:7.3f} {a.by:9} {a.method:4} {a.status} {a.path[:60]:60} {a.bytes:7,} B"
            f" ({a.header_bytes} of headers)"
            for a in self.answers
        )


def settle(page, script: str, seconds: float = 30) -> None:
    """Poll an async page function until it answers true."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(script):
        assert time.monotonic() < deadline, f"not true after {seconds} s: {script}"
        page.wait_for_timeout(100)


COPY_SAVED = "async () => !!(await JudgeOutbox.copy(document.body.dataset.user))"
# every page of the copy kept, and the phone's check of them recorded by the service worker (sw.js: fresh)
PAGES_KEPT = """async () => {
    const copy = await JudgeOutbox.copy(document.body.dataset.user);
    if (!copy || !navigator.serviceWorker.controller) return false;
    const cache = await caches.open('judgeapp-pages');
    for (const e of copy.events) for (const url of e.pages) if (!(await cache.match(url))) return false;
    const data = await caches.open('judgeapp-data');  // the finder's words of each event's policy version
    for (const e of copy.events) if (!(await data.match(e.finder))) return false;
    const fresh = await new Promise((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = (e) => resolve(e.data);
        navigator.serviceWorker.controller.postMessage({type: 'fresh?'}, [channel.port2]);
    });
    return !!fresh && fresh.checked === copy.saved_at;
}"""


def quiet(page, ms: int = 1500) -> None:
    """A judge reading the page: what the page and its service worker still ask for meanwhile is counted too."""
    page.wait_for_timeout(ms)


def cold_visit(page, base: str, traffic: Traffic, password: str, email: str = "floor1@demo.test") -> Visit:
    """A phone that never saw the app: login page, sign in, the event page, the incident form, until the phone is
    ready for offline use (every page of its copy kept)."""
    start = traffic.mark()
    page.goto(f"{base}/login")
    # The judge signs in at once, as judges do: the service worker is still installing, so the sign-in and the page
    # after it do not pass through it (issue 36, the sign-in race). The worker asks the server whose phone it is
    # before it copies any page (sw.js, learnAccount), and each page is still downloaded once.
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(password)
    before_the_worker = page.evaluate("!navigator.serviceWorker.controller")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/")
    settle(page, COPY_SAVED)
    page.goto(f"{base}/events/1")
    page.goto(f"{base}/events/1/incidents/new")
    settle(page, PAGES_KEPT)
    quiet(page)
    return Visit(traffic.since(start), signed_in_before_the_worker=before_the_worker)


def later_page(page, base: str, traffic: Traffic, path: str) -> Visit:
    start = traffic.mark()
    page.goto(f"{base}{path}")
    quiet(page)
    return Visit(traffic.since(start))


LATER_PAGES = ("/events/1/clock", "/events/1/players/1", "/events/1/incidents/new")


class Throttled:
    """`conditions` emulated for the page (its own requests and the outbox's posts) and for the app's service worker
    (the pages it fetches and keeps), each through its own DevTools session: the page's emulation does not reach the
    worker's fetches. The worker's session is attached from the browser's session (Target.attachToTarget, not
    flattened, as Playwright's own sessions cannot reach a service worker); a worker the browser stops and starts again
    loses it."""

    def __init__(self, browser, context, page, conditions: dict):
        self.page_session = context.new_cdp_session(page)
        self.page_session.send("Network.enable")
        self.page_session.send("Network.emulateNetworkConditions", conditions)
        self.browser_session = browser.new_browser_cdp_session()
        self.workers = 0
        # this page's own worker: its origin and its browser context (an earlier test's worker, of another server or a
        # closed context, may linger in the shared browser a while)
        origin = "/".join(page.url.split("/", 3)[:3]) + "/"
        own = self.page_session.send("Target.getTargetInfo")["targetInfo"]["browserContextId"]
        for target in self.browser_session.send("Target.getTargets")["targetInfos"]:
            if (
                target["type"] == "service_worker"
                and target["url"].startswith(origin)
                and target.get("browserContextId") == own
            ):
                session = self.browser_session.send(
                    "Target.attachToTarget", {"targetId": target["targetId"], "flatten": False}
                )["sessionId"]
                for n, (method, params) in enumerate(
                    [("Network.enable", {}), ("Network.emulateNetworkConditions", conditions)], start=1
                ):
                    self.browser_session.send(
                        "Target.sendMessageToTarget",
                        {"sessionId": session, "message": json.dumps({"id": n, "method": method, "params": params})},
                    )
                self.workers += 1


def fill_incident(page, table: int = 1) -> None:
    """`table`, its first player, 3.5.2 (failure to discard), a warning: the default at the demo's level for a player
    with no penalty yet (a second warning in 3.5 would be below the upgrade and need a reason)."""
    page.get_by_label("Table").fill(str(table))
    page.locator("#table-players .chip").first.click()
    page.locator("#infraction-search").fill("3.5.2")  # the exact code chooses it in the picker
    page.locator("#penalty").select_option("warning")
