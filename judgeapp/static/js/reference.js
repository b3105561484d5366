// Quick reference: the finder as the judge types, without a page reload: search.js `rank` over the policy's file
// (the list's data-finder: the incident form's file, one per policy version, cached for a year and kept by the
// service worker for offline use; the incident form's picker searches the same, in the same order; the server's `?q=`
// too: judgeapp/reference/services.py), best first; the rest hidden. An empty search lists every infraction in the
// policy's order. With no network the phone has no copy of the page (the worker does not keep it): the offline page it
// shows instead renders the reference from the same file (`offlineReference`), the list as the server renders it.
import { _, locale, ngettext } from "./i18n.js";
import { nameIn, rangeLabel, ruleApplies } from "./engine.js";
import { entriesOf, fold, NAME, rank } from "./search.js";

// What the page shows for a search, best first: a code typed lists the codes it is or starts, not the texts that
// merely mention it (as the picker). null: everything, in the policy's order.
export function foundCodes(entries, query) {
  if (!String(query || "").trim()) return null;
  var hits = rank(entries, query);
  var byCode = function (h) { return h.kind === "code" || h.kind === "code-prefix"; };
  if (hits.some(byCode)) hits = hits.filter(byCode);
  return hits.map(function (h) { return h.code; });
}

// `loaded`: the finder entries when the page was made from the file (offline), else the file is fetched.
function filterAsTyped(loaded, onLevel) {
  var input = document.getElementById("q");
  var list = document.getElementById("infractions");
  var count = document.getElementById("count");
  var form = input && input.form;
  if (!input || !list) return;
  var items = {};
  Array.prototype.forEach.call(list.querySelectorAll(".infraction"), function (item) { items[item.dataset.code] = item; });
  // Until the finder file is here (a moment online; at once from the phone's cache offline) the names the page lists
  // are searched; then what was typed is searched again, as if typed now.
  var entries = loaded || Array.prototype.map.call(list.querySelectorAll(".infraction"), function (item) {
    return { code: item.dataset.code, fields: [[NAME, fold(item.querySelector(".name").textContent)]] };
  });
  var total = entries.length;
  if (!loaded && list.dataset.finder) {
    fetch(list.dataset.finder, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (file) {
        var found = entriesOf(file);
        if (!found || !found.length) return;
        entries = found.filter(function (e) { return items[e.code]; });
        list.dataset.finderLoaded = "1";
        if (input.value.trim()) filter();
      })
      .catch(function () {});
  }

  function filter() {
    var q = input.value.trim();
    var codes = foundCodes(entries, q), shown = codes ? codes : entries.map(function (e) { return e.code; });
    var first = {};
    shown.forEach(function (code) { first[code] = true; });
    // best first, then the rest (hidden) in the policy's order: appendChild moves each to the end, in turn
    shown.concat(entries.map(function (e) { return e.code; }).filter(function (c) { return !first[c]; }))
      .forEach(function (code) {
        var item = items[code];
        if (!item) return;
        item.hidden = !first[code];
        list.appendChild(item);
      });
    count.textContent = ngettext("%(shown)s of %(num)s infraction", "%(shown)s of %(num)s infractions", total,
                                 { shown: shown.length });
    var url = new URL(window.location.href);
    if (q) { url.searchParams.set("q", input.value); } else { url.searchParams.delete("q"); }
    window.history.replaceState(null, "", url);
  }

  input.addEventListener("input", filter);
  form.addEventListener("submit", function (e) { e.preventDefault(); filter(); });
  var level = document.getElementById("level");
  level.addEventListener("change", function () { if (onLevel) { onLevel(level.value); } else { form.submit(); } });
  var policy = document.getElementById("policy-select");
  if (policy) {
    policy.addEventListener("change", function () {
      window.location.href = policy.dataset.nav + encodeURIComponent(policy.value);
    });
  }
  if (loaded && input.value.trim()) filter();
}

// ---- the reference from the policy's file (export.py `policy_file`), as reference/policy.html renders it ----

function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}
function textIn(texts, lang) { return (texts || {})[lang] || (texts || {}).en || ""; }
// A translated sentence with elements in it: `msgid` with each %(key)s of `parts` an element, the rest text.
function withParts(msgid, parts, values) {
  var marks = {}, names = Object.keys(parts);
  names.forEach(function (k, i) { marks[k] = "\u0000" + i + "\u0000"; });
  var out = document.createDocumentFragment();
  _(msgid, Object.assign({}, values || {}, marks)).split("\u0000").forEach(function (piece, i) {
    if (i % 2) { out.appendChild(parts[names[parseInt(piece, 10)]]); } else if (piece) { out.appendChild(document.createTextNode(piece)); }
  });
  return out;
}

function ruleLinks(rules, lang) {
  var span = document.createDocumentFragment();
  rules.forEach(function (r, i) {
    var a = el("a", "", ((r.sections || {})[lang] || r.section) + (r.name ? " (" + nameIn(r, lang) + ")" : lang === "en" ? " (" + r.id.replace(/-/g, " ") + ")" : ""));
    a.href = "#rule-" + r.id;
    span.appendChild(a);
    if (i < rules.length - 1) span.appendChild(document.createTextNode(" · "));
  });
  return span;
}

function repeatsLine(policy, inf, ref, level, lang) {
  var p = el("p", "muted repeats");
  if (inf.repeats === "tracking_only") {
    p.textContent = _("Repeats: recorded only, never counted nor upgraded.");
  } else if (inf.repeats === "never_upgraded") {
    p.textContent = _("Repeats: never upgraded (it still counts towards others' repeats).");
  } else {
    var rules = policy.repeat_rules.filter(function (r) { return ruleApplies(r, inf, level); });
    if (!rules.length) p.textContent = _("Repeats: no upgrade rule at this level.");
    var applied = rules.filter(function (r) { return !r.offered; }), offered = rules.filter(function (r) { return r.offered; });
    if (applied.length) p.appendChild(withParts("Repeats: upgraded under %(rules)s.", { rules: ruleLinks(applied, lang) }));
    if (offered.length) {
      if (applied.length) p.appendChild(document.createTextNode(" "));
      p.appendChild(withParts("Repeats: the judge may escalate under %(rules)s, never by itself.", { rules: ruleLinks(offered, lang) }));
    }
  }
  if (ref.repeat_any_action) p.appendChild(document.createTextNode(" " + _("Counted even for different actions.")));
  return p;
}

function infractionItem(file, inf, ref, level, lang) {
  var policy = file.policy, li = el("li", "infraction"), details = el("details"), summary = el("summary");
  li.dataset.code = inf.code;
  var d = inf.penalized && inf.defaults ? inf.defaults[String(level)] : null;
  summary.appendChild(el("span", "code", inf.code));
  summary.appendChild(document.createTextNode(" "));
  summary.appendChild(el("span", "name", nameIn(inf, lang)));
  summary.appendChild(document.createTextNode(" "));
  summary.appendChild(el("span", "penalty", (!inf.penalized ? _("No penalty") : d ? rangeLabel(policy, d, lang) : _("Judge's discretion")) +
    (inf.head_judge_only ? " · " + _("head judge decides") : "")));
  details.appendChild(summary);
  var detail = el("div", "detail");
  detail.appendChild(el("p", "notes", textIn(ref.notes, lang)));
  if (ref.remedy.en) {
    var remedy = el("p");
    remedy.appendChild(el("strong", "", _("Remedy:")));
    remedy.appendChild(document.createTextNode(" "));
    remedy.appendChild(el("span", "remedy", textIn(ref.remedy, lang)));
    detail.appendChild(remedy);
  }
  if (inf.defaults) {
    var scroll = el("div", "scroll");
    scroll.tabIndex = 0; scroll.setAttribute("role", "region");
    scroll.setAttribute("aria-label", _("%(code)s: default penalty by level (scrolls sideways when narrow)", { code: inf.code }));
    var table = el("table", "table levels"), head = el("tr"), body = el("tbody"), thead = el("thead");
    head.appendChild(el("th", "", _("Level"))); head.appendChild(el("th", "", _("Default penalty")));
    thead.appendChild(head); table.appendChild(thead);
    policy.levels.forEach(function (lv) {
      var tr = el("tr", lv.number === level ? "current" : "");
      tr.appendChild(el("td", "", nameIn(lv, lang)));
      tr.appendChild(el("td", "", rangeLabel(policy, inf.defaults[String(lv.number)], lang)));
      body.appendChild(tr);
    });
    table.appendChild(body); scroll.appendChild(table); detail.appendChild(scroll);
  }
  inf.alternatives.forEach(function (alt) {
    var p = el("p", "alt"), levels = alt.levels.map(function (n) {
      return nameIn(policy.levels.filter(function (lv) { return lv.number === n; })[0] || { name: String(n) }, lang);
    }).join(", ");
    p.appendChild(el("strong", "", _("Instead:")));
    p.appendChild(document.createTextNode(" " + _("%(penalty)s when %(condition)s (%(levels)s).", {
      penalty: rangeLabel(policy, alt.penalty, lang), condition: (alt.conditions || {})[lang] || alt.condition, levels: levels })));
    detail.appendChild(p);
  });
  var sub = file.reference.subsections[inf.subsection] || { name: "" };
  var subLine = el("p", "muted");
  subLine.appendChild(withParts("Sub-section %(number)s: %(name)s", { name: el("span", "sub", nameIn(sub, lang)) }, { number: inf.subsection }));
  if (ref.synonyms.length && lang === "en") {
    subLine.appendChild(document.createTextNode(" · "));
    subLine.appendChild(withParts("the text also says: %(words)s", { words: el("span", "syn", ref.synonyms.join(", ")) }));
  }
  detail.appendChild(subLine);
  detail.appendChild(repeatsLine(policy, inf, ref, level, lang));
  if (ref.section_note.en) detail.appendChild(el("p", "muted", textIn(ref.section_note, lang)));
  details.appendChild(detail);
  li.appendChild(details);
  return li;
}

function rankNames(policy, ids, lang) {
  return policy.ranks.filter(function (r) { return ids.indexOf(r.id) !== -1; }).map(function (r) { return nameIn(r, lang); }).join(", ");
}

// The reference of `file` at `level` into `main`: the heading, the search, the list, the ranks, upgrades and levels.
export function renderReference(main, file, level, query) {
  var policy = file.policy, lang = locale.split("-")[0], ref = file.reference;
  if (!policy.levels.some(function (lv) { return lv.number === level; })) level = policy.levels[0].number;
  main.textContent = "";
  var note = el("p", "flash flash-info", _("No network"));
  note.setAttribute("role", "status");
  main.appendChild(note);
  main.appendChild(el("h1", "", nameIn(policy, lang)));
  main.appendChild(el("p", "muted", _("Version %(version)s · %(source)s", { version: policy.version, source: textIn(ref.source, lang) })));
  var form = el("form", "search"), levelField = el("div", "field"), searchField = el("div", "field");
  form.setAttribute("role", "search");
  var levelLabel = el("label", "", _("Level")), select = el("select");
  levelLabel.htmlFor = select.id = select.name = "level";
  policy.levels.forEach(function (lv) {
    var o = el("option", "", nameIn(lv, lang)); o.value = lv.number; o.selected = lv.number === level; select.appendChild(o);
  });
  levelField.appendChild(levelLabel); levelField.appendChild(select);
  var qLabel = el("label", "", _("Search by code or words")), input = el("input");
  qLabel.htmlFor = input.id = input.name = "q";
  input.type = "search"; input.autocomplete = "off"; input.placeholder = _("e.g. 3.5 or extra cards"); input.value = query || "";
  searchField.appendChild(qLabel); searchField.appendChild(input);
  form.appendChild(levelField); form.appendChild(searchField);
  main.appendChild(form);
  var count = el("p", "muted", ngettext("%(shown)s of %(num)s infraction", "%(shown)s of %(num)s infractions",
                                         policy.infractions.length, { shown: policy.infractions.length }));
  count.id = "count"; count.setAttribute("aria-live", "polite");
  main.appendChild(count);
  var list = el("ul", "list infractions");
  list.id = "infractions";
  policy.infractions.forEach(function (inf, i) { list.appendChild(infractionItem(file, inf, ref.infractions[i], level, lang)); });
  main.appendChild(list);

  var card = el("section", "card");
  card.appendChild(el("h2", "", _("Penalty ranks")));
  card.appendChild(el("p", "", policy.ranks.length ? policy.ranks.map(function (r) { return nameIn(r, lang); }).join(" < ")
    : _("The text names no penalty: no penalty is suggested.")));
  card.appendChild(el("p", "muted", _("Only the head judge issues: %(ranks)s.", { ranks: rankNames(policy, policy.head_judge_only, lang) || _("any judge may issue every rank") }) +
    " " + _("Report to the head judge: %(ranks)s.", { ranks: rankNames(policy, policy.report_to_head_judge, lang) || _("nothing required") })));
  card.appendChild(el("h2", "", _("Upgrades")));
  if (policy.repeat_rules.length) {
    var rules = el("ul", "plain");
    rules.id = "repeat-rules";
    policy.repeat_rules.forEach(function (r, i) {
      var li = el("li", "", textIn(ref.repeat_rules[i], lang) + " ");
      li.id = "rule-" + r.id;
      var section = (r.sections || {})[lang] || r.section;
      var levels = r.levels.slice().sort().map(function (n) {
        return nameIn(policy.levels.filter(function (lv) { return lv.number === n; })[0] || { name: String(n) }, lang);
      }).join(_(" and "));
      li.appendChild(el("span", "muted", levels ? _("(%(section)s; %(levels)s only)", { section: section, levels: levels }) : "(" + section + ")"));
      if (r.offered) { li.appendChild(document.createTextNode(" ")); li.appendChild(el("strong", "offered", _("The judge's call: offered, never applied by itself."))); }
      rules.appendChild(li);
    });
    card.appendChild(rules);
  } else {
    var none = el("p", "muted", _("The text states no upgrade rule: judgeapp never upgrades a penalty of this policy by itself; repeats are for the head judge to weigh."));
    none.id = "repeat-rules";
    card.appendChild(none);
  }
  card.appendChild(el("h2", "", _("Levels")));
  var facts = el("dl", "facts");
  policy.levels.forEach(function (lv, i) { facts.appendChild(el("dt", "", nameIn(lv, lang))); facts.appendChild(el("dd", "", textIn(ref.levels[i], lang))); });
  card.appendChild(facts);
  main.appendChild(card);
  document.title = nameIn(policy, lang) + " · judgeapp";
  var entries = entriesOf(file);
  list.dataset.finderLoaded = "1";
  filterAsTyped(entries, function (value) {
    var url = new URL(window.location.href);
    url.searchParams.set("level", value);
    window.history.replaceState(null, "", url);
    renderReference(main, file, parseInt(value, 10), input.value);
  });
}

// The offline page shown at a reference's address (/reference/<policy> or /reference/events/<id>): the reference from
// the policy's file the service worker keeps (sw.js DATA: /offline/finder/<policy>.json or …/events/<id>.json).
function offlineReference() {
  var m = location.pathname.match(/^\/reference\/(?:events\/(\d+)|([^/]+))$/);
  var main = document.querySelector("main");
  if (!m || !main || !self.caches) return;
  var want = m[1] ? "/offline/finder/events/" + m[1] + ".json" : "/offline/finder/" + m[2] + ".json";
  caches.open("judgeapp-data").then(function (cache) {
    return cache.keys().then(function (keys) {
      var key = keys.filter(function (k) { return new URL(k.url).pathname === want; })[0];
      return key ? cache.match(key).then(function (r) { return r.json(); }) : null;
    });
  }).then(function (file) {
    if (!file || !file.policy) return;
    var params = new URLSearchParams(location.search);
    renderReference(main, file, parseInt(params.get("level"), 10), params.get("q") || "");
  }).catch(function () {});
}

if (document.body.dataset.offlinePage) { offlineReference(); } else { filterAsTyped(null, null); }
