// Round clock: live countdowns from the server's times, corrected for the phone's clock being off (servertime.js).
import { _ } from "./i18n.js";
import { serverClock } from "./servertime.js";

function startClock() {
  var clock = document.getElementById("clock");
  if (!clock) return;
  var serverNow = serverClock(clock.dataset.now);
  var items = document.querySelectorAll(".countdown[data-end]");
  function fmt(ms) {
    var s = Math.round(Math.abs(ms) / 1000), m = Math.floor(s / 60);
    return m + ":" + ("0" + (s % 60)).slice(-2);
  }
  function tick() {
    var now = serverNow();
    items.forEach(function (el) {
      var left = Date.parse(el.dataset.end) - now;
      el.textContent = left > 0 ? _("%(time)s left", { time: fmt(left) }) : _("time (%(time)s ago)", { time: fmt(left) });
      el.classList.toggle("over", left <= 0);
    });
  }
  tick();
  setInterval(tick, 1000);
}

startClock();
