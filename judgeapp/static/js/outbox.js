// The outbox's rules, pure (no DOM, no IndexedDB, no network), so tests/js/outbox.test.mjs runs them under Node:
// the order records are sent in, the one-time keys, the form body a record is sent as, what each answer means, and
// which records and pages the phone keeps. storage.js keeps the records, sync.js sends them, page.js shows them.
// Its sentences are in the page's language (i18n.js; under Node, English).
import { _, locale } from "./i18n.js";

export const SEND_TIMEOUT_MS = 15000;
export const COPY_EVERY_MS = 60000;
// A kept page counts as current when it was rendered at least this long after its event last changed: the change's
// transaction may commit a little after its audit entry's time, and the Date header counts whole seconds.
export const RENDER_GRACE_MS = 10000;
// A slow network: a save the server has not answered within this long (it is on the phone from the start) gives the
// form back for the next record, the outbox sending it on in the background, instead of waiting for the server's
// confirmation page; on a venue network that answers, the confirmation page comes first.
export const SAVE_WAIT_MS = 3000;
export const SENT_KEPT = 20;  // the last sent records are enough to show what went

// Records in the order they were logged on the phone; the key breaks a tie, so every tab sends in the same order.
export function inLoggedOrder(rows) {
  return (rows || []).slice().sort(function (a, b) { return a.created - b.created || (a.key < b.key ? -1 : 1); });
}

// A record's one-time key: 32 hex digits, stored once by the server however often the record is sent.
export function newKey(source) {
  var c = source || globalThis.crypto;
  if (c.randomUUID) return c.randomUUID().replace(/-/g, "");
  var bytes = new Uint8Array(16); c.getRandomValues(bytes);
  return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
}

// The same form fields the page would post, with a fresh CSRF token, the writer's account and, for a record that
// waited for the network, the time it was logged on the phone.
export function formBody(record, token) {
  var body = new URLSearchParams();
  record.fields.forEach(function (f) { if (f[0] !== "csrf_token") body.append(f[0], f[1]); });
  body.set("csrf_token", token.csrf_token);
  body.set("outbox_owner", record.owner);
  if (record.waited) body.set("logged_at", record.logged_at);
  return body;
}

export const REFUSED = {
  400: _("The server refused the form's security token."), 403: _("Your role at this event no longer allows this."),
  404: _("The event or record no longer exists."), 409: _("The event is closed: nothing more can be logged."),
  413: _("Too large."), 429: _("Too many attempts; it will be tried again.")
};

export function firstErrors(errors) {
  return Object.keys(errors || {}).map(function (k) { return [].concat(errors[k]).join(" "); }).join(" ");
}

// What the judge reads about a refused record: the server's field errors, else what its status means.
export function refusalMessage(answer) {
  return firstErrors(answer.errors) || REFUSED[answer.status] || _("Refused (%(status)s).", { status: answer.status });
}

// What to do after the server answered one record: "signed-out" (stop), "sent", "new-token" (a token that expired
// meanwhile: once more with a fresh one), "retry" (later, keeping the order: the ones after it wait too), "rejected".
export function nextStep(answer, retried) {
  if (answer.signedOut) return "signed-out";
  if (answer.ok) return "sent";
  if (answer.status === 400 && !retried) return "new-token";
  if (answer.status === 429 || answer.status >= 500) return "retry";
  return "rejected";
}

// Records still waiting that could not go at once: from now on each is sent with the time it was logged.
export function newlyWaited(records) {
  return records.filter(function (r) { return r.state === "waiting" && !r.waited; });
}

// The row kept to show what went, and whether the server now suggests a different penalty.
export function sentRow(record, answer, now) {
  return { key: record.key, owner: record.owner, kind: record.kind, event_id: String(record.event_id || ""),
           summary: record.summary, sent_at: now, created: now, url: (answer.url || "").split("?")[0],
           number: answer.number || null, changed: !!answer.changed, suggested: answer.suggested || null,
           waited: !!record.waited,
           // what the server confirmed, for a time extension: "Table 5: 4 min added; it now ends at 18:16." and the
           // policy's reminder (issue 33, guard 2): said in the banner when it went in the background
           said: record.kind === "extension" ? String(answer.message || "") : "" };
}

// Records that waited on the phone and went in the last ten minutes, newest first: the banner says each was sent,
// as which record, with its link, until the judge has seen it.
export const SENT_SHOWN_MS = 10 * 60000;
export function recentlySent(rows, now) {
  return (rows || []).filter(function (r) { return r.waited && !r.acknowledged && now - r.sent_at < SENT_SHOWN_MS; })
    .sort(function (a, b) { return b.sent_at - a.sent_at; });
}
export function sentText(row) {
  var values = { number: row.number };
  var said = {  // one whole sentence per kind of record: the words go round the number in another order in Japanese
    incident: function () { return _("Sent as incident #%(number)s", values); },
    extension: function () { return _("Sent as time extension #%(number)s", values); },
    deck_check: function () { return _("Sent as deck check #%(number)s", values); },
    call: function () { return _("Sent as judge call #%(number)s", values); }
  }[row.kind];
  return row.number && said ? said() : _("Sent");
}

// The sent rows past the last `keep` (rows in logged order): these are dropped.
export function beyondLast(rows, keep) {
  return rows.slice(0, Math.max(0, rows.length - keep));
}

// The event of a sent row; rows kept before event_id was stored name it in their address.
export function eventOf(sent) {
  var found = sent.event_id || ((sent.url || "").match(/^\/events\/(\d+)\//) || [])[1];
  return found ? String(found) : "";
}

export function unseenChange(sent) { return sent.changed && !sent.seen; }

// The one-line summary of a record, from the form's label and its round and table.
export function summaryText(label, round, table) {
  return [label, round && _("round %(round)s", { round: round }), table && _("table %(table)s", { table: table })]
    .filter(Boolean).join(" · ");
}

// The addresses the phone keeps for its copy of the judge's events: the home page and each event's form pages.
export function pagesOf(copy) {
  var urls = [copy.home];
  copy.events.forEach(function (e) { urls = urls.concat(e.pages); });
  return urls.concat(copy.help || []);  // the judge's guide (judgeapp/help)
}

// A fresh copy of the events is stamped (the stamps say whether anything the phone computes with changed).
export function stampsOf(copy) {
  return copy.events.map(function (e) { return e.stamp; }).join("|") + copy.shell;
}

// The pages of the copy the phone has no current copy of, to be fetched; `rendered` gives, for each address, when
// the kept copy was rendered (its Date header, ms) or nothing when none is kept. An event's pages are current when
// rendered after the event last changed (`changed_at`, from the server's audit trail), each of them, the last one too
// (the quick reference is no page of the copy: the phone renders it from the policy's file, static/js/reference.js);
// the home page lists the events, so it follows all of them. A
// new deployment (the shell's version: static URLs, catalog) makes every kept page old. A page just loaded with the
// network was kept by the service worker on its way: it is current, and not fetched a second time.
export function stalePages(copy, old, rendered) {
  var redeployed = !!old && old.shell !== copy.shell;
  var ids = function (c) { return c.events.map(function (e) { return e.id; }).join(","); };
  var since = function (changed, url) {
    return redeployed || !rendered[url] || rendered[url] < (changed ? changed + RENDER_GRACE_MS : 0);
  };
  var latest = Math.max.apply(null, [0].concat(copy.events.map(function (e) { return e.changed_at || 0; })));
  var stale = [];
  if (since(latest, copy.home) || (old && ids(old) !== ids(copy))) stale.push(copy.home);
  copy.events.forEach(function (e) {
    e.pages.forEach(function (url) {
      if (since(e.changed_at, url) && stale.indexOf(url) === -1) stale.push(url);
    });
  });
  (copy.help || []).forEach(function (url) {  // the guide depends on no event: kept once per deployment
    if (since(0, url) && stale.indexOf(url) === -1) stale.push(url);
  });
  return stale;
}

// A record's fields ([[name, value], …]) as an object.
export function fieldMap(fields) {
  var m = {};
  fields.forEach(function (f) { m[f[0]] = f[1]; });
  return m;
}

// This phone's own incidents at the event, not sent yet, count as the subject's history too (priors for engine.js).
export function waitingPriors(records, eventId, isSubject) {
  var priors = [];
  records.forEach(function (r) {
    if (r.kind !== "incident" || r.state !== "waiting" || String(r.event_id) !== String(eventId)) return;
    var f = fieldMap(r.fields);
    if (f.penalty && f.subject_kind === "player" && isSubject(parseInt(f.player_id, 10))) {
      priors.push({ infraction: f.infraction, rank: f.penalty, ref: null, round: parseInt(f.round, 10) || null,
                    game: parseInt(f.game, 10) || null,  // its game of the match, for rules counting per game
                    day: new Date(r.created).toISOString().slice(0, 10), status: "standing" });
    }
  });
  return priors;
}

// The players a typed name, "name · code" label or player ID names; null unless exactly one.
export function playerNamed(players, typed) {
  var t = typed.trim().toLowerCase();
  var found = players.filter(function (p) {
    var label = (p.code ? p.name + " · " + p.code : p.name).toLowerCase();
    return label === t || p.name.toLowerCase() === t || (p.code && p.code.toLowerCase() === t);
  });
  return found.length === 1 ? [found[0].id] : null;
}

// A time as the venue's clocks show it, as the server's pages do: 24-hour HH:MM in the venue's time zone (the page's
// data-tz, JUDGEAPP_TIMEZONE), whatever the phone's own settings; written the way of the page's language (<html lang>:
// Japanese, like English, 14:05).
export function venueClock(ms, tz, lang) {
  var tag = (lang || locale) === "en" ? "en-GB" : lang || locale;
  var options = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
  if (tz) options.timeZone = tz;
  try { return new Intl.DateTimeFormat(tag, options).format(new Date(ms)); }
  catch (e) { delete options.timeZone; return new Intl.DateTimeFormat(tag, options).format(new Date(ms)); }
}
