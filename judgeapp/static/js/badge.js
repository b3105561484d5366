// The header's live badges (appeals waiting for the head judge, judge calls waiting): refreshed every few seconds, so a
// new appeal or call shows on every page without a reload. Each badge names its JSON address and how to read it out.
function keepBadgeFresh(link) {
  var count = link.querySelector(".count");
  function refresh() {
    fetch(link.dataset.url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (body) {
        count.textContent = String(body.count);
        count.classList.toggle("zero", !body.count);
        count.setAttribute("aria-label", body.count + " " + link.dataset.say);
      })
      .catch(function () {});
  }
  setInterval(refresh, parseInt(link.dataset.every, 10) || 4000);
}

document.querySelectorAll("a[data-badge]").forEach(keepBadgeFresh);
