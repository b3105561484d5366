// Head judge feed: refresh the list every few seconds without reloading the page.
function keepFeedFresh() {
  var feed = document.getElementById("feed");
  if (!feed) return;
  function refresh() {
    fetch(feed.dataset.url, { credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) { feed.innerHTML = html; })  // server-rendered, escaped by the template
      .catch(function () {});
  }
  setInterval(refresh, 4000);
}

keepFeedFresh();
