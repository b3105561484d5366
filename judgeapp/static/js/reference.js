// Quick reference: the finder as the judge types, without a page reload: search.js `rank` over the policy's finder
// file (the list's data-finder: the incident form's file, one per policy version, cached for a year and kept by the
// service worker for offline use; the incident form's picker searches the same, in the same order; the server's `?q=`
// too: judgeapp/reference/services.py), best first; the rest hidden. An empty search lists every infraction in the
// policy's order.
import { ngettext } from "./i18n.js";
import { fold, NAME, rank } from "./search.js";

// What the page shows for a search, best first: a code typed lists the codes it is or starts, not the texts that
// merely mention it (as the picker). null: everything, in the policy's order.
export function foundCodes(entries, query) {
  if (!String(query || "").trim()) return null;
  var hits = rank(entries, query);
  var byCode = function (h) { return h.kind === "code" || h.kind === "code-prefix"; };
  if (hits.some(byCode)) hits = hits.filter(byCode);
  return hits.map(function (h) { return h.code; });
}

function filterAsTyped() {
  var input = document.getElementById("q");
  var list = document.getElementById("infractions");
  var count = document.getElementById("count");
  var form = input && input.form;
  if (!input || !list) return;
  var items = {};
  Array.prototype.forEach.call(list.querySelectorAll(".infraction"), function (item) { items[item.dataset.code] = item; });
  // Until the finder file is here (a moment online; at once from the phone's cache offline) the names the page lists
  // are searched; then what was typed is searched again, as if typed now.
  var entries = Array.prototype.map.call(list.querySelectorAll(".infraction"), function (item) {
    return { code: item.dataset.code, fields: [[NAME, fold(item.querySelector(".name").textContent)]] };
  });
  var total = entries.length;
  if (list.dataset.finder) {
    fetch(list.dataset.finder, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (found) {
        if (!Array.isArray(found) || !found.length) return;
        entries = found.filter(function (e) { return items[e.code]; });
        list.dataset.finderLoaded = "1";
        if (input.value.trim()) filter();
      })
      .catch(function () {});
  }

  function filter() {
    var q = input.value.trim();
    var codes = foundCodes(entries, q), shown = codes ? codes : entries.map(function (e) { return e.code; });
    var first = {};
    shown.forEach(function (code) { first[code] = true; });
    // best first, then the rest (hidden) in the policy's order: appendChild moves each to the end, in turn
    shown.concat(entries.map(function (e) { return e.code; }).filter(function (c) { return !first[c]; }))
      .forEach(function (code) {
        var item = items[code];
        if (!item) return;
        item.hidden = !first[code];
        list.appendChild(item);
      });
    count.textContent = ngettext("%(shown)s of %(num)s infraction", "%(shown)s of %(num)s infractions", total,
                                 { shown: shown.length });
    var url = new URL(window.location.href);
    if (q) { url.searchParams.set("q", input.value); } else { url.searchParams.delete("q"); }
    window.history.replaceState(null, "", url);
  }

  input.addEventListener("input", filter);
  form.addEventListener("submit", function (e) { e.preventDefault(); filter(); });
  var level = document.getElementById("level");
  level.addEventListener("change", function () { form.submit(); });
  var policy = document.getElementById("policy-select");
  if (policy) {
    policy.addEventListener("change", function () {
      window.location.href = policy.dataset.nav + encodeURIComponent(policy.value);
    });
  }
}

filterAsTyped();
