// A taken judge call's stopwatch: the time since the player called (the match stopped then), counted live by the
// server's clock (the phone's may be off: servertime.js).
import { elapsedText } from "./calls-time.js";
import { serverClock } from "./servertime.js";

var watch = document.getElementById("stopwatch");
if (watch) {
  var start = Date.parse(watch.dataset.start), out = watch.querySelector(".elapsed"), now = serverClock(watch.dataset.now);
  var tick = function () { out.textContent = elapsedText(now() - start); };
  tick();
  setInterval(tick, 1000);
}
