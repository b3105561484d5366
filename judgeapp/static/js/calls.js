// A taken judge call's stopwatch: the time since the player called (the match stopped then), counted live.
import { elapsedText } from "./calls-time.js";

var watch = document.getElementById("stopwatch");
if (watch) {
  var start = Date.parse(watch.dataset.start), out = watch.querySelector(".elapsed");
  var tick = function () { out.textContent = elapsedText(Date.now() - start); };
  tick();
  setInterval(tick, 1000);
}
