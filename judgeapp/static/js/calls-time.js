// Pure (tests/js/calls.test.mjs): a stopwatch's reading, m:ss under an hour, h:mm:ss after; never negative.
export function elapsedText(ms) {
  var s = Math.max(0, Math.floor((ms || 0) / 1000));
  var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  var two = function (n) { return (n < 10 ? "0" : "") + n; };
  return h ? h + ":" + two(m) + ":" + two(sec) : m + ":" + two(sec);
}
