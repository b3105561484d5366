// Live lists (the head judge's feed, the appeals and the judge-call queues): refreshed every few seconds (the
// element's data-every, in ms; 4 s by default) without reloading the page.
function keepFeedFresh() {
  var feed = document.getElementById("feed");
  if (!feed) return;
  function refresh() {
    fetch(feed.dataset.url, { credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) { feed.innerHTML = html; })  // server-rendered, escaped by the template
      .catch(function () {});
  }
  setInterval(refresh, parseInt(feed.dataset.every, 10) || 4000);
}

keepFeedFresh();
