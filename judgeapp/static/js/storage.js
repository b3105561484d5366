// The phone's storage (IndexedDB "judgeapp"): the outbox of records logged with no network wait here with their
// one-time key; the last records sent; the offline copy of each judge's events (/offline/copy.json). Opened on first
// use, not at import. Every tab hears of a change (BroadcastChannel), so each shows the same outbox.
import { beyondLast, inLoggedOrder, newKey, newlyWaited, SENT_KEPT, sentRow } from "./outbox.js";

const DB_NAME = "judgeapp";
const channel = typeof BroadcastChannel !== "undefined" ? new BroadcastChannel("judgeapp-outbox") : null;
const listeners = [];
let opening = null;
// A transaction a page leaves unfinished holds its store: every transaction of the phone's other pages on that store
// waits behind it. WebKit (Safari) commits a transaction only once the page has been handed each request's result, and a
// page the judge has just left is never handed them: it is suspended in the back/forward cache, or was left before its
// own load ended (a tap on as soon as it shows), when WebKit fires no pagehide at all. Its read stayed open for good,
// and the next page's copy of the events, its offline suggestion, its save to the outbox waited behind it (issue
// 36). So `tx` commits each transaction as soon as its requests are made (IDBTransaction.commit): the storage
// ends it by itself, whatever becomes of the page. Where commit() is missing (Safari before 15), a page going into the
// back/forward cache aborts the transactions it has not finished (only reads and rewrites the next page does again:
// every record is put before anything is sent) and closes its connection; shown again, it opens a new one.
let connection = null, unfinished = [], cached = false;
if (typeof addEventListener === "function") {
  addEventListener("pagehide", function (event) {
    if (!event.persisted) return;  // unloaded: the browser ends its transactions itself
    cached = true;
    unfinished.splice(0).forEach(function (t) { try { t.abort(); } catch (e) {} });
    if (connection) connection.close();
    connection = null; opening = null;
  });
  addEventListener("pageshow", function () { cached = false; });
}

function db() {
  if (cached) return Promise.reject(new Error("page in the back/forward cache"));
  if (!opening) {
    opening = new Promise(function (resolve, reject) {
      var req = indexedDB.open(DB_NAME, 1);
      req.onupgradeneeded = function () {
        var d = req.result;
        d.createObjectStore("outbox", { keyPath: "key" }).createIndex("owner", "owner");
        d.createObjectStore("sent", { keyPath: "key" }).createIndex("owner", "owner");
        d.createObjectStore("copies", { keyPath: "user_id" });
      };
      req.onsuccess = function () {
        if (cached) { req.result.close(); reject(new Error("page in the back/forward cache")); return; }
        connection = req.result;
        resolve(req.result);
      };
      req.onerror = function () { reject(req.error); };
    });
  }
  return opening;
}

// How long a save to the phone may wait for the phone's storage before the page says so (issue 36). Whatever still
// holds the outbox (another tab, a page of a browser that cannot commit early), the judge is not left with a Save button
// saying "Saving…" for ever: past this the save is given up, aborted so that it cannot land later behind the judge's
// back, and its promise rejects with an error whose `unanswered` is true; the page says so at the button, the entry
// stays on the form, and a second tap saves it (the record's one-time key: stored once whatever happens).
export const STORAGE_WAIT_MS = 5000;

// One transaction on `store`: `work(objectStore)` makes all its requests at once and returns the one whose result the
// promise resolves with. Committed at once (see above), except one with a time-box (`within`, ms, counted from the
// call, the opening of the database included): it stays abortable until it has finished.
export function tx(store, mode, work, within) {
  var t = null, givenUp = false;
  var running = db().then(function (d) {
    return new Promise(function (resolve, reject) {
      if (givenUp) { reject(unanswered()); return; }
      var result;
      t = d.transaction(store, mode);
      var done = function () { var i = unfinished.indexOf(t); if (i !== -1) unfinished.splice(i, 1); };
      unfinished.push(t);
      var req = work(t.objectStore(store));
      if (req) req.onsuccess = function () { result = req.result; };
      t.oncomplete = function () { done(); resolve(result); };
      t.onerror = t.onabort = function () { done(); reject(t.error || new Error("aborted")); };
      if (!within && typeof t.commit === "function") t.commit();
    });
  });
  if (!within) return running;
  return new Promise(function (resolve, reject) {
    var timer = setTimeout(function () {
      givenUp = true;
      if (t) { try { t.abort(); } catch (e) {} }  // finished meanwhile: kept, and a second tap puts it again, once
      reject(unanswered());
    }, within);
    running.then(function (value) { clearTimeout(timer); resolve(value); },
                 function (error) { clearTimeout(timer); reject(error); });
  });
}

function unanswered() {
  var error = new Error("the phone's storage did not answer within " + STORAGE_WAIT_MS + " ms");
  error.unanswered = true;
  return error;
}

function byOwner(store, owner) {
  return tx(store, "readonly", function (s) { return s.index("owner").getAll(String(owner)); }).then(inLoggedOrder);
}

function notify() { listeners.forEach(function (f) { try { f(); } catch (e) {} }); }
if (channel) channel.onmessage = notify;
export function changed() { if (channel) channel.postMessage("changed"); notify(); }

export const Outbox = {
  put: function (record) { return tx("outbox", "readwrite", function (s) { return s.put(record); }).then(changed); },
  // a form's save, which the judge waits for: given up after STORAGE_WAIT_MS
  save: function (record) {
    return tx("outbox", "readwrite", function (s) { return s.put(record); }, STORAGE_WAIT_MS).then(changed);
  },
  remove: function (key) { return tx("outbox", "readwrite", function (s) { return s["delete"](key); }).then(changed); },
  get: function (key) { return tx("outbox", "readonly", function (s) { return s.get(key); }); },
  list: function (owner) { return byOwner("outbox", owner); },
  all: function () { return tx("outbox", "readonly", function (s) { return s.getAll(); }); },
  sent: function (owner) { return byOwner("sent", owner); },
  saveCopy: function (copy) { return tx("copies", "readwrite", function (s) { return s.put(copy); }); },
  copy: function (userId) { return tx("copies", "readonly", function (s) { return s.get(Number(userId)); }); },
  dropCopy: function (userId) { return tx("copies", "readwrite", function (s) { return s["delete"](Number(userId)); }); },
  // The copies of every other account (of all, for null), asked on every page load: read first, written only when one
  // is there. A write queues behind any transaction on the store that another page has not finished (issue 36: WebKit
  // froze the page the judge had just left in the middle of its own reads on load), and every later read of this
  // page's copy (its offline suggestion; its refresh of the copy, holding the Web Lock judgeapp-copy meanwhile) then
  // queues behind that write, for good. Reads run beside another page's reads.
  dropCopiesBut: function (userId) {
    return tx("copies", "readonly", function (s) { return s.getAllKeys(); }).then(function (keys) {
      var others = (keys || []).filter(function (k) { return k !== Number(userId); });
      if (!others.length) return;
      return tx("copies", "readwrite", function (s) { others.forEach(function (k) { s["delete"](k); }); });
    });
  },
  onChange: function (f) { listeners.push(f); },
  newKey: function () { return newKey(); }
};

// A sent record is kept (the last SENT_KEPT of its owner) to show what went.
export function keepSent(record, answer) {
  return tx("sent", "readwrite", function (s) { return s.put(sentRow(record, answer, Date.now())); }).then(function () {
    return Outbox.sent(record.owner);
  }).then(function (rows) {
    var old = beyondLast(rows, SENT_KEPT);
    return tx("sent", "readwrite", function (s) { old.forEach(function (r) { s["delete"](r.key); }); });
  });
}

export function markSeen(sent) {
  sent.seen = true;
  return tx("sent", "readwrite", function (s) { return s.put(sent); });
}

// The judge has read that a record which waited was sent: the banner stops saying so (a changed suggestion still shows).
export function acknowledgeSent(sent) {
  sent.acknowledged = true;
  return tx("sent", "readwrite", function (s) { return s.put(sent); }).then(changed);
}

// Records that could not go at once have waited: each is sent with the time it was logged on the phone.
export function markWaited(records) {
  var held = newlyWaited(records);
  if (!held.length) return Promise.resolve();
  return tx("outbox", "readwrite", function (s) { held.forEach(function (r) { r.waited = true; s.put(r); }); });
}
