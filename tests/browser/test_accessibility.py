"""Every page at 390x844 passes axe-core's WCAG 2.1 A/AA rules, and every tap target is at least 44x44 CSS pixels.

axe-core comes from the pinned `axe-playwright-python` wheel (its bundled axe.min.js) and is injected by the test:
nothing is fetched from a CDN. The context bypasses the app's CSP only so that the injected script may run.
"""

import json
from importlib import resources

import pytest

from tests.browser.conftest import ARTIFACTS, DEMO_PASSWORD, PHONE, shot

pytestmark = pytest.mark.browser

AXE = (resources.files("axe_playwright_python") / "axe.min.js").read_text()
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
TAP_TARGETS = """() => {
  const small = [];
  for (const el of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;  // not shown
    let box = r;
    const label = (el.id && document.querySelector(`label[for="${el.id}"]`)) || el.closest('label');
    // the label is what a thumb taps
    if ((el.type === 'radio' || el.type === 'checkbox') && label) box = label.getBoundingClientRect();
    if (box.width < 44 - 0.5 || box.height < 44 - 0.5)
      small.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''} `
                 + `"${(el.innerText || el.value || el.name || '').trim().slice(0, 30)}" `
                 + `${Math.round(box.width)}x${Math.round(box.height)}`);
  }
  return small;
}"""

PAGES = {
    None: ["/login", "/statement/not-a-real-token"],
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
        "/events/999",
    ],
    "organizer@demo.test": [
        "/events/new",
        "/events/1/settings",
        "/events/1/staff",
        "/events/1/close",
        "/events/1/calls/links",
        "/players/history?code=DEMO-003",
        "/events/1/pairings",
    ],
}

SHOTS = {
    "/events/1/incidents/1": "40-a11y-incident-links",
    "/events/1/appeals/1": "41-a11y-appeal-choices",
    "/events/1/report": "42-a11y-report-scroll-region",
}


def a_call_from_table_12(server) -> list[str]:
    """A player's call waiting at table 12 (the queue and the call page have something to show); the player's page of
    table 12 (queued) and of table 13 (the form)."""
    from judgeapp.calls import services
    from judgeapp.extensions import db
    from judgeapp.models import Event

    with server.app.app_context():
        event = db.session.get(Event, 1)
        services.raise_call(db.session, event=event, table=12, reason="rules_question", note="Does it resolve?")
        key = services.call_key_of(db.session, event, event.organizer)
        db.session.commit()
        return [f"/call/1/{table}/{services.signature(key, 1, table)}" for table in (12, 13)]


@pytest.mark.parametrize("scheme", ["light", "dark"])  # the phone's setting: the dark theme must read as well
def test_every_page_passes_wcag_21_aa_and_has_tap_targets_of_at_least_44_pixels(
    browser, live_server_with_cases, scheme
):
    base = live_server_with_cases
    problems, checked = [], 0
    pages = {**PAGES, None: [*PAGES[None], *a_call_from_table_12(base), "/call/1/13/not-its-signature"]}
    for account, paths in pages.items():
        context = browser.new_context(
            viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True, bypass_csp=True, color_scheme=scheme
        )
        page = context.new_page()
        if account:
            page.goto(f"{base}/login")
            page.get_by_label("Email").fill(account)
            page.get_by_label("Password").fill(DEMO_PASSWORD)
            page.get_by_role("button", name="Log in").click()
            page.wait_for_url(f"{base}/")
        for path in paths:
            page.goto(base + path)
            page.wait_for_load_state("networkidle")
            page.evaluate(AXE)
            result = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})", WCAG_21_AA)
            for v in result["violations"]:
                targets = ", ".join(" ".join(n["target"]) for n in v["nodes"][:4])
                problems.append(f"{path}: {v['id']} ({v['impact']}): {v['help']} [{targets}]")
            problems.extend(f"{path}: tap target {t}" for t in page.evaluate(TAP_TARGETS))
            if path in SHOTS:
                shot(page, SHOTS[path] + ("-dark" if scheme == "dark" else ""))
            checked += 1
        context.close()
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"accessibility-{scheme}.json").write_text(json.dumps(problems, indent=1, ensure_ascii=False))
    assert checked == sum(len(p) for p in pages.values())
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
