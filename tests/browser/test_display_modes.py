"""How a judge's phone is set up to show text, in real Chromium at 390x844: high contrast (the phone's setting or the
header's switch), forced colours (Windows high contrast), and the phone's text size."""

import re
from pathlib import Path

import pytest

from tests.browser.conftest import ARTIFACTS, PHONE, log_in, shot

pytestmark = pytest.mark.browser

STATIC = Path(__file__).resolve().parents[2] / "judgeapp" / "static"

# WCAG's contrast ratio (relative luminance) in the page, and the background an element is drawn on: the nearest
# ancestor with an opaque background colour.
COLOURS = """
  const rgb = c => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = c => {
    const [r, g, b] = rgb(c).slice(0, 3).map(v => v / 255)
      .map(v => v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return Math.round((x + 0.05) / (y + 0.05) * 100) / 100;
  };
  const background = el => {
    for (; el; el = el.parentElement) { const c = getComputedStyle(el).backgroundColor; if (rgb(c)[3] !== 0) return c; }
    return 'rgb(255, 255, 255)';
  };
  const name = el => `${el.tagName.toLowerCase()}.${String(el.className).split(' ').join('.')} `
                     + `"${(el.innerText || el.value || el.name || '').trim().slice(0, 25)}"`;
"""

# Each visible element's own text against its background; disabled controls are exempt, as in WCAG.
TEXT_CONTRAST = f"""() => {{ {COLOURS}
  return [...document.body.querySelectorAll('*')]
    .filter(el => ([...el.childNodes].some(n => n.nodeType === 3 && n.data.trim()) || el.matches('input[type=submit]'))
                  && el.checkVisibility() && !el.closest('.sr-only') && !el.matches(':disabled'))
    .map(el => {{ const color = getComputedStyle(el).color, bg = background(el);
                 return {{what: name(el), ratio: ratio(color, bg), color, background: bg}}; }});
}}"""

# The border of every control (fields, buttons, chips, segmented choices, the event's menu) against what surrounds it.
CONTROL_BORDERS = f"""() => {{ {COLOURS}
  const controls = 'input:not([type=hidden]):not([type=radio]):not([type=checkbox]), select, textarea, .button, .chip, '
                   + '.seg, .subnav a';
  return [...document.querySelectorAll(controls)].filter(el => el.checkVisibility()).map(el => {{
    const s = getComputedStyle(el);
    return {{what: name(el), width: parseFloat(s.borderTopWidth), style: s.borderTopStyle,
             ratio: ratio(s.borderTopColor, background(el.parentElement))}};
  }});
}}"""


def contrast_problems(page, where: str) -> list[str]:
    """Text under 7:1 (WCAG's AAA level), and control borders missing or under 7:1."""
    problems = [
        f"{where}: {t['what']} {t['ratio']}:1 ({t['color']} on {t['background']})"
        for t in page.evaluate(TEXT_CONTRAST)
        if t["ratio"] < 7
    ]
    for b in page.evaluate(CONTROL_BORDERS):
        if b["style"] == "none" or b["width"] < 1 or b["ratio"] < 7:
            problems.append(f"{where}: border of {b['what']}: {b['style']} {b['width']}px, {b['ratio']}:1")
    return problems


def fill_incident_form_for_an_upgrade(page):
    """Table 3's player with a warning for 3.5.2 (the demo's sample case) and another 3.5 infraction: the table's
    players as chips, the chosen one on, and the suggestion with its upgrade line."""
    page.get_by_label("Table").fill("3")
    page.locator("#table-players .chip", has_text="DEMO-005").click()
    page.get_by_placeholder("Search by code or words").press_sequentially("3.5.3.2", delay=10)
    page.locator("#suggestion.upgraded").wait_for()


KEY_SCREENS = ["/events/1", "/events/1/appeals", "/events/1/players/5", "/events/1/incidents/2"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_high_contrast_follows_the_phone_setting_with_text_at_least_7_to_1_and_control_borders_as_strong(
    browser, live_server_with_cases, scheme
):
    base = live_server_with_cases
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, color_scheme=scheme, contrast="more"
    )
    page = context.new_page()
    log_in(page, base, "head@demo.test")
    problems = []
    page.goto(f"{base}/events/1/incidents/new")
    fill_incident_form_for_an_upgrade(page)
    problems += contrast_problems(page, "incident form")
    shot(page, f"60-high-contrast-{scheme}-incident-form")
    for path in KEY_SCREENS:
        page.goto(base + path)
        problems += contrast_problems(page, path)
    shot(page, f"61-high-contrast-{scheme}-incident")
    page.goto(f"{base}/events/1/appeals")
    shot(page, f"62-high-contrast-{scheme}-appeals")
    context.close()
    assert not problems, "\n".join(problems)


def test_the_header_switch_turns_high_contrast_on_and_this_phone_keeps_it(browser, live_server_with_cases):
    base = live_server_with_cases
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    log_in(page, base, "head@demo.test")
    page.goto(f"{base}/events/1")
    switch = page.locator("#theme-toggle")
    box = switch.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    assert page.evaluate("document.documentElement.dataset.contrast") is None
    seen = [switch.get_attribute("aria-label")]
    while "high contrast, light" not in seen[-1]:
        switch.click()
        seen.append(switch.get_attribute("aria-label"))
        assert len(seen) <= 5, seen
    assert seen == [
        "Theme: auto (tap to change)",
        "Theme: dark (tap to change)",
        "Theme: light (tap to change)",
        "Theme: high contrast, light (tap to change)",
    ]
    page.reload()  # kept on this phone
    assert page.evaluate("[document.documentElement.dataset.theme, document.documentElement.dataset.contrast]") == [
        "light",
        "more",
    ]
    problems = contrast_problems(page, "event page, switched to high contrast")
    page.goto(f"{base}/events/1/incidents/new")
    fill_incident_form_for_an_upgrade(page)
    problems += contrast_problems(page, "incident form, switched to high contrast")
    shot(page, "63-high-contrast-switched-incident-form")
    switch.click()
    assert switch.get_attribute("aria-label") == "Theme: high contrast, dark (tap to change)"
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    problems += contrast_problems(page, "incident form, switched to high contrast dark")
    switch.click()  # back to the phone's own settings
    assert switch.get_attribute("aria-label") == "Theme: auto (tap to change)"
    assert page.evaluate("[document.documentElement.dataset.theme, document.documentElement.dataset.contrast]") == [
        None,
        None,
    ]
    context.close()
    assert not problems, "\n".join(problems)


# Each element that shows something by its colour: in forced colours it needs a border or an outline that is not the
# canvas colour, or a background of its own (a chosen chip in Highlight).
FORCED_VISIBLE = f"""selector => {{ {COLOURS}
  const canvas = getComputedStyle(document.body).backgroundColor;
  const shows = c => c !== canvas && c !== 'transparent' && rgb(c)[3] !== 0;
  return [...document.querySelectorAll(selector)].filter(el => el.checkVisibility()).map(el => {{
    const s = getComputedStyle(el);
    const border = ['Top', 'Right', 'Bottom', 'Left'].some(side => s[`border${{side}}Style`] !== 'none'
                     && parseFloat(s[`border${{side}}Width`]) >= 1 && shows(s[`border${{side}}Color`]));
    const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 1 && shows(s.outlineColor);
    return {{what: name(el), visible: border || outline || shows(s.backgroundColor),
             border: `${{s.borderTopStyle}} ${{s.borderTopColor}}`, background: s.backgroundColor}};
  }});
}}"""
MARKED = {  # what each screen must show, each kind at least once
    "incident form": [
        ".chip",
        ".chip.on",
        ".seg",
        ".seg:has(input:checked)",
        ".button",
        ".suggestion",
        ".suggestion .upgrade",
    ],
    "/events/1": [".subnav a", ".count", ".button", ".button.primary"],
    "/events/1/appeals": [".count", ".row-link.pending", ".subnav a"],
    "/events/1/players/5": [".upgrade-marker", ".badge"],
    "/events/1/incidents/2": [".badge", ".button", ".flash, .note, .card"],
}


def test_forced_colors_keep_every_chip_badge_count_control_status_box_and_focus_ring_visible(
    browser, live_server_with_cases
):
    base = live_server_with_cases
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, forced_colors="active"
    )
    page = context.new_page()
    log_in(page, base, "head@demo.test")
    assert page.evaluate("matchMedia('(forced-colors: active)').matches")
    problems = []

    def check(where):
        for selector in MARKED[where]:
            found = page.evaluate(FORCED_VISIBLE, selector)
            if not found:
                problems.append(f"{where}: nothing matches {selector}")
            problems.extend(
                f"{where}: {f['what']} ({selector}) shows only by colour: border {f['border']}, "
                f"background {f['background']}"
                for f in found
                if not f["visible"]
            )

    page.goto(f"{base}/events/1/incidents/new")
    fill_incident_form_for_an_upgrade(page)
    check("incident form")
    shot(page, "70-forced-colors-incident-form")
    page.get_by_label("Table").focus()
    page.keyboard.press("Tab")  # the keyboard's focus ring, on the first chip
    ring = page.evaluate("""() => { const s = getComputedStyle(document.activeElement);
        return [document.activeElement.className, s.outlineStyle, parseFloat(s.outlineWidth), s.outlineColor,
                getComputedStyle(document.body).backgroundColor]; }""")
    assert ring[1] != "none" and ring[2] >= 2 and ring[3] != ring[4], ring
    for path, name in [
        ("/events/1", "event"),
        ("/events/1/appeals", "appeals"),
        ("/events/1/players/5", "player"),
        ("/events/1/incidents/2", "incident"),
    ]:
        page.goto(base + path)
        check(path)
        shot(page, f"7{1 + list(MARKED).index(path)}-forced-colors-{name}")
    context.close()
    assert not problems, "\n".join(problems)


def body_font_size(page) -> float:
    return float(page.evaluate("getComputedStyle(document.body).fontSize").removesuffix("px"))


def test_text_grows_with_the_phones_font_size_setting(browser, live_server_with_cases):
    """The phone's text size is the browser's default font size (Chromium: the standard font size, set here through
    the DevTools protocol). The app's text is rem-based on a root of 106.25 %: 17 px at the default 16 px, 25.5 px at
    24 px; headings grow with it, the narrow layout (22rem) takes over and no page scrolls sideways."""
    base = live_server_with_cases
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    log_in(page, base, "head@demo.test")
    page.goto(f"{base}/events/1")
    assert body_font_size(page) == 17
    cdp = context.new_cdp_session(page)
    cdp.send("Page.enable")
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 24, "fixed": 20}})
    screens = [
        ("/events/1", "80-font-size-24-event"),
        ("/events/1/incidents/new", "81-font-size-24-incident-form"),
        ("/events/1/appeals/1", "82-font-size-24-appeal"),
        ("/reference/bushiroad-afr", "83-font-size-24-reference"),
    ]
    for path, name in screens:
        page.goto(base + path)
        assert body_font_size(page) == 25.5, path
        h1 = float(page.evaluate("getComputedStyle(document.querySelector('h1')).fontSize").removesuffix("px"))
        assert h1 > 25.5, path
        assert page.evaluate("document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth"), path
        # the screen as the judge sees it (a full-page screenshot would reset the font size it measures)
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
    context.close()


def test_stylesheets_size_text_in_rem_em_or_percent_never_in_pixels():
    for css in ("app.css", "call.css"):
        text = re.sub(r"/\*.*?\*/", "", (STATIC / css).read_text(), flags=re.S)
        sizes = re.findall(r"font(?:-size)?\s*:[^;}]*", text)
        assert sizes, css
        assert not [s for s in sizes if re.search(r"\d(px|pt)\b", s)], css
