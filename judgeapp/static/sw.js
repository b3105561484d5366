// judgeapp's service worker: the app shell from cache, pages network-first with the last copy kept for offline use;
// a kept page the phone has just confirmed current is shown from the phone without asking the network (see `fresh`).
// Records logged offline are kept by the pages themselves (static/js/storage.js, IndexedDB), not here.
"use strict";
var VERSION = "__VERSION__";
var SHELL = __SHELL__;  // installed with the worker: what the pages kept for offline use run
// kept the first time a page asks for one (a catalog, a module of a page that needs the network anyway), not downloaded
// with the first page: a phone's first visit on a crowded network is where a judge waits (issue 36)
var LAZY = __LAZY__;
var SHELL_CACHE = "judgeapp-shell-" + VERSION;
var PAGES = "judgeapp-pages";  // cleared by the page on sign-in and sign-out: it holds one account's pages
// Each page names its account (X-Judgeapp-Account: a user id, or "none" signed out). The account of the last page the
// phone got from the server is kept here; a page is kept only when it names that account, and shown only to it.
var ACCOUNT = "judgeapp-account", ACCOUNT_KEY = "/__judgeapp-account";
// Data files named by their content (a policy version's file: the finder's words, the quick reference, the engine's
// input: /offline/finder/…json?v=<hash>): kept
// from the first fetch, answered from the phone ever after, the older version of the same file dropped.
var DATA = "judgeapp-data", DATA_PATH = /^\/offline\/finder\//;
var NETWORK_WAIT_MS = __NETWORK_WAIT_MS__;  // an overloaded venue network: after this the phone's copy is shown
// meanwhile (config JUDGEAPP_NETWORK_WAIT_MS: 6 s deployed)
// The pages the phone confirmed current (static/js/page.js, after checking its copy of the events): {account, checked,
// until, urls}. Until `until` (a minute after the check) a navigation to one of them is answered from the phone's copy
// at once, so a page is downloaded once, not again each time the judge opens it. Anything this phone sends (a POST:
// a saved form, the outbox, signing in or out) ends it: the next pages come from the network until the next check.
// Kept in this worker's memory only: it ends with the browser (and its session cookie), or when the worker is stopped.
var fresh = null, postedAt = 0;
// The pages being fetched into the cache now, by path: a promise, true once the page is kept. A navigation to a page
// kept offline is one of them while it loads (networkFirst), as is each page this worker copies (fetchAndKeep): a page
// asked for again meanwhile, by a navigation or by the page's script, joins it and is downloaded once (issue 36, the
// sign-in race: a judge opens the event page while the home page still asks for the copy of the events).
var fetching = {};
var fetchingSince = {};  // when each of those fetches began: one begun before this phone sent something is not joined
var keptAt = {};  // when this worker last kept each page: one kept after the phone's check is not fetched for it again
// pages a judge needs at the table; kept only when fetched without a query string. Not the quick reference: with no
// network the offline page renders it from the policy's file in DATA (static/js/reference.js), not a page per event.
var OFFLINE_PAGES = [/^\/$/, /^\/events\/\d+$/, /^\/events\/\d+\/incidents\/new$/, /^\/events\/\d+\/extensions\/new$/,
                     /^\/events\/\d+\/deck-checks\/new$/, /^\/events\/\d+\/calls$/,
                     /^\/offline$/, /^\/help\/(?:floor-judge|head-judge|organizer)?$/];  // help: the judge's guide

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL_CACHE).then(function (cache) {  // one file failing must not stop the install
    return Promise.all(SHELL.map(function (url) { return cache.add(url).catch(function () {}); }));
  })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n.indexOf("judgeapp-shell-") === 0 && n !== SHELL_CACHE; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

function accountOf(response) { return response.headers.get("X-Judgeapp-Account"); }
function signedIn(account) { return !!account && account !== "none"; }

function phoneAccount() {
  return caches.open(ACCOUNT).then(function (cache) { return cache.match(ACCOUNT_KEY); })
    .then(function (hit) { return hit ? hit.text() : null; });
}
function setPhoneAccount(account) {
  return caches.open(ACCOUNT).then(function (cache) { return cache.put(ACCOUNT_KEY, new Response(account)); });
}

function keepable(url, response) {
  return !url.search && response.ok && !response.redirected && response.type === "basic" &&
    signedIn(accountOf(response)) && OFFLINE_PAGES.some(function (re) { return re.test(url.pathname); });
}

// A page fetched for an account the phone has since left (another signed in, or none) is not kept.
function keep(path, response) {
  return phoneAccount().then(function (account) {
    if (account !== accountOf(response)) return false;
    return caches.open(PAGES).then(function (cache) { return cache.put(path, response); })
      .then(function () { keptAt[path] = Date.now(); return true; });
  });
}

function freshCopy(url) {
  var f = fresh;
  if (url.search || !f || f.checked <= postedAt || Date.now() > f.until || f.urls.indexOf(url.pathname) === -1) {
    return Promise.resolve(null);
  }
  return Promise.all([phoneAccount(), caches.open(PAGES).then(function (cache) { return cache.match(url.pathname); })])
    .then(function (got) {
      var account = got[0], hit = got[1];
      return hit && signedIn(account) && account === f.account && accountOf(hit) === account ? hit : null;
    }).catch(function () { return null; });
}

// A page answered from the phone's copy says so, and from when (X-Judgeapp-Rendered): page.js then asks the server whether the
// event changed since, and loads the page afresh when it did (a colleague's incident, a closed event).
function marked(response) {
  // when the server made it, to the millisecond (its Date header says only the second)
  var kept = parseInt(response.headers.get("X-Judgeapp-Rendered"), 10) || Date.parse(response.headers.get("Date") || "") || 1;
  return response.text().then(function (html) {
    var headers = new Headers(response.headers);
    headers.delete("Content-Length");
    return new Response(html.replace("<body", '<body data-kept="' + kept + '"'),
                        { status: response.status, statusText: response.statusText, headers: headers });
  });
}

function page(request, url) {
  return freshCopy(url).then(function (hit) {
    if (hit) return marked(hit);
    // being fetched into the cache right now: that one answer, unless it began before this phone last sent something
    // (the page after a save must show the save: a copy begun before it may not)
    var pending = !url.search && current(url.pathname);
    if (!pending) return networkFirst(request, url);
    return pending.then(function (kept) {
      if (!kept) return networkFirst(request, url);
      return Promise.all([phoneAccount(), caches.open(PAGES).then(function (cache) { return cache.match(url.pathname); })])
        .then(function (got) {
          var account = got[0], copy = got[1];
          // fetched for the phone's copy, perhaps started before a change: marked like any kept page (page.js checks)
          return copy && signedIn(account) && accountOf(copy) === account ? marked(copy) : networkFirst(request, url);
        });
    });
  });
}

function current(path) {  // the fetch of `path` under way, begun after this phone last sent something
  return fetchingSince[path] > postedAt ? fetching[path] : null;
}

// `path` is being fetched from now on (by `promise`); forgotten once settled, unless another fetch took its place.
function register(path, promise) {
  fetching[path] = promise;
  fetchingSince[path] = Date.now();
  promise.then(function () {
    if (fetching[path] === promise) { delete fetching[path]; delete fetchingSince[path]; }
  });
  return promise;
}

function networkFirst(request, url) {
  var path = url.pathname, settled = function () {};
  if (request.mode === "navigate" && !url.search && OFFLINE_PAGES.some(function (re) { return re.test(path); })) {
    register(path, new Promise(function (resolve) { settled = resolve; }));
  }
  var done = function (kept) { settled(!!kept); };  // kept or not: a copy asked for later fetches it itself
  var network = fetch(request).then(function (response) {
    var account = accountOf(response);  // known before the page's own script runs and asks for pages to be kept
    return (account ? setPhoneAccount(account) : Promise.resolve()).catch(function () {}).then(function () {
      if (keepable(url, response)) keep(path, response.clone()).then(done, function () { done(false); });
      else done(false);
      return response;
    });
  }, function (error) { done(false); throw error; });
  var fallback = function () {  // the kept page, only when it was kept for the account the phone saw last
    return Promise.all([phoneAccount(), caches.open(PAGES).then(function (cache) { return cache.match(url.pathname); })])
      .then(function (got) {
        var account = got[0], hit = got[1];
        if (hit && signedIn(account) && accountOf(hit) === account) return marked(hit);  // page.js checks it, online
        return caches.open(SHELL_CACHE).then(function (cache) { return cache.match("/offline"); })
          .then(function (offline) { return offline || caches.match("/offline"); });
      });
  };
  var slow = new Promise(function (resolve) {
    setTimeout(function () { fallback().then(function (hit) { if (hit) resolve(hit); }); }, NETWORK_WAIT_MS);
  });
  return Promise.race([network.catch(fallback), slow]);
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // Players' call pages (a table's QR code) are the network's alone: never a judge's kept page or offline page.
  if (url.pathname.indexOf("/call/") === 0) return;
  if (request.method !== "GET") {  // something changes on the server: no page is taken as current until checked again
    postedAt = Date.now();
    fresh = null;
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(page(request, url));
  } else if (DATA_PATH.test(url.pathname) && url.search) {
    event.respondWith(dataFile(request, url));
  } else if (SHELL.indexOf(url.pathname + url.search) !== -1) {  // a versioned static URL carries its query
    event.respondWith(caches.open(SHELL_CACHE).then(function (cache) { return cache.match(url.pathname + url.search); })
      .then(function (hit) { return hit || fetch(request); }));
  } else if (LAZY.indexOf(url.pathname + url.search) !== -1) {
    event.respondWith(lazyFile(request, url));
  }
});

// A file of LAZY: from the shell's cache, else fetched and kept there (for this version of the shell).
function lazyFile(request, url) {
  var key = url.pathname + url.search;
  return caches.open(SHELL_CACHE).then(function (cache) {
    return cache.match(key).then(function (hit) {
      return hit || fetch(request).then(function (response) {
        if (response.ok && !response.redirected && response.type === "basic") {
          return cache.put(key, response.clone()).catch(function () {}).then(function () { return response; });
        }
        return response;
      });
    });
  });
}

function dataFile(request, url) {
  return caches.open(DATA).then(function (cache) {
    return cache.match(url.pathname + url.search).then(function (hit) {
      return hit || fetch(request).then(function (response) {
        if (!response.ok || response.redirected) return response;
        var copy = response.clone();
        return cache.keys().then(function (keys) {  // the same file's other versions go
          return Promise.all(keys.filter(function (k) { return new URL(k.url).pathname === url.pathname; })
            .map(function (k) { return cache["delete"](k); }));
        }).then(function () { return cache.put(url.pathname + url.search, copy); })
          .catch(function () {}).then(function () { return response; });
      });
    });
  });
}

// The page asks for the pages of the judge's events to be kept (static/js/page.js): `urls`, the ones the phone has no
// current copy of, are fetched (once, even when asked again meanwhile); then `urls` and `current` (the copies the phone
// already has, checked against the copy of the events) are recorded as `fresh` until `until`. Done here, it finishes
// even when the judge moves on to another page.
function fetchAndKeep(path) {
  return current(path) || register(path, fetch(path, { credentials: "same-origin" }).then(function (response) {
    if (keepable(new URL(path, self.location.origin), response)) return keep(path, response).then(function () { return true; });
    return false;
  }).catch(function () { return false; }));
}

// Whose phone this is, before any page is copied for the page that asks. A judge who signs in while this worker still
// installs (a first visit: judges sign in at once) gets the page after signing in from the network, not through this
// worker, which so knows no account, or only the signed-out login page's: the pages it copied would all be refused,
// and fetched again later (issue 36, the sign-in race). The server says which account this browser's cookie is:
// only when the worker knows no signed-in account, and never taken from the page's word.
function learnAccount(asked) {
  return phoneAccount().then(function (account) {
    if (signedIn(account) || !signedIn(asked)) return account;
    return fetch("/offline/token", { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } })
      .then(function (response) {
        var told = accountOf(response);
        return told ? setPhoneAccount(told).then(function () { return told; }) : account;
      }).catch(function () { return account; });
  });
}

self.addEventListener("message", function (event) {
  var data = event.data;
  if (data && data.type === "fresh?") {  // the browser tests ask what is taken as current
    if (event.ports[0]) event.ports[0].postMessage(fresh);
    return;
  }
  // The offline page in the shell is in the language of the request that kept it (the browser's, at the install);
  // a judge whose account asks for another language gets it kept again in that one (page.js asks, online).
  if (data && data.type === "keep-offline") {
    event.waitUntil(fetch("/offline", { credentials: "same-origin", cache: "no-store" }).then(function (response) {
      if (!response.ok || response.redirected) return;
      return caches.open(SHELL_CACHE).then(function (cache) { return cache.put("/offline", response); });
    }).catch(function () {}));
    return;
  }
  if (data && data.type === "not-current") {  // signed out here, or the event changed: no kept page is current now
    fresh = null;
    if (event.ports[0]) event.ports[0].postMessage(true);
    return;
  }
  if (!data || data.type !== "keep-pages") return;
  // kept once per version: a file the phone has is not fetched again (the finder's words; the page's catalog)
  (data.files || []).forEach(function (file) {
    var url = new URL(file, self.location.origin);
    if (url.origin === self.location.origin && DATA_PATH.test(url.pathname) && url.search) {
      event.waitUntil(dataFile(new Request(url.href, { credentials: "same-origin" }), url).catch(function () {}));
    } else if (url.origin === self.location.origin && LAZY.indexOf(url.pathname + url.search) !== -1) {
      event.waitUntil(lazyFile(new Request(url.href, { credentials: "same-origin" }), url).catch(function () {}));
    }
  });
  var mine = null;
  event.waitUntil(learnAccount(data.account).then(function (account) {
    if (account === data.account && data.checked > postedAt) {
      mine = fresh = { account: account, checked: data.checked, until: data.until, urls: (data.current || []).slice() };
    }
    return Promise.all(data.urls.map(function (path) {
      var done = keptAt[path] >= data.checked && !fetching[path] ? Promise.resolve(true) : fetchAndKeep(path).then(
        function (kept) {  // joined a fetch answered before the phone knew this account (a load not yet controlled): once more
          if (kept) return true;
          return phoneAccount().then(function (now) { return now === data.account ? fetchAndKeep(path) : false; });
        });
      // each page counts as current from the moment it is kept (unless something was sent meanwhile)
      return done.then(function (kept) { if (kept && mine && fresh === mine) mine.urls.push(path); });
    }));
  }).catch(function () {}));
});
