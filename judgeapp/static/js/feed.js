// Live lists (the head judge's feed, the appeals and the judge-call queues): refreshed every few seconds (the
// element's data-every, in ms; 4 s by default) without reloading the page.
// - The list is replaced only when what it shows changed (not the hidden token and key of its forms, new in every
//   answer; a form keeps the ones it has, which stay good): a button under the judge's finger stays there, and screen
//   readers hear only real changes. When it is replaced, the focus goes back to the same button or link.
// - Only the list's own answer goes into it (the server marks it: X-Judgeapp-Partial), never a sign-in page a
//   redirect leads to after signing out elsewhere, nor an error page.
// - When the list cannot be updated (no network, signed out, no longer on the event's staff, a server error), a note
//   above it says since when it is not up to date, and what to do; it goes once an update comes through.
import { notCurrent } from "./badge.js";
import { _ } from "./i18n.js";
import { venueClock } from "./outbox.js";

var PARTIAL = "X-Judgeapp-Partial";

// What the list shows: its markup without the hidden fields' values, nor what page.js marks on its forms.
function shownOf(root) {
  var copy = root.cloneNode(true);
  copy.querySelectorAll("input[type=hidden]").forEach(function (i) { i.removeAttribute("value"); });
  copy.querySelectorAll("form").forEach(function (f) { f.removeAttribute("data-keyed"); f.removeAttribute("data-sending"); });
  return copy.innerHTML.trim();
}

// What names a focused control in the list again after it is rebuilt: its form's address, or its link's.
function keyOf(el) {
  if (!el || !el.closest) return null;
  var form = el.closest("form");
  if (form && (el.tagName === "BUTTON" || el.tagName === "INPUT")) return "form " + form.getAttribute("action");
  if (el.tagName === "A") return "a " + el.getAttribute("href");
  return null;
}
function findKey(root, key) {
  var found = null;
  root.querySelectorAll("form, a").forEach(function (el) {
    if (found) return;
    if (el.tagName === "FORM" && key === "form " + el.getAttribute("action")) found = el.querySelector("button, [type=submit]");
    else if (el.tagName === "A" && key === "a " + el.getAttribute("href")) found = el;
  });
  return found;
}

function keepFeedFresh() {
  var feed = document.getElementById("feed");
  if (!feed) return;
  var tz = document.body.dataset.tz, updated = Date.now(), shown = shownOf(feed);
  var note = document.createElement("p");
  note.className = "flash flash-error feed-stale"; note.id = "feed-stale";
  note.setAttribute("role", "status"); note.hidden = true;
  feed.parentNode.insertBefore(note, feed);

  function stale(signedOut) {
    var since = { time: venueClock(updated, tz) };
    note.textContent = "";
    if (signedOut) {
      note.appendChild(document.createTextNode(
        _("Not updated since %(time)s: you are signed out, or no longer on this event's staff.", since) + " "));
      var again = document.createElement("a");
      again.href = "/login?next=" + encodeURIComponent(location.pathname);
      again.textContent = _("Sign in again");
      note.appendChild(again);
    } else {
      note.textContent = _("Not updated since %(time)s: check your connection. Trying again every few seconds.", since);
    }
    note.hidden = false;
  }

  function show(html) {
    var fresh = document.createElement("template");
    fresh.innerHTML = html;
    var box = document.createElement("div");
    box.appendChild(fresh.content);
    updated = Date.now();
    note.hidden = true;
    var now = shownOf(box);
    if (now === shown) return;  // nothing to see changed
    shown = now;
    notCurrent();  // the event changed: the pages the phone keeps are from before it
    var focused = feed.contains(document.activeElement) ? keyOf(document.activeElement) : null;
    feed.innerHTML = box.innerHTML;  // server-rendered, escaped by the template
    var again = focused && findKey(feed, focused);
    if (again) again.focus({ preventScroll: true });
  }

  function refresh() {
    fetch(feed.dataset.url, { credentials: "same-origin", redirect: "manual", headers: { Accept: "text/html" } })
      .then(function (r) {
        if (r.type === "opaqueredirect" || r.status === 401 || r.status === 403) { stale(true); return; }
        if (!r.ok || r.headers.get(PARTIAL) !== "1") { stale(false); return; }
        return r.text().then(show);
      })
      .catch(function () { stale(false); });
  }
  setInterval(refresh, parseInt(feed.dataset.every, 10) || 4000);
}

keepFeedFresh();
