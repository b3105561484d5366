"""Taps and keys of the floor judge's minute (issue 33): a first incident logged from the judge's own words, and a
repeat of it, on the demo event in Debian's Chromium at 390x844.

The walk is tests/browser/taps.py's, the one tests/browser/test_picker.py asserts: from the event page, New incident,
the Table field and its number, the player's button, the infraction search and the phrase ("drew extra card"), the
top row the finder ranks, Save; then the repeat from the confirmation: Another incident (it keeps the table), the
other player's button, the infraction among the event's most used, Save. Goals: a first incident in at most 7 taps
and 20 keys, a repeat in at most 5 taps. Counts, not times: there is no baseline to take a ratio against.

Run: .venv/bin/python bench/taps.py (or make bench)
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.results import emit
from tests.browser.conftest import CHROMIUM, PHONE, _serve, log_in
from tests.browser.taps import EXPECTED, PHRASE, first_incident, repeat_incident


def main() -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        serving = _serve(Path(tmp))
        base = next(serving)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--disable-quic"]
                )
                context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
                page = context.new_page()
                log_in(page, base)
                first = first_incident(page, base)
                repeat = repeat_incident(page)
                context.close()
                browser.close()
        finally:
            next(serving, None)

    for name, walk in [(f"first incident from “{PHRASE}” ({EXPECTED})", first), ("repeat of it", repeat)]:
        print(f"{name}: {walk.taps} taps, {walk.keys} keys")
        for step in walk.steps:
            print(f"  {step}")
    emit("taps", f"first incident from “{PHRASE}”: taps", first.taps, "taps", goal="≤ 7", met=first.taps <= 7)
    emit("taps", f"first incident from “{PHRASE}”: keys", first.keys, "keys", goal="≤ 20", met=first.keys <= 20)
    emit("taps", "repeat incident (most used, no typing): taps", repeat.taps, "taps", goal="≤ 5", met=repeat.taps <= 5)
    emit("taps", "repeat incident: keys", repeat.keys, "keys")


if __name__ == "__main__":
    main()
