// The player's call page: while the call is live, its status is fetched again every 10 s (the box's data-every, in
// ms: JUDGEAPP_CALL_STATUS_EVERY_MS) and replaced in place (read out politely by screen readers). No page refresh,
// which would move a reader back to the top; without script the "Refresh" link does the same by hand (and the page
// does not claim to update by itself).
// Once the call has ended (answered, or closed by the head judge) or the event has closed (409), the page becomes the
// server's page as it is now, saying so, and stops asking.
var box = document.getElementById("call-status");
if (box && !box.dataset.ended) {
  var claim = document.querySelector(".auto");
  if (claim) claim.hidden = false;
  var main = document.querySelector("main");
  var ended = function (doc) {
    clearInterval(timer);
    var fresh = doc.querySelector("main");
    if (!fresh) { location.reload(); return; }
    main.innerHTML = fresh.innerHTML;  // our own server's escaped page
    var said = main.querySelector("#call-state");
    if (said) { said.tabIndex = -1; said.focus(); }  // read out at once, where the reader is
  };
  var timer = setInterval(function () {
    fetch(location.href, { credentials: "same-origin" })
      .then(function (r) {
        // 200: the table's page; 404 and 409: the link or the event no longer takes calls. Anything else (429,
        // a server error, no network) is asked again in 10 s.
        if (!r.ok && r.status !== 404 && r.status !== 409) return Promise.reject(r.status);
        return r.text().then(function (html) {
          var doc = new DOMParser().parseFromString(html, "text/html");
          var fresh = doc.getElementById("call-status");
          if (!r.ok || !fresh || fresh.dataset.ended) { ended(doc); return; }
          if (fresh.innerHTML !== box.innerHTML) box.innerHTML = fresh.innerHTML;
        });
      })
      .catch(function () {});
  }, parseInt(box.dataset.every, 10) || 10000);
}
