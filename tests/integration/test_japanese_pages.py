"""Every page a Japanese judge reaches at a Japanese event is in Japanese.

The test walks the site as a head judge and as the organizer would, following every link from the event page
(GET only), and reads each page as a browser shows it: text, button labels, placeholders, aria-labels and titles.
A word in Latin letters that is not data (a code, an e-mail address, a name the judges typed) is a string someone
forgot to mark for translation: the test names the page and the words.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlparse

from sqlalchemy import update

from judgeapp.extensions import db
from judgeapp.models import Event, User
from tests.integration.test_incidents import log, signed_in

# Latin-letter words that are not English sentences: the product's name, codes and abbreviations judges use as such.
ALLOWED = {
    "judgeapp",
    "PDF",
    "CSV",
    "QR",
    "ID",
    "TCG",
    "AFR",
    "URL",
    "OK",
    "TSV",
    "XML",
    "JSON",
    "UTC",
    "FR",
    "Ver",
    "README",
    "YAML",
    "SHA",
    "English",
}  # English: the language's own name in the language menu
# Names of things, not sentences: the pairing programs' file formats, a README heading the help text points to.
NAMES = {
    "Tournament Operations Manager",
    "TOM",
    "KTS",
    ".Tournament",
    "Melee",
    "tdf",
    "The catalog file",
    "Bushiroad ID",
}
SHOWN_ATTRIBUTES = ("aria-label", "title", "placeholder", "alt", "value")
SKIP = ("/logout", "/static/", ".pdf", ".csv", "/report.", "/export", "format=")


def _english_only_policies() -> set[str]:
    """The names of the shipped policies that have no Japanese (other games' English guides, their levels): data, as
    a Japanese judge sees them in the policy menus."""
    import yaml

    from tests.conftest import CATALOG

    def strings(node) -> list[str]:
        if isinstance(node, dict):
            return [s for v in node.values() for s in strings(v)]
        if isinstance(node, list):
            return [s for v in node for s in strings(v)]
        return [" ".join(node.split())] if isinstance(node, str) else []

    policies = yaml.safe_load(Path(CATALOG).read_text(encoding="utf-8"))["policies"]
    return {s for p in policies.values() if "names" not in p for s in strings(p)}


OTHER_POLICIES = _english_only_policies()


class Visible(HTMLParser):
    """The text a browser shows (not scripts, styles or templates) and the attributes it reads out."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.words: list[str] = []
        self.links: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("script", "style", "template", "noscript"):
            self.hidden += 1
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        if tag == "wbr":  # a place a long link may wrap: the same word goes on
            return
        if tag != "input" or a.get("type") not in ("submit", "button"):
            a.pop("value", None)  # a typed value (or a button's or option's) is data; an input button's is its label
        self.words.append(" ")
        for name in SHOWN_ATTRIBUTES:
            if a.get(name):
                self.words.append(a[name])
        self.words.append(" ")

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template", "noscript"):
            self.hidden -= 1
        self.words.append(" ")

    def handle_data(self, data):
        if not self.hidden:
            self.words[-1:] = [(self.words[-1] if self.words else "") + data]


def english_words(text: str, data: set[str]) -> list[str]:
    data = data | NAMES | OTHER_POLICIES
    text = re.sub(r"\S+@\S+", " ", text)  # e-mail addresses
    text = re.sub(r"https?://\S+", " ", text)
    text = re.sub(r"\bDQ-\d+-\d+", " ", text)  # a disqualification report's number
    for value in sorted(data, key=len, reverse=True):
        text = text.replace(value, " ")
    return [w for w in re.findall(r"[A-Za-z][A-Za-z'’-]+", text) if w not in ALLOWED]


def walk(client, start: str, data: set[str], limit: int = 80) -> dict[str, list[str]]:
    seen, queue, found = set(), [start], {}
    while queue and len(seen) < limit:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        response = client.get(url)
        if response.status_code != 200 or response.mimetype != "text/html":
            continue
        page = Visible()
        page.feed(response.get_data(as_text=True))
        words = [w for chunk in page.words for w in english_words(chunk, data)]
        if words:
            found[url] = sorted(set(words))
        for href in page.links:
            target = urlparse(urljoin(url, href))
            if target.netloc or not target.path.startswith(("/events", "/reference", "/account", "/appeals", "/calls")):
                continue
            link = target.path + (f"?{target.query}" if target.query else "")
            if not any(s in link for s in SKIP) and link not in seen:
                queue.append(link)
    return found


def japanese_event(app, floor):
    """The floor fixture's event made Japanese: its language, its people's accounts and names, its players."""
    from judgeapp.models import Player

    names = {"P-001": ("森 愛子", "もり あいこ"), "P-002": ("大野 勉", "おおの つとむ"), "P-003": ("陳 雨", "ちん う")}
    with app.app_context():
        db.session.execute(
            update(Event)
            .where(Event.id == floor["event_id"])
            .values(language="ja", name="ブシロード地区予選", venue="ホールＡ")
        )
        db.session.execute(update(User).values(locale="ja", name="ジャッジ"))
        for code, (name, reading) in names.items():
            db.session.execute(update(Player).where(Player.player_code == code).values(name=name, reading=reading))
        db.session.execute(update(Player).where(Player.player_code == "P-004").values(name="ロイ ダナ"))
        db.session.commit()


def test_every_page_of_a_japanese_event_reads_in_japanese_for_a_japanese_head_judge(app, floor):
    japanese_event(app, floor)
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    log(judge, floor["event_id"], player="P-001", infraction="3.5.2", penalty="warning", description="捨て忘れ")
    log(judge, floor["event_id"], player="P-001", infraction="3.5.3.2", penalty="loss_of_game", description="再違反")
    log(judge, floor["event_id"], player="P-004", infraction="3.8.3", penalty="disqualification", description="威嚇")
    head = signed_in(app, floor["people"]["head_judge"][1])
    data = {"P-001", "P-002", "P-003", "P-004", "Blue Lions"}
    found = walk(head, f"/events/{floor['event_id']}", data)
    assert not found, "English left on Japanese pages:\n" + "\n".join(f"{u}: {w}" for u, w in found.items())


def test_the_organizers_pages_of_a_japanese_event_read_in_japanese(app, floor):
    japanese_event(app, floor)
    organizer = signed_in(app, floor["organizer"][1])
    found = walk(organizer, f"/events/{floor['event_id']}", {"P-001", "P-002", "P-003", "P-004", "Blue Lions"})
    found.update(walk(organizer, "/events/", set(), limit=5))
    assert not found, "English left on Japanese pages:\n" + "\n".join(f"{u}: {w}" for u, w in found.items())
