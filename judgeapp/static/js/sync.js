// Sending the outbox: the signed-in judge's waiting records go in the order they were logged, each with a fresh CSRF
// token; the server stores each one-time key once. One sender at a time across the phone's tabs (Web Locks).
import { formBody, nextStep, refusalMessage, SEND_TIMEOUT_MS } from "./outbox.js";
import { keepSent, markWaited, Outbox } from "./storage.js";

// fetch with the session's cookies, given up after SEND_TIMEOUT_MS (an overloaded venue network).
export function request(url, options) {
  var abort = new AbortController();
  var timer = setTimeout(function () { abort.abort(); }, SEND_TIMEOUT_MS);
  options.signal = abort.signal;
  options.credentials = "same-origin";
  return fetch(url, options).then(function (r) { clearTimeout(timer); return r; },
                                   function (e) { clearTimeout(timer); throw e; });
}

export function freshToken() {
  return request("/offline/token", { headers: { Accept: "application/json" }, cache: "no-store" })
    .then(function (r) { return r.status === 401 ? { signedOut: true } : r.json(); });
}

// One record, as the page would post it; resolves with the server's JSON answer and its status.
function post(record, token) {
  return request(record.url, { method: "POST", body: formBody(record, token), redirect: "manual",
                               headers: { Accept: "application/json", "X-CSRFToken": token.csrf_token } })
    .then(function (r) {
      if (r.type === "opaqueredirect" || r.status === 401) return { signedOut: true };
      var json = (r.headers.get("Content-Type") || "").indexOf("json") !== -1;
      return (json ? r.json() : Promise.resolve({})).then(function (body) { body.status = r.status; return body; });
    });
}

// Send the signed-in judge's waiting records in the order they were logged.
// Resolves with {sent, offline, signedOut, results: {key: outcome}}.
export function syncNow() {
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
            switch (nextStep(answer, retried)) {
              case "signed-out":
                outcome.signedOut = true;
                return outcome;
              case "sent":
                outcome.sent++; outcome.results[record.key] = { ok: true, answer: answer };
                return keepSent(record, answer).then(function () { return Outbox.remove(record.key); })
                  .then(function () { return next(i + 1); });
              case "new-token":
                return freshToken().then(function (t) { token = t; return t.ok ? next(i, true) : outcome; });
              case "retry":  // try again later, keeping the order
                outcome.results[record.key] = { retry: true, status: answer.status };
                return outcome;
              default:
                record.state = "rejected";
                record.errors = answer.errors || {};
                record.message = refusalMessage(answer);
                outcome.results[record.key] = { rejected: true, answer: answer, message: record.message };
                return Outbox.put(record).then(function () { return next(i + 1); });
            }
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
