// The server's clock on the phone (pure; tests/js/servertime.test.mjs). A page carries the server's time when it was
// made (data-now); the phone's own clock may be minutes off. Live times (the round clock, a judge call's stopwatch and
// the minutes it proposes) count by the phone's clock plus the difference seen when the page loaded.
export function skewOf(serverIso, phoneNow) {
  var server = Date.parse(serverIso || "");
  return isNaN(server) ? 0 : server - phoneNow;  // server minus phone; no server time given: the phone's own
}

// A function giving the server's time now (ms), from the server's time the page carries.
export function serverClock(serverIso) {
  var skew = skewOf(serverIso, Date.now());
  return function () { return Date.now() + skew; };
}
