// Light or dark, normal or high contrast: the phone's own settings (prefers-color-scheme in app.css; prefers-contrast
// here), unless the judge chose otherwise with the header's button; the choice is kept on this phone (localStorage) and
// set as <html data-theme> (light or dark) and <html data-contrast="more"> (high contrast: 7:1 text, borders in the
// text colour). The high-contrast palette is written once in app.css, under data-contrast="more": this module sets it
// for the phone's setting too, and again when that setting changes.
// The theme is set at once; the button's words come in the page's language once its catalog is there (i18n.js,
// imported afterwards so that waiting for it never shows the page in the wrong theme first).
var KEY = "judgeapp-theme", ORDER = ["auto", "dark", "light", "contrast-light", "contrast-dark"];
var MARK = { auto: "◐", dark: "●", light: "○", "contrast-light": "□", "contrast-dark": "■" };
var MORE = window.matchMedia ? window.matchMedia("(prefers-contrast: more)") : null;  // the phone's setting

function chosen() {
  var theme;
  try { theme = localStorage.getItem(KEY); } catch (e) {}
  return ORDER.indexOf(theme) !== -1 ? theme : "auto";
}
function apply(theme) {
  var root = document.documentElement, scheme = theme.replace("contrast-", "");
  if (scheme === "auto") root.removeAttribute("data-theme");
  else root.setAttribute("data-theme", scheme);
  if (theme.indexOf("contrast-") === 0 || (MORE && MORE.matches)) root.setAttribute("data-contrast", "more");
  else root.removeAttribute("data-contrast");  // a theme chosen without high contrast still follows the phone's setting
}

apply(chosen());
if (MORE && MORE.addEventListener) MORE.addEventListener("change", function () { apply(chosen()); });
var button = document.getElementById("theme-toggle");
if (button) import("./i18n.js").then(function (i18n) {
  var _ = i18n._;
  var LABEL = { auto: _("Theme: auto"), dark: _("Theme: dark"), light: _("Theme: light"),
                "contrast-light": _("Theme: high contrast, light"), "contrast-dark": _("Theme: high contrast, dark") };
  var show = function () {  // one short mark in the header; what it does, read out and on hover
    button.textContent = MARK[chosen()];
    button.setAttribute("aria-label", _("%(theme)s (tap to change)", { theme: LABEL[chosen()] }));
    button.title = LABEL[chosen()];
  };
  button.hidden = false;
  show();
  button.addEventListener("click", function () {
    var next = ORDER[(ORDER.indexOf(chosen()) + 1) % ORDER.length];
    try { localStorage.setItem(KEY, next); } catch (e) {}
    apply(next);
    show();
  });
});
