// Quick reference: filter infractions as the judge types, without a page reload.
import { fold, matches } from "./search.js";

function filterAsTyped() {
  var input = document.getElementById("q");
  var items = Array.prototype.slice.call(document.querySelectorAll("#infractions .infraction"));
  var count = document.getElementById("count");
  var form = input && input.form;
  if (!input || !items.length) return;

  // What a judge might type to find an infraction, as the server searches (judgeapp/infractions/search.py): code,
  // name, sub-section, notes, remedy and the text's own other words for it, read from the page (not sent twice in an
  // attribute), and the names the page does not show (English, Japanese) with their kana readings (data-words);
  // folded as search.js compares (katakana as hiragana, half-width as full).
  function part(item, selector) { var e = item.querySelector(selector); return e ? e.textContent : ""; }
  items.forEach(function (item) {
    item.searchText = fold([item.dataset.code, part(item, ".name"), part(item, ".sub"), part(item, ".notes"),
                            part(item, ".remedy"), part(item, ".syn"), item.dataset.words || ""].join(" "));
  });

  function filter() {
    var q = input.value.trim();
    var shown = 0;
    items.forEach(function (item) {
      var ok = matches(item.dataset.code, item.searchText, q);
      item.hidden = !ok;
      if (ok) shown += 1;
    });
    count.textContent = shown + " of " + items.length + " infractions";
    var url = new URL(window.location.href);
    if (q) { url.searchParams.set("q", input.value); } else { url.searchParams.delete("q"); }
    window.history.replaceState(null, "", url);
  }

  input.addEventListener("input", filter);
  form.addEventListener("submit", function (e) { e.preventDefault(); filter(); });
  var level = document.getElementById("level");
  level.addEventListener("change", function () { form.submit(); });
  var policy = document.getElementById("policy-select");
  if (policy) {
    policy.addEventListener("change", function () {
      window.location.href = policy.dataset.nav + encodeURIComponent(policy.value);
    });
  }
}

filterAsTyped();
