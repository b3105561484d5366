"""Every judge screen at 390x844 passes axe-core's WCAG 2.2 A/AA rules in light, dark and high contrast (there also
the AAA 7:1 text contrast), and every tap target is at least 44x44 CSS pixels; at 200 % zoom (195 px wide) no
screen scrolls sideways and no word is broken mid-word.

axe-core comes from the pinned `axe-playwright-python` wheel (its bundled axe.min.js, 4.12, which knows WCAG 2.2's
`wcag22aa` tag) and is injected by the test: nothing is fetched from a CDN. The context bypasses the app's CSP only
so that the injected script may run. The screens are tests/browser/screens.py's list, served by one server per module.
"""

import json
from importlib import resources

import pytest

from tests.browser.conftest import ARTIFACTS, PHONE, shot
from tests.browser.screens import judge_screens, visit_every_screen

pytestmark = pytest.mark.browser

AXE = (resources.files("axe_playwright_python") / "axe.min.js").read_text()
WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
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

# The phone's settings each scan runs under: colour scheme and prefers-contrast. In high contrast axe-core also checks
# its AAA rule `color-contrast-enhanced` (7:1 for text, 4.5:1 for large text).
MODES = {
    "light": {"color_scheme": "light"},
    "dark": {"color_scheme": "dark"},
    "high-contrast": {"color_scheme": "light", "contrast": "more"},
    "high-contrast-dark": {"color_scheme": "dark", "contrast": "more"},
}

SHOTS = {
    "/events/1/incidents/1": "40-a11y-incident-links",
    "/events/1/appeals/1": "41-a11y-appeal-choices",
    "/events/1/report": "42-a11y-report-scroll-region",
    "/events/1/incidents/new": "43-a11y-incident-form",
}

ZOOM_200 = {"width": PHONE["width"] // 2, "height": PHONE["height"] // 2}  # 390x844 at 200 %: 195x422 CSS px
ZOOM_MODES = ["light", "dark"]
ZOOM_SHOTS = {
    "/events/1": "50-zoom200-event",
    "/events/1/incidents/new": "51-zoom200-incident-form",
    "/events/1/appeals/1": "52-zoom200-appeal",
    "/events/1/report": "53-zoom200-report",
    "/events/1/investigations/1": "54-zoom200-investigation",
}

# The page scrolls sideways: its width, and the elements reaching past the right edge outside a scroll container of
# their own (a wide report table scrolls inside `.scroll`, which is allowed).
SIDEWAYS = """() => {
  const root = document.scrollingElement, width = root.clientWidth;
  if (root.scrollWidth <= width) return null;
  const wide = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (el.getBoundingClientRect().right <= width + 0.5) continue;
    let inner = el.parentElement, clipped = false;
    for (; inner && inner !== document.body; inner = inner.parentElement)
      if (getComputedStyle(inner).overflowX !== 'visible') { clipped = true; break; }
    if (!clipped && ![...el.children].some(c => c.getBoundingClientRect().right > width + 0.5))
      wide.push(el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ').join('.') : '')
                + ' "' + (el.textContent || '').trim().slice(0, 30) + '"');
  }
  return `scrollWidth ${root.scrollWidth} > ${width}: ` + wide.slice(0, 5).join(', ');
}"""

# Controls whose label is cut off: a button (or <input type=submit>) clips what does not fit rather than widen the page.
CUT_OFF = """() => [...document.querySelectorAll(
    'button, input[type=submit], input[type=button], .button, .chip, .seg, summary, .subnav a, .topnav > *')]
  .filter(el => el.checkVisibility() && el.scrollWidth > el.clientWidth + 1)
  .map(el => `${el.tagName.toLowerCase()} "${(el.innerText || el.value || '').trim().slice(0, 30)}" `
             + `${el.scrollWidth} > ${el.clientWidth}`)"""

# Ordinary words (letters, apostrophes, hyphens between them; punctuation around them) laid out on two lines. A
# hyphenated word may wrap after its hyphen. Tokens with digits, '/', '@', '.' or '_' inside (links, emails, codes,
# player IDs) may wrap where they must, and so may CJK text, which breaks between any two characters. A link written
# out (.url-text: a table's call link, whose signature is 16 random letters that may hold no digit) is not words.
BROKEN_WORDS = """() => {
  const broken = [], cjk = /[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}]/u;
  const word = /^[^\\p{L}\\p{N}]*([\\p{L}\\p{M}'’-]+?)[^\\p{L}\\p{N}]*$/u;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {acceptNode: n =>
    n.parentElement.closest('script, style, template, .sr-only, .url-text') || !n.parentElement.checkVisibility()
      ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});  // not shown: a closed panel's content, a hidden row
  const range = document.createRange();
  for (let node; (node = walker.nextNode()); ) {
    for (const m of node.data.matchAll(/\\S+/g)) {
      const core = m[0].match(word);
      if (!core || cjk.test(m[0])) continue;
      let at = m.index + m[0].indexOf(core[1]);
      for (const part of core[1].split('-')) {
        if (part.length > 1) {
          range.setStart(node, at); range.setEnd(node, at + part.length);
          const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
          if (lines.size > 1) broken.push(`"${part}" in ${node.parentElement.tagName.toLowerCase()}`
                                          + (node.parentElement.className ? '.' + node.parentElement.className : ''));
        }
        at += part.length + 1;
      }
    }
  }
  return broken;
}"""


def suffix(mode: str) -> str:
    return "" if mode == "light" else f"-{mode}"


# The page follows the phone's new contrast setting: the media query answers it, and on a page with theme.js (every
# page with the header's theme button) the script's change listener has set or removed <html data-contrast="more">,
# which the high-contrast palette hangs on. The listener runs after the setting changes, not at once: checking the
# page before it ran found the light high-contrast page still in the normal palette.
# Every page that runs theme.js (the header's theme button, or the app bundle, which runs it on every page that loads
# it: the sign-in page and the statement page have no button) is waited for; a fresh run on 27 Nov checked /login and a
# statement page before the listener ran, in the normal palette.
SETTLED = """(more) => matchMedia('(prefers-contrast: more)').matches === more
  && (!(document.getElementById('theme-toggle')
        || document.querySelector('script[src*="/js/bundle/app.js"], script[src*="/js/theme.js"]'))
      || (document.documentElement.dataset.contrast === 'more') === more)"""


def check_in_mode(page, path: str, mode: str, found: dict) -> None:
    """The page as it is, in `mode`: axe-core and the tap targets at 390x844, then (light and dark) the same page at
    200 % zoom, resized to 195x422 in place rather than loaded again."""
    rules = {"color-contrast-enhanced": {"enabled": True}} if "contrast" in MODES[mode] else {}
    result = page.evaluate(
        "([tags, rules]) => axe.run(document, {runOnly: {type: 'tag', values: tags}, rules})", [WCAG_22_AA, rules]
    )
    for v in result["violations"]:
        targets = ", ".join(" ".join(n["target"]) for n in v["nodes"][:4])
        found["axe"].append(f"{path}: {v['id']} ({v['impact']}): {v['help']} [{targets}]")
    found["axe"].extend(f"{path}: tap target {t}" for t in page.evaluate(TAP_TARGETS))
    if path in SHOTS:
        shot(page, SHOTS[path] + suffix(mode))
    if mode in ZOOM_MODES:
        page.set_viewport_size(ZOOM_200)
        sideways = page.evaluate(SIDEWAYS)
        if sideways:
            found["zoom"].append(f"{path}: scrolls sideways, {sideways}")
        found["zoom"].extend(f"{path}: label cut off: {c}" for c in page.evaluate(CUT_OFF))
        found["zoom"].extend(f"{path}: word broken mid-word: {w}" for w in page.evaluate(BROKEN_WORDS))
        if path in ZOOM_SHOTS:
            shot(page, ZOOM_SHOTS[path] + suffix(mode))
        page.set_viewport_size(PHONE)
    found["checked"] += 1


def walk_every_screen(browser, server) -> dict[str, dict]:
    """Every judge screen loaded once and checked in every mode in turn: the phone's colour scheme and contrast are
    switched on the loaded page (page.emulate_media, as when a phone's setting changes: app.css's media queries and
    theme.js's prefers-contrast listener follow it), so each page is loaded, settled and given axe-core once rather
    than once per mode (loading 44 pages and injecting axe-core was over half of a mode's walk)."""
    found: dict[str, dict] = {mode: {"axe": [], "zoom": [], "checked": 0} for mode in MODES}
    options = {"viewport": PHONE, "device_scale_factor": 1, "is_mobile": True, "has_touch": True, "bypass_csp": True}
    for page, path in visit_every_screen(browser, server, **options):
        page.evaluate(AXE)
        for mode, media in MODES.items():
            more = "contrast" in media
            page.emulate_media(color_scheme=media["color_scheme"], contrast="more" if more else "no-preference")
            page.wait_for_function(SETTLED, arg=more)
            check_in_mode(page, path, mode, found[mode])
    ARTIFACTS.mkdir(exist_ok=True)
    for mode in MODES:
        for kind, name in (("axe", "accessibility"), ("zoom", "zoom200")):
            if kind == "axe" or mode in ZOOM_MODES:
                (ARTIFACTS / f"{name}-{mode}.json").write_text(
                    json.dumps(found[mode][kind], indent=1, ensure_ascii=False)
                )
    return found


@pytest.fixture(scope="module")
def screens_in(browser, screens_server):
    """What walking every judge screen found, by mode: the walk (every mode) done once for the tests of this module."""
    walked: dict[str, dict] = {}

    def of(mode: str) -> dict:
        if not walked:
            walked.update(walk_every_screen(browser, screens_server))
        assert walked[mode]["checked"] == sum(len(p) for p in judge_screens(screens_server).values())
        return walked[mode]

    return of


@pytest.mark.parametrize("mode", MODES)  # the phone's settings: every theme must read as well
def test_every_page_passes_wcag_22_aa_and_has_tap_targets_of_at_least_44_pixels(screens_in, mode):
    """WCAG 2.2 A/AA (target size 2.5.8 included) with no finding of any impact, in every mode; in high contrast,
    light and dark, also 7:1 text contrast (axe-core's AAA rule)."""
    problems = screens_in(mode)["axe"]
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


@pytest.mark.parametrize("scheme", ZOOM_MODES)
def test_at_200_percent_zoom_no_page_scrolls_sideways_and_no_word_is_broken_mid_word(screens_in, scheme):
    """WCAG 1.4.10 (reflow) on the phone zoomed to 200 %: 195 CSS px wide. A wide report table may scroll inside its
    own container, the page itself never does; no button's label is cut off; a word wraps whole, only a link or a code
    longer than the line wraps inside."""
    problems = screens_in(scheme)["zoom"]
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
