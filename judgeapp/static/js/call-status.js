// The player's call page: while the call is live, its status is fetched again every 10 s and replaced in place (read
// out politely by screen readers). No page refresh, which would move a reader back to the top; without script the
// "Refresh" link does the same by hand.
var box = document.getElementById("call-status");
if (box) {
  var timer = setInterval(function () {
    fetch(location.href, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("call-status");
        if (!fresh) { clearInterval(timer); location.reload(); return; }  // closed: the page offers the button again
        if (fresh.innerHTML !== box.innerHTML) box.innerHTML = fresh.innerHTML;  // our own server's escaped page
      })
      .catch(function () {});
  }, 10000);
}
