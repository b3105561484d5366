// The glue of every page (base.html and the offline page): the service worker, the outbox banner (what waits, what
// the server refused, what was sent with a different upgrade), forms logged through the outbox, signing out with
// records waiting, the offline page's list, and the offline copy of the judge's events with their form pages.
import { _, ngettext } from "./i18n.js";
import {
  COPY_EVERY_MS, eventOf, pagesOf, recentlySent, SAVE_WAIT_MS, sentText, stalePages, stampsOf, summaryText,
  unseenChange, venueClock
} from "./outbox.js";
import { acknowledgeSent, changed, markSeen, Outbox, tx } from "./storage.js";
import { freshToken, request, syncNow } from "./sync.js";

// How long a save waits for the server before the form is given back: SAVE_WAIT_MS, or a deployment's own value
// (config JUDGEAPP_SAVE_WAIT_MS, named on the page only when it is not the usual 3 s).
function saveWait() {
  var named = document.querySelector('meta[name="judgeapp-save-wait"]');
  return (named && parseInt(named.content, 10)) || SAVE_WAIT_MS;
}

const PAGES = "judgeapp-pages";
// The outbox from the console and the browser tests: JudgeOutbox.list(user), JudgeOutbox.syncFromPage(true), …
Outbox.sync = syncNow;
self.JudgeOutbox = Outbox;

var body = document.body, user = body.dataset.user || "";
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch(function () {});
}
// Emptied entry by entry: deleting the cache itself would orphan a handle another script holds open. With `keepFor`
// (an account signing in), the pages the service worker kept for that account on the way in stay; every other goes.
function clearPages(keepFor) {
  if (!self.caches) return Promise.resolve();
  return caches.open(PAGES).then(function (cache) {
    return cache.keys().then(function (keys) {
      return Promise.all(keys.map(function (k) {
        return (keepFor ? cache.match(k) : Promise.resolve(null)).then(function (hit) {
          if (!hit || hit.headers.get("X-Judgeapp-Account") !== keepFor) return cache["delete"](k);
        });
      }));
    });
  }).catch(function () {});
}

var lastUser = null, pagesCleared = Promise.resolve();
try { lastUser = localStorage.getItem("judgeapp:user"); } catch (e) {}
if ((user && lastUser !== user) || (!user && body.dataset.signedOut)) {
  pagesCleared = clearPages(user);  // signed out, or another account signed in: the previous one's pages go
}
if (user || body.dataset.signedOut) {  // and so does its copy of events, so the offline page cannot list it
  Outbox.dropCopiesBut(user || null).catch(function () {});
}
try {  // the offline page shows the copy and the records of the account signed in last; signed out, of nobody
  if (user) localStorage.setItem("judgeapp:user", user);
  else if (body.dataset.signedOut) { localStorage.removeItem("judgeapp:user"); lastUser = null; }
} catch (e) {}
var owner = user || (body.dataset.offlinePage ? lastUser || "" : "");

// The banner: how many records wait, what the server refused, what was sent with a different upgrade.
var banner = document.createElement("section");
banner.id = "outbox"; banner.className = "outbox"; banner.hidden = true;
banner.setAttribute("aria-live", "polite");
var main = document.querySelector("main");
if (main) main.insertBefore(banner, main.firstChild);

function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text) e.textContent = text;
  return e;
}
// "Check incident #n" shows only records of events the copy lists: the events the judge is staff at now. Online, the
// page first asks the server for a fresh copy when such a record waits (a judge removed meanwhile gets a copy without
// that event); until that answer, or with no copy on the phone at all, none is shown.
var copyChecked = !user;
// The last send found no server. navigator.onLine only knows the phone has a link: it stays true on a venue's Wi-Fi
// whose way to the server is down (and in the WebKit tests, whose relay to the server is cut).
var unreachable = false;

function render() {
  Promise.all([owner ? Outbox.list(owner) : Promise.resolve([]), Outbox.all(),
               owner ? Outbox.sent(owner) : Promise.resolve([]),
               owner ? Outbox.copy(owner) : Promise.resolve(null)]).then(function (got) {
    var mine = got[0], all = got[1], sent = got[2], copy = got[3];
    var waiting = mine.filter(function (r) { return r.state === "waiting"; });
    var rejected = mine.filter(function (r) { return r.state !== "waiting"; });  // refused, or opened for a correction
    var others = all.length - mine.length;
    var staffed = (copy && (copyChecked || !navigator.onLine) ? copy.events : []).map(function (e) { return String(e.id); });
    var flagged = sent.filter(function (r) { return unseenChange(r) && staffed.indexOf(eventOf(r)) !== -1; });
    banner.textContent = "";
    if (waiting.length) {
      var head = el("p", "outbox-count");
      head.appendChild(el("strong", "", ngettext("%(num)s record waiting to be sent", "%(num)s records waiting to be sent",
                                                 waiting.length)));
      head.appendChild(document.createTextNode(" · " + (navigator.onLine && !unreachable
        ? _("sending…") : _("no network: kept on this phone, sent when the network is back."))));
      banner.appendChild(head);
      var list = el("ul", "outbox-list");
      waiting.forEach(function (r) { list.appendChild(el("li", "", r.summary)); });
      banner.appendChild(list);
      var again = el("button", "button", _("Send now"));
      again.type = "button";
      again.addEventListener("click", function () { sync(true); });
      banner.appendChild(again);
    }
    rejected.forEach(function (r) {
      var p = el("p", "outbox-rejected");
      p.appendChild(el("strong", "", _("Not accepted by the server:") + " "));
      p.appendChild(document.createTextNode(r.summary + " — " + r.message + " "));
      var open = el("a", "", _("Open it"));
      open.href = r.page + "#outbox=" + r.key;
      p.appendChild(open);
      p.appendChild(document.createTextNode(" "));
      var drop = el("button", "link", _("Discard"));
      drop.type = "button";
      drop.addEventListener("click", function () {
        if (confirm(_("Discard this record for good? %(summary)s", { summary: r.summary }))) Outbox.remove(r.key);
      });
      p.appendChild(drop);
      banner.appendChild(p);
    });
    var gone = recentlySent(sent, Date.now()).filter(function (r) { return staffed.indexOf(eventOf(r)) !== -1; });
    gone.slice(0, 1).forEach(function (r) {  // what waited on the phone and has gone, as which record (events the judge still staffs)
      var p = el("p", "outbox-sent");
      // TRANSLATORS: what became of a record that waited on the phone ("Sent as incident #4"), before its summary
      p.appendChild(el("strong", "", _("%(sent)s:", { sent: sentText(r) }) + " "));
      p.appendChild(document.createTextNode(r.summary + " "));
      if (r.said) p.appendChild(el("span", "sent-said", r.said + " "));
      if (r.url) { var open = el("a", "", _("Open it")); open.href = r.url; p.appendChild(open); p.appendChild(document.createTextNode(" ")); }
      var ok = el("button", "link", _("OK"));
      ok.type = "button";
      ok.addEventListener("click", function () { acknowledgeSent(r); });
      p.appendChild(ok);
      banner.appendChild(p);
    });
    // the newest in full; the older ones on one line, with one OK for them all (issue 33, guard 5)
    if (gone.length > 1) {
      var older = gone.slice(1), line = el("p", "outbox-sent outbox-older");
      line.appendChild(el("strong", "", ngettext("%(num)s earlier record sent:", "%(num)s earlier records sent:", older.length) + " "));
      line.appendChild(document.createTextNode(older.map(sentText).join(", ") + " "));
      var okAll = el("button", "link", _("OK"));
      okAll.type = "button";
      okAll.addEventListener("click", function () { older.forEach(acknowledgeSent); });
      line.appendChild(okAll);
      banner.appendChild(line);
    }
    flagged.forEach(function (r) {
      var p = el("p", "outbox-changed");
      p.appendChild(el("strong", "", _("Check incident #%(number)s:", { number: r.number }) + " "));
      p.appendChild(document.createTextNode(
        _("sent after other penalties reached the server, which now suggests a different penalty.") + " "));
      var a = el("a", "", _("Open incident #%(number)s", { number: r.number }));
      a.href = r.url;
      a.addEventListener("click", function () { markSeen(r); });
      p.appendChild(a);
      banner.appendChild(p);
    });
    if (others) {
      banner.appendChild(el("p", "muted", ngettext(
        "%(num)s record waits on this phone for the judge who wrote it; sent when that judge signs in.",
        "%(num)s records wait on this phone for the judge who wrote them; sent when that judge signs in.", others)));
    }
    banner.hidden = !banner.firstChild;
    body.dataset.outboxWaiting = String(waiting.length);
  }).catch(function () {});
}
Outbox.onChange(render);
render();

var syncing = null;
function sync(force) {
  if (!user) return Promise.resolve(null);
  // A forced send (a form just saved) waits for the one under way, then sends again. The one under way may already
  // have taken the new record (it lists the outbox after its token comes): what either send learnt is the outcome.
  if (syncing) return force ? syncing.then(function (first) { return sync(force).then(function (second) { return both(first, second); }); }) : syncing;
  if (!force && !navigator.onLine) return Promise.resolve(null);
  syncing = syncNow().then(function (outcome) {
    syncing = null; unreachable = !!(outcome && outcome.offline); render();
    if (outcome && outcome.sent) refreshCopy(true);
    return outcome;
  }, function () { syncing = null; return null; });
  return syncing;
}
Outbox.syncFromPage = sync;
function both(first, second) {
  if (!first || !second) return second || first;
  var results = Object.assign({}, first.results, second.results);
  return Object.assign({}, second, { sent: (first.sent || 0) + (second.sent || 0), results: results });
}
// What became of one record: this page's sends say it; else the phone's own record of it, for a record sent or refused
// by a send this page did not start (another tab's): refused, it is in the outbox as such; sent, it is in `sent`.
function outcomeOf(key, outcome) {
  var result = outcome && outcome.results && outcome.results[key];
  if (result || !outcome || outcome.signedOut) return Promise.resolve(result);
  return Promise.all([Outbox.get(key), Outbox.sent(user)]).then(function (got) {
    var waiting = got[0], sent = got[1].filter(function (r) { return r.key === key; })[0];
    if (waiting && waiting.state === "rejected") return { rejected: true };
    if (!waiting && sent && sent.url) return { ok: true, answer: { url: sent.url } };
    return undefined;
  }).catch(function () { return undefined; });
}

// The offline copy of the judge's events; the form pages it lists are fetched into the phone's page cache. One tab
// at a time (Web Locks): pages opened in quick succession ask the server for the copy once.
function refreshCopy(force) {
  if (!user || !navigator.onLine) return Promise.resolve();
  var run = function () {
    return Outbox.copy(user).then(function (old) {
      if (!force && old && Date.now() - old.saved_at < COPY_EVERY_MS) return;
      return request("/offline/copy.json", { headers: { Accept: "application/json" }, cache: "no-store" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (copy) {
          if (!copy || String(copy.user_id) !== user) return;
          copy.saved_at = Date.now();
          copy.stamps = stampsOf(copy);
          return Outbox.saveCopy(copy).then(function () { changed(); return keepPages(copy, old); });
        });
    });
  };
  var done = navigator.locks ? navigator.locks.request("judgeapp-copy", run) : run();
  return done.catch(function () {});
}
// The service worker fetches the pages of the judge's events the phone has no current copy of into its page cache
// (a page just loaded is already there: the worker kept it on its way), then takes every page of the copy as current
// for a minute from the copy's check (sw.js: `fresh`). It finishes even if the judge opens another page meanwhile.
function keepPages(copy, old) {
  if (!self.caches || !navigator.serviceWorker) return Promise.resolve();
  var urls = pagesOf(copy).filter(function (url, i, all) { return all.indexOf(url) === i; });
  return pagesCleared.then(function () { return caches.open(PAGES); }).then(function (cache) {
    return Promise.all(urls.map(function (url) {
      return cache.match(url).then(function (hit) {  // when the kept copy was rendered (ms, as sw.js marks it)
        return hit ? parseInt(hit.headers.get("X-Judgeapp-Rendered"), 10) || Date.parse(hit.headers.get("Date")) || 1 : 0;
      });
    }));
  }).then(function (times) {
    var rendered = {};
    urls.forEach(function (url, i) { if (times[i]) rendered[url] = times[i]; });
    var stale = stalePages(copy, old, rendered);
    return navigator.serviceWorker.ready.then(function (reg) {
      var files = copy.events.map(function (e) { return e.finder; })  // the finder's words, one file per policy version
        .filter(function (url, i, all) { return url && all.indexOf(url) === i; });
      // the catalog of this page's language: kept by the worker when first asked for (sw.js LAZY), asked here too in
      // case the page that fetched it was not yet under the worker (a first visit)
      var catalog = document.querySelector('meta[name="judgeapp-messages"]');
      if (catalog && catalog.content) files.push(catalog.content);
      reg.active.postMessage({ type: "keep-pages", urls: stale, files: files, account: user, checked: copy.saved_at,
                               until: copy.saved_at + COPY_EVERY_MS,
                               current: urls.filter(function (url) { return stale.indexOf(url) === -1; }) });
    });
  });
}
Outbox.refreshCopy = refreshCopy;

// A form that may be logged offline: the record goes into the outbox first, then the outbox sends in order.
function fieldsOf(form) {
  var out = [];
  new FormData(form).forEach(function (value, name) { if (typeof value === "string") out.push([name, value]); });
  return out;
}
// A step that cannot be undone by a stray tap (issuing a disqualification, finalizing an investigation, closing the
// event) asks first, naming what will happen: the form's or the pressed button's data-confirm. Caught before any
// other submit listener, so a "Cancel" sends nothing at all.
document.addEventListener("submit", function (event) {
  var by = event.submitter, form = event.target;
  var text = (by && by.dataset && by.dataset.confirm) || (form.dataset && form.dataset.confirm);
  if (text && by && by.dataset.ends) {  // the time left, counted now: "{left}" in the question (a round's clock)
    var left = Math.max(0, Math.ceil((Date.parse(by.dataset.ends) - Date.now()) / 60000));
    text = text.replace("{left}", _("%(minutes)s min", { minutes: left }));
  }
  if (text && !confirm(text)) { event.preventDefault(); event.stopImmediatePropagation(); return; }
  // The answer goes with the form where the server asks the same question without script (data-confirmed names the
  // field it checks: finalizing an investigation with no statement, issue 33 guard 15).
  var field = text && by && by.dataset.confirmed;
  if (field && !form.querySelector('input[type=hidden][name="' + field + '"]')) {
    var yes = document.createElement("input");
    yes.type = "hidden"; yes.name = field; yes.value = "y";
    form.appendChild(yes);
  }
}, true);

// After a save the server refused, the first field in error gets the focus (its message, a role=alert, is read out),
// so a judge on a phone does not hunt below the fold for it.
(function () {
  var bad = document.querySelector("[aria-invalid=true], .field-error input, .field-error select, .field-error textarea");
  if (bad) { bad.focus({ preventScroll: true }); bad.scrollIntoView({ block: "center" }); }
})();

// Each form gets a fresh key when the page loads (a cached page's key is used), or when it first sends if a list
// that refreshes itself (the judge-call queue) brought it in later; one listener on the document serves them all.
function freshKey(form) {
  var keyInput = form.querySelector("input[name=key]");
  if (keyInput && !form.dataset.rerender && !location.hash) keyInput.value = Outbox.newKey();
  form.dataset.keyed = "1";
}
document.querySelectorAll("form[data-outbox]").forEach(freshKey);
document.addEventListener("submit", function (event) {
  var form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.matches("form[data-outbox]")) return;
  if (!form.dataset.keyed) freshKey(form);
  var keyInput = form.querySelector("input[name=key]");
  (function () {
    if (!user || form.dataset.sending === "native") return;
    event.preventDefault();
    if (form.dataset.sending === "1") return;
    if (!navigator.onLine && form.outboxCheck && !form.outboxCheck()) return;
    form.dataset.sending = "1";
    var said = document.getElementById("outbox-said");
    if (said) said.remove();
    var unanswered = document.getElementById("outbox-unanswered");
    if (unanswered) unanswered.remove();
    var button = event.submitter || form.querySelector("[type=submit]");
    var key = keyInput.value;
    var record = { key: key, owner: user, kind: form.dataset.outbox, event_id: form.dataset.event,
                   url: form.getAttribute("action") || location.pathname, page: location.pathname,
                   fields: fieldsOf(form), summary: form.outboxSummary ? form.outboxSummary() : summaryOf(form),
                   created: Date.now(), logged_at: new Date().toISOString(), state: "waiting", waited: false };
    var late = {};
    Outbox.save(record).then(function () {
      // on the phone now, sent exactly once whatever follows: said at once, before any answer from the network
      say(form, _("Stored on this phone · sending to the server…"), "info");
      var sending = sync(true);
      var waited = new Promise(function (resolve) { setTimeout(function () { resolve(late); }, saveWait()); });
      return Promise.race([sending, waited]).then(function (outcome) {
        if (outcome !== late) return outcome;
        sending.then(function () { return sentAfterWaiting(key); });
        return late;
      });
    }).then(function (outcome) {
      return outcome === late ? [outcome, undefined] : outcomeOf(key, outcome).then(function (result) { return [outcome, result]; });
    }).then(function (got) {
      var outcome = got[0], result = got[1];
      if (result && result.ok) {  // stored: the form's draft goes now, not when the next page loads (it may not)
        form.dispatchEvent(new CustomEvent("outbox:sent", { detail: record }));
        location.assign(result.answer.url);
        return;
      }
      if (result && result.rejected && !result.network) {  // show the server's own page with the errors at the fields
        return Outbox.remove(key).then(function () { submitNatively(form); });
      }
      if (outcome && outcome.signedOut) {
        form.dataset.sending = "";
        say(form, _("Kept on this phone: you are signed out. Sign in again and it is sent."), "error");
        return;
      }
      form.dataset.sending = "";
      form.dispatchEvent(new CustomEvent("outbox:queued", { detail: record }));
      form.reset();
      if (keyInput) keyInput.value = Outbox.newKey();
      form.querySelectorAll("[type=submit]").forEach(function (b) { b.disabled = false; });
      say(form, outcome === late
        ? _("Saved on this phone: %(summary)s. The network is slow: it is sent in the background, and the banner says when it went.",
            { summary: record.summary })
        : _("Saved on this phone: %(summary)s. It is sent when the network is back.", { summary: record.summary }), "success");
      window.scrollTo(0, 0);
    }).catch(function (error) {
      // not on the phone: the entry stays on the form, and the button works again for a second tap
      form.dataset.sending = "";
      form.dispatchEvent(new CustomEvent("outbox:unkept", { detail: record }));
      form.querySelectorAll("[type=submit]").forEach(function (b) { b.disabled = false; });
      if (error && error.unanswered) {  // storage.js STORAGE_WAIT_MS: said where the judge tapped, in plain words
        sayAt(button, _("Not saved yet: this phone's storage did not answer. What you entered is still here: tap the button again."));
        return;
      }
      say(form, _("Could not keep this on the phone (storage refused). Nothing was sent; try again."), "error");
    });
  })();
});
// A record the form gave back before the server answered: once sent (by this send or one already under way), the
// banner says so, as which record (as for a record that waited for the network).
function sentAfterWaiting(key) {
  return Outbox.sent(user).then(function (rows) {
    var row = rows.filter(function (r) { return r.key === key; })[0];
    if (!row || row.waited) return;
    row.waited = true;
    return tx("sent", "readwrite", function (s) { return s.put(row); }).then(changed);
  }).catch(function () {});
}
function summaryOf(form) {
  var value = function (name) { var f = form.elements[name]; return f && f.value ? f.value : ""; };
  return summaryText(form.dataset.summary || form.dataset.outbox, value("round"), value("table"));
}
function submitNatively(form) {
  form.dataset.sending = "native";
  freshToken().then(function (t) {
    var csrf = form.querySelector("input[name=csrf_token]");
    if (t.ok && csrf) csrf.value = t.csrf_token;
  }).catch(function () {}).then(function () { HTMLFormElement.prototype.submit.call(form); });
}
function say(form, text, kind) {
  var old = document.getElementById("outbox-said");
  if (old) old.remove();
  var p = el("p", "flash flash-" + kind, text);
  p.id = "outbox-said"; p.setAttribute("role", "status");
  form.parentNode.insertBefore(p, form);
}

// A message at the button the judge tapped (read out at once): what became of the tap is said where the eyes are.
function sayAt(button, text) {
  var p = el("p", "error", text);
  p.id = "outbox-unanswered"; p.setAttribute("role", "alert");
  button.parentNode.insertBefore(p, button.nextSibling);
  p.scrollIntoView({ block: "nearest" });
}

// Signing out with records waiting asks first; they stay on the phone for this judge's next sign-in.
var logout = document.querySelector("form[data-logout]");
if (logout) logout.addEventListener("submit", function (event) {
  if (logout.dataset.confirmed) return;
  event.preventDefault();
  sync().then(function () { return Outbox.list(user); }).then(function (mine) {
    var waiting = mine.filter(function (r) { return r.state === "waiting"; }).length;
    var text = ngettext(
      "%(num)s record could not be sent yet (%(waiting)s waiting for the network). They stay on this phone, unreadable to other accounts, and are sent when you sign in again. Sign out anyway?",
      "%(num)s records could not be sent yet (%(waiting)s waiting for the network). They stay on this phone, unreadable to other accounts, and are sent when you sign in again. Sign out anyway?",
      mine.length, { waiting: waiting });
    if (mine.length && !confirm(text)) return;
    return Promise.all([clearPages(), Outbox.dropCopy(user)]).then(function () {
      logout.dataset.confirmed = "1";
      HTMLFormElement.prototype.submit.call(logout);
    });
  }).catch(function () { logout.dataset.confirmed = "1"; HTMLFormElement.prototype.submit.call(logout); });
});

// The offline page: what this phone can do without network, from the copy of the last signed-in judge.
var ready = document.getElementById("offline-ready");
if (ready && owner) Outbox.copy(owner).then(function (copy) {
  if (!copy || !copy.events.length) return;
  ready.textContent = "";
  copy.events.forEach(function (e) {
    var li = el("li");
    li.appendChild(el("strong", "", e.name));
    [[_("Event"), e.pages[0]], [_("New incident"), e.pages[1]], [_("Time extension"), e.pages[2]], [_("Deck check"), e.pages[3]],
     [_("Rules"), e.reference && e.reference + (e.level ? "?level=" + e.level : "")]]  // at the event's level: rendered
      .filter(function (link) { return link[1]; })  // from the policy's file the phone keeps (reference.js)
      .forEach(function (link) {
        var a = el("a", "button", link[0]); a.href = link[1]; li.appendChild(a);
      });
    ready.appendChild(li);
  });
  var when = document.getElementById("offline-copy-time");
  if (when) when.textContent = _("Copy of your events from %(time)s.", { time: venueClock(copy.saved_at, document.body.dataset.tz) });
}).catch(function () {});

// The offline page the service worker keeps (sw.js) says what it says in this page's language: kept again when the
// copy it has is in another (installed before the judge signed in to an account with its own language setting).
if (user && navigator.onLine && self.caches && navigator.serviceWorker) {
  caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n.indexOf("judgeapp-shell-") === 0; }).map(function (n) {
      return caches.open(n).then(function (c) { return c.match("/offline"); }).then(function (kept) { return kept ? kept.text() : ""; });
    }));
  }).then(function (pages) {
    var other = pages.some(function (html) { return html && html.indexOf('<html lang="' + document.documentElement.lang + '"') === -1; });
    if (other) return navigator.serviceWorker.ready.then(function (reg) { reg.active.postMessage({ type: "keep-offline" }); });
  }).catch(function () {});
}

// A page the phone showed from its copy (sw.js: `fresh`) names the account it was kept for; when the server says this
// browser is signed out (a session ended, the browser restarted), the page is asked for again from the server, which
// sends the login page: the copies are taken as current no more until the next check.
function signedOutHere(outcome) {
  if (!outcome || !outcome.signedOut) return;
  try { if (sessionStorage.getItem("judgeapp:reloaded") === location.pathname) return; } catch (e) { return; }
  var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
  if (worker) worker.postMessage({ type: "not-current" });
  try { sessionStorage.setItem("judgeapp:reloaded", location.pathname); } catch (e) {}
  location.reload();
}
try { if (sessionStorage.getItem("judgeapp:reloaded") && !body.dataset.signedOut) sessionStorage.removeItem("judgeapp:reloaded"); } catch (e) {}

// A page the service worker answered from the phone's copy (sw.js marks it: data-kept, when the copy was made): when the
// event changed since (another judge's incident, a decision, the event closed), it is loaded afresh from the server.
// With no network it says so, and when the copy was made (issue 33, guard 7): what changed since is not on it.
function keptNote() {
  if (document.getElementById("kept-note")) return;
  var main = document.querySelector("main") || body, note = document.createElement("p");
  note.id = "kept-note"; note.className = "flash flash-info"; note.setAttribute("role", "status");
  note.textContent = _("No network: this page is this phone's copy, made at %(time)s. What changed since is not shown.",
                       { time: venueClock(parseInt(body.dataset.kept, 10), body.dataset.tz) });
  main.insertBefore(note, main.firstChild);
  window.addEventListener("online", function () { note.remove(); }, { once: true });
}
if (user && body.dataset.kept) {
  if (!navigator.onLine) keptNote();
  fetch("/offline/changed.json", { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } })
    .then(function (r) { return r.ok ? r.json() : null; })
    .then(function (answer) {
      if (!answer || !(answer.changed > parseInt(body.dataset.kept, 10))) return;
      var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
      if (!worker) { location.reload(); return; }
      var told = new Promise(function (resolve) {  // the worker takes no kept page as current first, then reload
        var channel = new MessageChannel();
        channel.port1.onmessage = function () { resolve(); };
        worker.postMessage({ type: "not-current" }, [channel.port2]);
        setTimeout(resolve, 1000);
      });
      told.then(function () { location.reload(); });
    }).catch(keptNote);
}

// A round choice at an event of several divisions names the chosen division's phase; each option carries every
// division's label (floor.round_choices), shown whenever the form's division changes.
(function () {
  var division = document.getElementById("division"), round = document.getElementById("round");
  if (!division || !round || !round.querySelector("option[data-labels]")) return;
  function relabel() {
    round.querySelectorAll("option[data-labels]").forEach(function (o) {
      var label = JSON.parse(o.dataset.labels)[division.value];
      if (label) o.textContent = label;
    });
  }
  division.addEventListener("change", relabel);
  relabel();
})();

if (user) {
  sync().then(function (outcome) { signedOutHere(outcome); return Outbox.sent(user); }).then(function (sent) {
    // fresh when a "Check incident" depends on it, or when the page says the judge's events changed (an invitation
    // just accepted: the event comes onto the phone at once, not at the next periodic copy)
    return refreshCopy(sent.some(unseenChange) || !!document.querySelector("[data-copy-stale]"));
  }).then(function () { copyChecked = true; render(); }, function () { copyChecked = true; render(); }).then(function () {
    return navigator.onLine && Outbox.copy(user).then(function (copy) { if (copy) return keepPages(copy, copy); });
  }).catch(function () {});
  window.addEventListener("online", function () { sync(); refreshCopy(false); render(); });
  window.addEventListener("offline", render);
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") sync(); });
  setInterval(function () { if (body.dataset.outboxWaiting !== "0") sync(); }, 20000);
}
