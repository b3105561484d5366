// Light or dark: the phone's own setting (prefers-color-scheme, in app.css), unless the judge chose one with the
// header's button; the choice is kept on this phone (localStorage) and set as <html data-theme>.
var KEY = "judgeapp-theme", ORDER = ["auto", "dark", "light"], LABEL = { auto: "Theme: auto", dark: "Theme: dark", light: "Theme: light" };

function chosen() { try { return localStorage.getItem(KEY) || "auto"; } catch (e) { return "auto"; } }
function apply(theme) {
  if (theme === "auto") document.documentElement.removeAttribute("data-theme");
  else document.documentElement.setAttribute("data-theme", theme);
}

apply(chosen());
var button = document.getElementById("theme-toggle");
if (button) {
  var show = function () {  // one short mark in the header; what it does, read out and on hover
    button.textContent = { auto: "◐", dark: "●", light: "○" }[chosen()];
    button.setAttribute("aria-label", LABEL[chosen()] + " (tap to change)");
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
}
