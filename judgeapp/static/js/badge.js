import { _, ngettext } from "./i18n.js";

// The header's live badges (appeals waiting for the head judge, judge calls waiting): refreshed every few seconds, so a
// new appeal or call shows on every page without a reload. Each badge names its JSON address and how to read it out.
// The calls badge's answer also lists the calls handed to a head judge: their banners follow it without a reload.
function handedBanner(c) {
  var p = document.createElement("p");
  p.className = "flash flash-info call-handed"; p.setAttribute("role", "status");
  var span = document.createElement("span"), strong = document.createElement("strong");
  strong.textContent = _("Judge call at table %(table)s handed to you", { table: c.table });
  span.appendChild(strong);
  span.appendChild(document.createTextNode(" " + _("by %(name)s at %(time)s.", { name: c.by, time: c.at })));
  var go = document.createElement("a");
  go.className = "button"; go.href = c.url; go.textContent = _("Go to the call");
  p.appendChild(span); p.appendChild(document.createTextNode(" ")); p.appendChild(go);
  return p;
}

// Something the judge's pages show changed at the event (another judge logged, decided, ended a round): the pages the
// service worker keeps are no longer taken as current, so the next page opened comes from the server.
export function notCurrent() {
  var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
  if (worker) worker.postMessage({ type: "not-current" });
}

// What a badge's count is read out as: a whole sentence per badge, in the plural its count needs (as base.html's).
var SAY = {
  "calls-badge": function (n) { return ngettext("%(num)s judge call waiting", "%(num)s judge calls waiting", n); },
  "appeals-badge": function (n) {
    return ngettext("%(num)s appeal waiting for you", "%(num)s appeals waiting for you", n);
  }
};
function readOut(link, n) { return SAY[link.id] ? SAY[link.id](n) : String(n); }

function keepBadgeFresh(link) {
  var count = link.querySelector(".count"), handed = document.getElementById("calls-handed"), shown = null;
  var changed = null;
  // The count cannot be known (no network: the page is the phone's copy, its count as it was): "unknown", not 0.
  function unknown() {
    count.textContent = _("unknown");
    count.classList.remove("zero"); count.classList.add("unknown");
    count.setAttribute("aria-label", _("Not known: no network"));
  }
  if (!navigator.onLine) unknown();
  function refresh() {
    fetch(link.dataset.url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (body) {
        if (changed !== null && body.changed !== changed) notCurrent();
        changed = body.changed;
        count.textContent = String(body.count);
        count.classList.toggle("zero", !body.count); count.classList.remove("unknown");
        count.setAttribute("aria-label", readOut(link, body.count));
        if (!handed || !Array.isArray(body.handed)) return;
        var now = JSON.stringify(body.handed);
        if (shown === null) { try { shown = JSON.stringify(JSON.parse(handed.dataset.shown || "[]")); } catch (e) { shown = ""; } }
        if (now === shown) return;  // unchanged: the banners (and a button in them) stay as they are
        shown = now;
        handed.textContent = "";
        body.handed.forEach(function (c) { handed.appendChild(handedBanner(c)); });
      })
      .catch(unknown);
  }
  setInterval(refresh, parseInt(link.dataset.every, 10) || 4000);
}

document.querySelectorAll("a[data-badge]").forEach(keepBadgeFresh);
