// The phone's outbox: incidents, time extensions and deck checks logged with no network wait here (IndexedDB) with
// their one-time key, and are sent in order when the network is back; the server stores each key once.
// Also keeps the offline copy of the judge's events (/offline/copy.json) and the service worker registration.
(function () {
  "use strict";
  var DB_NAME = "judgeapp", PAGES = "judgeapp-pages", SEND_TIMEOUT_MS = 15000, COPY_EVERY_MS = 60000;
  var channel = typeof BroadcastChannel !== "undefined" ? new BroadcastChannel("judgeapp-outbox") : null;

  // ---- storage -------------------------------------------------------------------------------------------------
  var opening = null;
  function db() {
    if (!opening) {
      opening = new Promise(function (resolve, reject) {
        var req = indexedDB.open(DB_NAME, 1);
        req.onupgradeneeded = function () {
          var d = req.result;
          d.createObjectStore("outbox", { keyPath: "key" }).createIndex("owner", "owner");
          d.createObjectStore("sent", { keyPath: "key" }).createIndex("owner", "owner");
          d.createObjectStore("copies", { keyPath: "user_id" });
        };
        req.onsuccess = function () { resolve(req.result); };
        req.onerror = function () { reject(req.error); };
      });
    }
    return opening;
  }
  function tx(store, mode, work) {
    return db().then(function (d) {
      return new Promise(function (resolve, reject) {
        var t = d.transaction(store, mode), result;
        var req = work(t.objectStore(store));
        if (req) req.onsuccess = function () { result = req.result; };
        t.oncomplete = function () { resolve(result); };
        t.onerror = t.onabort = function () { reject(t.error); };
      });
    });
  }
  function byOwner(store, owner) {
    return tx(store, "readonly", function (s) { return s.index("owner").getAll(String(owner)); }).then(function (rows) {
      return (rows || []).sort(function (a, b) { return a.created - b.created || (a.key < b.key ? -1 : 1); });
    });
  }
  function changed() { if (channel) channel.postMessage("changed"); notify(); }
  var listeners = [];
  function notify() { listeners.forEach(function (f) { try { f(); } catch (e) {} }); }
  if (channel) channel.onmessage = notify;

  var Outbox = {
    put: function (record) { return tx("outbox", "readwrite", function (s) { return s.put(record); }).then(changed); },
    remove: function (key) { return tx("outbox", "readwrite", function (s) { return s["delete"](key); }).then(changed); },
    get: function (key) { return tx("outbox", "readonly", function (s) { return s.get(key); }); },
    list: function (owner) { return byOwner("outbox", owner); },
    all: function () { return tx("outbox", "readonly", function (s) { return s.getAll(); }); },
    sent: function (owner) { return byOwner("sent", owner); },
    saveCopy: function (copy) { return tx("copies", "readwrite", function (s) { return s.put(copy); }); },
    copy: function (userId) { return tx("copies", "readonly", function (s) { return s.get(Number(userId)); }); },
    dropCopy: function (userId) { return tx("copies", "readwrite", function (s) { return s["delete"](Number(userId)); }); },
    dropCopiesBut: function (userId) {  // the copies of every other account (of all, for null)
      return tx("copies", "readwrite", function (s) {
        s.getAllKeys().onsuccess = function (e) {
          e.target.result.forEach(function (k) { if (k !== Number(userId)) s["delete"](k); });
        };
      });
    },
    onChange: function (f) { listeners.push(f); },
    newKey: function () {
      if (self.crypto && crypto.randomUUID) return crypto.randomUUID().replace(/-/g, "");
      var bytes = new Uint8Array(16); crypto.getRandomValues(bytes);
      return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
    }
  };

  function keepSent(record, answer) {
    var row = { key: record.key, owner: record.owner, kind: record.kind, event_id: String(record.event_id || ""),
                summary: record.summary, sent_at: Date.now(),
                created: Date.now(), url: (answer.url || "").split("?")[0], number: answer.number || null, changed: !!answer.changed,
                suggested: answer.suggested || null, waited: !!record.waited };
    return tx("sent", "readwrite", function (s) { return s.put(row); }).then(function () {
      return Outbox.sent(record.owner);
    }).then(function (rows) {  // the last 20 are enough to show what went
      var old = rows.slice(0, Math.max(0, rows.length - 20));
      return tx("sent", "readwrite", function (s) { old.forEach(function (r) { s["delete"](r.key); }); });
    });
  }

  // ---- sending -------------------------------------------------------------------------------------------------
  function request(url, options) {
    var abort = new AbortController();
    var timer = setTimeout(function () { abort.abort(); }, SEND_TIMEOUT_MS);
    options.signal = abort.signal;
    options.credentials = "same-origin";
    return fetch(url, options).then(function (r) { clearTimeout(timer); return r; },
                                     function (e) { clearTimeout(timer); throw e; });
  }

  function freshToken() {
    return request("/offline/token", { headers: { Accept: "application/json" }, cache: "no-store" })
      .then(function (r) { return r.status === 401 ? { signedOut: true } : r.json(); });
  }

  // One record, with the same form fields the page would post, a fresh CSRF token and the writer's account.
  function post(record, token) {
    var body = new URLSearchParams();
    record.fields.forEach(function (f) { if (f[0] !== "csrf_token") body.append(f[0], f[1]); });
    body.set("csrf_token", token.csrf_token);
    body.set("outbox_owner", record.owner);
    if (record.waited) body.set("logged_at", record.logged_at);
    return request(record.url, { method: "POST", body: body, redirect: "manual",
                                 headers: { Accept: "application/json", "X-CSRFToken": token.csrf_token } })
      .then(function (r) {
        if (r.type === "opaqueredirect" || r.status === 401) return { signedOut: true };
        var json = (r.headers.get("Content-Type") || "").indexOf("json") !== -1;
        return (json ? r.json() : Promise.resolve({})).then(function (body) { body.status = r.status; return body; });
      });
  }

  var REFUSED = { 400: "The server refused the form's security token.", 403: "Your role at this event no longer allows this.",
                  404: "The event or record no longer exists.", 409: "The event is closed: nothing more can be logged.",
                  413: "Too large.", 429: "Too many attempts; it will be tried again." };

  function firstErrors(errors) {
    return Object.keys(errors || {}).map(function (k) { return [].concat(errors[k]).join(" "); }).join(" ");
  }

  // Records that could not go at once have waited: each is sent with the time it was logged on the phone.
  function markWaited(records) {
    var held = records.filter(function (r) { return r.state === "waiting" && !r.waited; });
    if (!held.length) return Promise.resolve();
    return tx("outbox", "readwrite", function (s) { held.forEach(function (r) { r.waited = true; s.put(r); }); });
  }

  // Send the signed-in judge's waiting records in the order they were logged. One sender at a time across tabs.
  // Resolves with {sent, waiting, signedOut, results: {key: outcome}}.
  function syncNow() {
    var run = function () {
      var outcome = { sent: 0, results: {} };
      return freshToken().then(function (token) {
        if (token.signedOut || !token.ok) { outcome.signedOut = true; return outcome; }
        return Outbox.list(token.user_id).then(function (records) {
          var waiting = records.filter(function (r) { return r.state === "waiting"; });
          var next = function (i, retried) {
            if (i >= waiting.length) return outcome;
            var record = waiting[i];
            return post(record, token).then(function (answer) {
              if (answer.signedOut) { outcome.signedOut = true; return outcome; }
              if (answer.ok) {
                outcome.sent++; outcome.results[record.key] = { ok: true, answer: answer };
                return keepSent(record, answer).then(function () { return Outbox.remove(record.key); })
                  .then(function () { return next(i + 1); });
              }
              if (answer.status === 400 && !retried) {  // a token that expired meanwhile: once more with a new one
                return freshToken().then(function (t) { token = t; return t.ok ? next(i, true) : outcome; });
              }
              if (answer.status === 429 || answer.status >= 500) {  // try again later, keeping the order
                outcome.results[record.key] = { retry: true, status: answer.status };
                return outcome;
              }
              record.state = "rejected";
              record.errors = answer.errors || {};
              record.message = firstErrors(answer.errors) || REFUSED[answer.status] || ("Refused (" + answer.status + ").");
              outcome.results[record.key] = { rejected: true, answer: answer, message: record.message };
              return Outbox.put(record).then(function () { return next(i + 1); });
            }, function () {  // no network (or no answer in time): it waits, and so do the ones after it
              outcome.offline = true;
              waiting.slice(i).forEach(function (r) { outcome.results[r.key] = { network: true }; });
              return markWaited(waiting.slice(i)).then(function () { return outcome; });
            });
          };
          return next(0);
        });
      }, function () {  // not even a token: no network
        outcome.offline = true;
        return Outbox.all().then(function (records) {
          records.forEach(function (r) { outcome.results[r.key] = { network: true }; });
          return markWaited(records);
        }).then(function () { return outcome; });
      });
    };
    if (navigator.locks) return navigator.locks.request("judgeapp-outbox-send", run);
    return run();
  }
  Outbox.sync = syncNow;
  self.JudgeOutbox = Outbox;

  if (typeof document === "undefined") return;  // the rest is the page's

  // ---- the page ------------------------------------------------------------------------------------------------
  var body = document.body, user = body.dataset.user || "";
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(function () {});
  }
  // Emptied entry by entry: deleting the cache itself would orphan a handle another script holds open.
  function clearPages() {
    if (!self.caches) return Promise.resolve();
    return caches.open(PAGES).then(function (cache) {
      return cache.keys().then(function (keys) { return Promise.all(keys.map(function (k) { return cache["delete"](k); })); });
    }).catch(function () {});
  }

  var lastUser = null, pagesCleared = Promise.resolve();
  try { lastUser = localStorage.getItem("judgeapp:user"); } catch (e) {}
  if ((user && lastUser !== user) || (!user && body.dataset.signedOut)) {
    pagesCleared = clearPages();  // signed out, or another account signed in: the previous one's pages go
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
  function plural(n, one, many) { return n + " " + (n === 1 ? one : many); }
  function eventOf(sent) {  // rows kept before event_id was stored name it in their address
    var found = sent.event_id || ((sent.url || "").match(/^\/events\/(\d+)\//) || [])[1];
    return found ? String(found) : "";
  }
  function unseenChange(sent) { return sent.changed && !sent.seen; }
  // "Check incident #n" shows only records of events the copy lists: the events the judge is staff at now. Online, the
  // page first asks the server for a fresh copy when such a record waits (a judge removed meanwhile gets a copy without
  // that event); until that answer, or with no copy on the phone at all, none is shown.
  var copyChecked = !user;

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
        head.appendChild(el("strong", "", plural(waiting.length, "record", "records") + " waiting to be sent"));
        head.appendChild(document.createTextNode(navigator.onLine
          ? " · sending…" : " · no network: kept on this phone, sent when the network is back."));
        banner.appendChild(head);
        var list = el("ul", "outbox-list");
        waiting.forEach(function (r) { list.appendChild(el("li", "", r.summary)); });
        banner.appendChild(list);
        var again = el("button", "button", "Send now");
        again.type = "button";
        again.addEventListener("click", function () { sync(true); });
        banner.appendChild(again);
      }
      rejected.forEach(function (r) {
        var p = el("p", "outbox-rejected");
        p.appendChild(el("strong", "", "Not accepted by the server: "));
        p.appendChild(document.createTextNode(r.summary + " — " + r.message + " "));
        var open = el("a", "", "Open it");
        open.href = r.page + "#outbox=" + r.key;
        p.appendChild(open);
        p.appendChild(document.createTextNode(" "));
        var drop = el("button", "link", "Discard");
        drop.type = "button";
        drop.addEventListener("click", function () {
          if (confirm("Discard this record for good? " + r.summary)) Outbox.remove(r.key);
        });
        p.appendChild(drop);
        banner.appendChild(p);
      });
      flagged.forEach(function (r) {
        var p = el("p", "outbox-changed");
        p.appendChild(el("strong", "", "Check incident #" + r.number + ": "));
        p.appendChild(document.createTextNode("sent after other penalties reached the server, which now suggests a different penalty. "));
        var a = el("a", "", "Open incident #" + r.number);
        a.href = r.url;
        a.addEventListener("click", function () { r.seen = true; tx("sent", "readwrite", function (s) { return s.put(r); }); });
        p.appendChild(a);
        banner.appendChild(p);
      });
      if (others) {
        banner.appendChild(el("p", "muted", plural(others, "record", "records") + " " + (others === 1 ? "waits" : "wait") +
          " on this phone for the judge who wrote " + (others === 1 ? "it" : "them") + "; sent when that judge signs in."));
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
    if (syncing) return force ? syncing.then(function () { return sync(force); }) : syncing;
    if (!force && !navigator.onLine) return Promise.resolve(null);
    syncing = syncNow().then(function (outcome) {
      syncing = null; render();
      if (outcome && outcome.sent) refreshCopy(true);
      return outcome;
    }, function () { syncing = null; return null; });
    return syncing;
  }
  Outbox.syncFromPage = sync;

  // The offline copy of the judge's events; the form pages it lists are fetched into the phone's page cache.
  function refreshCopy(force) {
    if (!user || !navigator.onLine) return Promise.resolve();
    return Outbox.copy(user).then(function (old) {
      if (!force && old && Date.now() - old.saved_at < COPY_EVERY_MS) return;
      return request("/offline/copy.json", { headers: { Accept: "application/json" }, cache: "no-store" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (copy) {
          if (!copy || String(copy.user_id) !== user) return;
          copy.saved_at = Date.now();
          var stamps = copy.events.map(function (e) { return e.stamp; }).join("|") + copy.shell;
          var all = !old || old.stamps !== stamps || Date.now() - (old.warmed_at || 0) > 10 * 60000;
          copy.stamps = stamps;
          copy.warmed_at = all ? Date.now() : old.warmed_at;
          return Outbox.saveCopy(copy).then(function () { changed(); return keepPages(copy, all); });
        });
    }).catch(function () {});
  }
  // The service worker fetches the form pages of the judge's events into the phone's page cache: all of them when
  // the events changed, otherwise the ones missing. (It finishes even if the judge opens another page meanwhile.)
  function keepPages(copy, all) {
    if (!self.caches || !navigator.serviceWorker) return Promise.resolve();
    var urls = [copy.home];
    copy.events.forEach(function (e) { urls = urls.concat(e.pages); });
    return pagesCleared.then(function () { return caches.open(PAGES); }).then(function (cache) {
      return Promise.all(urls.map(function (url) { return cache.match(url).then(function (hit) { return hit ? null : url; }); }));
    }).then(function (missing) {
      var wanted = all ? urls : missing.filter(Boolean);
      if (!wanted.length) return;
      return navigator.serviceWorker.ready.then(function (reg) {
        reg.active.postMessage({ type: "keep-pages", urls: wanted });
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
  document.querySelectorAll("form[data-outbox]").forEach(function (form) {
    var keyInput = form.querySelector("input[name=key]");
    if (keyInput && !form.dataset.rerender && !location.hash) keyInput.value = Outbox.newKey();  // a cached page's key is used
    form.addEventListener("submit", function (event) {
      if (!user || form.dataset.sending === "native") return;
      event.preventDefault();
      if (form.dataset.sending === "1") return;
      if (!navigator.onLine && form.outboxCheck && !form.outboxCheck()) return;
      form.dataset.sending = "1";
      var said = document.getElementById("outbox-said");
      if (said) said.remove();
      var key = keyInput.value;
      var record = { key: key, owner: user, kind: form.dataset.outbox, event_id: form.dataset.event,
                     url: form.getAttribute("action") || location.pathname, page: location.pathname,
                     fields: fieldsOf(form), summary: form.outboxSummary ? form.outboxSummary() : summaryOf(form),
                     created: Date.now(), logged_at: new Date().toISOString(), state: "waiting", waited: false };
      Outbox.put(record).then(function () { return sync(true); }).then(function (outcome) {
        var result = outcome && outcome.results[key];
        if (result && result.ok) { location.assign(result.answer.url); return; }
        if (result && result.rejected && !result.network) {  // show the server's own page with the errors at the fields
          return Outbox.remove(key).then(function () { submitNatively(form); });
        }
        if (outcome && outcome.signedOut) {
          form.dataset.sending = "";
          say(form, "Kept on this phone: you are signed out. Sign in again and it is sent.", "error");
          return;
        }
        form.dataset.sending = "";
        form.dispatchEvent(new CustomEvent("outbox:queued", { detail: record }));
        form.reset();
        if (keyInput) keyInput.value = Outbox.newKey();
        form.querySelectorAll("[type=submit]").forEach(function (b) { b.disabled = false; });
        say(form, "Saved on this phone: " + record.summary + ". It is sent when the network is back.", "success");
        window.scrollTo(0, 0);
      }).catch(function () {
        form.dataset.sending = "";
        say(form, "Could not keep this on the phone (storage refused). Nothing was sent; try again.", "error");
      });
    });
  });
  function summaryOf(form) {
    var value = function (name) { var f = form.elements[name]; return f && f.value ? f.value : ""; };
    return [form.dataset.summary || form.dataset.outbox, value("round") && "round " + value("round"),
            value("table") && "table " + value("table")].filter(Boolean).join(" · ");
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

  // Signing out with records waiting asks first; they stay on the phone for this judge's next sign-in.
  var logout = document.querySelector("form[data-logout]");
  if (logout) logout.addEventListener("submit", function (event) {
    if (logout.dataset.confirmed) return;
    event.preventDefault();
    sync().then(function () { return Outbox.list(user); }).then(function (mine) {
      var waiting = mine.filter(function (r) { return r.state === "waiting"; }).length;
      var text = plural(mine.length, "record", "records") + " could not be sent yet (" + waiting + " waiting for the network). " +
        "They stay on this phone, unreadable to other accounts, and are sent when you sign in again. Sign out anyway?";
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
      [["Event", e.pages[0]], ["New incident", e.pages[1]], ["Time extension", e.pages[2]], ["Deck check", e.pages[3]]]
        .forEach(function (link) {
          var a = el("a", "button", link[0]); a.href = link[1]; li.appendChild(a);
        });
      ready.appendChild(li);
    });
    var when = document.getElementById("offline-copy-time");
    if (when) when.textContent = "Copy of your events from " + new Date(copy.saved_at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) + ".";
  }).catch(function () {});

  if (user) {
    sync().then(function () { return Outbox.sent(user); }).then(function (sent) {
      return refreshCopy(sent.some(unseenChange));  // fresh when a "Check incident" depends on it
    }).then(function () { copyChecked = true; render(); }, function () { copyChecked = true; render(); }).then(function () {
      return navigator.onLine && Outbox.copy(user).then(function (copy) { if (copy) return keepPages(copy, false); });
    }).catch(function () {});
    window.addEventListener("online", function () { sync(); refreshCopy(false); render(); });
    window.addEventListener("offline", render);
    document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") sync(); });
    setInterval(function () { if (body.dataset.outboxWaiting !== "0") sync(); }, 20000);
  }
})();
