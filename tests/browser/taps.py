"""The floor judge's walk, counted: every tap and every key of a first incident logged from the judge's own words and
of a repeat of it, on the demo event at 390x844. tests/browser/test_picker.py asserts the counts (issue 33: a first
incident in at most 7 taps and 20 keys, a repeat in at most 5 taps); bench/taps.py runs the same walk and prints them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# The phrase a judge says at the table, and the infraction the finder (search.js `rank`) puts first for it.
PHRASE = "drew extra card"
EXPECTED = "3.5.4"


@dataclass
class Counted:
    """What the judge did: taps and keys, each step named, in order."""

    page: object
    taps: int = 0
    keys: int = 0
    steps: list[str] = field(default_factory=list)

    def tap(self, locator, what: str) -> None:
        locator.click()
        self.taps += 1
        self.steps.append(f"tap: {what}")

    def type(self, locator, text: str, what: str) -> None:
        locator.press_sequentially(text, delay=10)
        self.keys += len(text)
        self.steps.append(f"type {text!r} ({len(text)} keys): {what}")


def first_incident(page, base: str, phrase: str = PHRASE, code: str = EXPECTED) -> Counted:
    """From the event page: New incident, the table, its first player's button, the phrase, the top row, Save."""
    walk = Counted(page)
    page.goto(f"{base}/events/1")
    walk.tap(page.get_by_role("link", name="New incident"), "New incident")
    table = page.get_by_label("Table")
    walk.tap(table, "the Table field")
    walk.type(table, "1", "the table number")
    walk.tap(page.locator("#table-players .chip").first, "the player's button")
    search = page.locator("#infraction-search")
    walk.tap(search, "the infraction search")
    walk.type(search, phrase, "the judge's words")
    top = page.locator("#picker-rows .pick").first
    top.wait_for()
    assert top.get_attribute("data-code") == code, top.inner_text()
    walk.tap(top, f"the top row ({code})")
    page.locator("#suggestion .chosen").wait_for()
    walk.tap(page.get_by_role("button", name="Save incident"), "Save")
    page.locator(".confirm").get_by_text("Saved: incident #").wait_for()
    return walk


def repeat_incident(page, code: str = EXPECTED) -> Counted:
    """From the confirmation of a save: Another incident (it keeps the table), the other player's button, the
    infraction among the event's most used (no typing), Save."""
    walk = Counted(page)
    walk.tap(page.get_by_role("link", name="Another incident"), "Another incident")
    walk.tap(page.locator("#table-players .chip").nth(1), "the other player's button")
    row = page.locator(f"#picker-rows .pick[data-code='{code}']")
    walk.tap(row, f"{code} among the most used")
    page.locator("#suggestion .chosen").wait_for()
    walk.tap(page.get_by_role("button", name="Save incident"), "Save")
    page.locator(".confirm").get_by_text("Saved: incident #").wait_for()
    return walk
