// The head judge's appeals badge: refreshed every few seconds, so a new appeal shows without a reload.
function keepBadgeFresh() {
  var link = document.getElementById("appeals-badge");
  if (!link) return;
  var count = link.querySelector(".count");
  function refresh() {
    fetch(link.dataset.url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (body) {
        count.textContent = String(body.count);
        count.classList.toggle("zero", !body.count);
        count.setAttribute("aria-label", body.count + " appeals waiting for you");
      })
      .catch(function () {});
  }
  setInterval(refresh, 4000);
}

keepBadgeFresh();
