// Live time on the floor forms: the deck check's "so far" counts on its own, and the extension form shows the minutes
// the policy owes before it is saved. The arithmetic is owed.js's (the server's, in JavaScript).
import { _ } from "./i18n.js";
import { betweenMs, clockText, owedText } from "./owed.js";

var rules = JSON.parse((document.getElementById("time-rules") || {}).textContent || "{}");

var running = document.getElementById("running");
if (running && running.dataset.start) {
  var start = Date.parse(running.dataset.start);
  var tickCheck = function () {
    var ms = Date.now() - start;
    running.textContent = _("So far %(time)s", { time: clockText(ms) }) + " · " + owedText(rules.deck_check, ms);
  };
  tickCheck();
  setInterval(tickCheck, 1000);
}

var preview = document.getElementById("owed-preview");
if (preview) {
  var form = preview.closest("form");
  var field = function (name) { return form.elements[name]; };
  var show = function () {
    var ms = betweenMs(field("paused_from").value, field("paused_to").value);
    var typed = parseFloat((field("taken_minutes").value || "").replace(",", "."));
    if (ms === null && typed >= 0) ms = typed * 60000;
    preview.hidden = ms === null;
    if (ms !== null) {
      preview.textContent = _("Stopped %(time)s: %(owed)s", { time: clockText(ms), owed: owedText(rules[field("reason").value], ms) });
    }
  };
  ["paused_from", "paused_to", "taken_minutes", "reason"].forEach(function (name) {
    field(name).addEventListener("input", show);
    field(name).addEventListener("change", show);
  });
  show();
}
