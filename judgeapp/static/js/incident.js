// Incident form: player pick list, table chips, infraction search, live penalty suggestion (from the server, or
// offline from engine.js over the phone's copy), call stopwatch, a draft kept until the server confirms the save.
import { assistantRanks, confirmRanks, suggest as suggestOnPhone } from "./engine.js";
import { _, ngettext } from "./i18n.js";
import { playersMatching } from "./names.js";
import { fieldMap, playerNamed, venueClock, waitingPriors } from "./outbox.js";
import { entriesOf, fold, NAME, rank } from "./search.js";
import { seatNote, tableKey } from "./seats.js";
import { serverClock } from "./servertime.js";
import { Outbox } from "./storage.js";

function main() {
  var DRAFT = "judgeapp:incident-draft:" + location.pathname;
  var saved = document.querySelector("[data-clear-draft]");
  if (saved) { try { localStorage.removeItem(saved.dataset.clearDraft); } catch (e) {} }
  var form = document.getElementById("incident-form");
  if (!form) return;
  // Never lose what was typed: keep a draft on the phone until the server confirms the save. The draft keeps
  // the form's one-time key, so sending a restored draft again still stores one incident.
  var FIELDS = "input:not([type=hidden]):not([type=submit]):not([type=search]), select, textarea, input[name=infraction_query], input[name=key], input[name=player_id], input[name=call_started_at], input[name=deck_check_id]";
  function saveDraft() {
    var data = {};
    form.querySelectorAll(FIELDS).forEach(function (el) {
      if (el.type === "radio") { if (el.checked) data[el.name] = el.value; }
      else if (el.type === "checkbox") data[el.name] = el.checked;
      else data[el.name] = el.value;
    });
    try { localStorage.setItem(DRAFT, JSON.stringify(data)); } catch (e) {}
  }
  function readDraft() {
    if (form.dataset.rerender) return null;  // the server sent back what was posted: it wins
    var data;
    try { data = JSON.parse(localStorage.getItem(DRAFT) || "null"); } catch (e) { data = null; }
    if (!data) return null;
    var typed = Object.keys(data).some(function (k) {
      return ["player", "description", "spectator", "extension", "deviation_reason"].indexOf(k) !== -1 && data[k];
    });
    return typed ? data : null;
  }
  // The same form loaded again (a reload, back or forward) gets its draft back at once; a New incident opened afresh
  // (for another call, table or player) asks first, naming the draft, and restores it only on a tap (issue 33, guard 5).
  function restoreDraft() {
    var data = readDraft();
    if (!data) return false;
    var nav = performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
    if (!nav || (nav.type !== "reload" && nav.type !== "back_forward")) { askDraft(data); return false; }
    applyDraft(data);
    return true;
  }
  function askDraft(data) {
    var note = document.createElement("p");
    note.className = "flash flash-info draft-question"; note.setAttribute("role", "status");
    var what = [data.table && _("table %(table)s", { table: data.table }), data.player || data.spectator, data.infraction]
      .filter(Boolean).join(" · ");
    note.textContent = _("An incident you had not saved is on this phone (%(what)s). Restore it into this form?",
                         { what: what || _("Incident") }) + " ";
    var yes = document.createElement("button"), no = document.createElement("button");
    yes.type = no.type = "button"; yes.className = "button"; no.className = "button";
    yes.textContent = _("Restore it"); no.textContent = _("Discard it");
    yes.addEventListener("click", function () {
      note.remove(); applyDraft(data);
      form.querySelectorAll("[data-kind]").forEach(function (el) { el.hidden = el.dataset.kind !== kind(); });
      form.querySelector(".new-player").hidden = !$("#new_player").checked;
      syncPlayerId(); showTablePlayers(); checkSeat(); drawPicker(); suggest();
    });
    no.addEventListener("click", function () { note.remove(); try { localStorage.removeItem(DRAFT); } catch (e) {} });
    note.appendChild(yes); note.appendChild(document.createTextNode(" ")); note.appendChild(no);
    form.parentNode.insertBefore(note, form);
  }
  function applyDraft(data) {
    form.querySelectorAll(FIELDS).forEach(function (el) {
      if (!(el.name in data)) return;
      if (el.name === "call_started_at" && el.value) return;  // a new call's stopwatch wins
      if (el.type === "radio") el.checked = data[el.name] === el.value;
      else if (el.type === "checkbox") el.checked = !!data[el.name];
      else el.value = data[el.name];
    });
    var note = document.createElement("p");
    note.className = "flash"; note.setAttribute("role", "status");
    note.textContent = _("Restored what you had typed and not yet saved.") + " ";
    var discard = document.createElement("button");
    discard.type = "button"; discard.className = "link"; discard.textContent = _("Start empty");
    discard.addEventListener("click", function () { localStorage.removeItem(DRAFT); location.reload(); });
    note.appendChild(discard);
    form.parentNode.insertBefore(note, form);
  }
  var restored = restoreDraft();
  form.addEventListener("input", saveDraft);
  form.addEventListener("change", saveDraft);
  var $ = function (sel) { return form.querySelector(sel); };
  var playerInput = $("#player"), playerId = $("#player_id"), table = $("#table");
  var infraction = $("#infraction"), search = $("#infraction-search"), penalty = $("#penalty");
  var panel = document.getElementById("suggestion"), reasonField = document.getElementById("reason-field");
  var pendingNote = document.getElementById("pending-note"), extension = $("#extension");
  var assistantNote = document.getElementById("pending-note-assistant");
  var owedHint = document.getElementById("owed-hint");
  var seatingScript = document.getElementById("seating");
  var seating = JSON.parse(seatingScript.textContent || "{}"), seatingRound = seatingScript.dataset.round || "";
  var byes = JSON.parse((document.getElementById("byes") || {}).textContent || "[]");
  // An event of several divisions: the seating, byes and current round of each, by division id; the chosen
  // division's are the ones checked, and choosing another shows its table's players and its current round.
  var division = $("#division"), byDivision = seatingScript.dataset.rounds ? {
    seating: seating, byes: byes, rounds: JSON.parse(seatingScript.dataset.rounds),
  } : null;
  function useDivision(setRound) {
    if (!byDivision || !division) return;
    seating = byDivision.seating[division.value] || {};
    byes = byDivision.byes[division.value] || [];
    seatingRound = String(byDivision.rounds[division.value] || "");
    var roundSelect = $("#round");
    if (setRound && roundSelect && seatingRound) roundSelect.value = seatingRound;
  }
  useDivision(false);
  var seatWarning = document.getElementById("seat-warning");
  var idsByLabel = {}, playerIndex = [];
  document.querySelectorAll("#player-list option").forEach(function (o) {
    idsByLabel[o.value] = o.dataset.id;
    playerIndex.push({
      id: o.dataset.id, label: o.value, name: o.dataset.name || o.value, reading: o.dataset.reading || "",
      handle: o.dataset.handle || "", ids: (o.dataset.ids || "").split("\t").filter(Boolean),
    });
  });
  var last = null, penaltyTouched = !!penalty.value, requestNo = 0, justSaved = 0;

  if (division) {
    division.addEventListener("change", function () { useDivision(true); showTablePlayers(); checkSeat(); });
  }

  function kind() { var c = form.querySelector("input[name=subject_kind]:checked"); return c ? c.value : "player"; }

  function showKind() {
    form.querySelectorAll("[data-kind]").forEach(function (el) { el.hidden = el.dataset.kind !== kind(); });
    suggest(); checkSeat();
  }

  function syncPlayerId() { playerId.value = idsByLabel[playerInput.value] || ""; }

  // A player's button: the pick-list label, and the reading of the name beside it where there is one.
  function playerChip(label, reading) {
    var b = document.createElement("button");
    b.type = "button"; b.className = "chip"; b.textContent = label;
    if (reading) {
      var small = document.createElement("small");
      small.lang = "ja"; small.className = "reading"; small.textContent = reading;
      b.appendChild(document.createTextNode(" ")); b.appendChild(small);
    }
    return b;
  }

  // The players what was typed finds by name, reading, handle or ID, written any width or kana (names.js: ﾔﾏﾀﾞ, やまだ
  // and ヤマダ all find 山田 太郎), one tap from being chosen. Nothing while a listed player is chosen.
  function showMatches() {
    var box = document.getElementById("player-matches");
    if (!box) return;
    box.textContent = "";
    if (kind() !== "player" || playerId.value || $("#new_player").checked) return;
    playersMatching(playerIndex, playerInput.value, 6).forEach(function (p) {
      var b = playerChip(p.label, p.reading);
      b.dataset.id = String(p.id);
      b.addEventListener("click", function () {
        playerInput.value = p.label; playerId.value = p.id; box.textContent = ""; suggest(); checkSeat();
      });
      box.appendChild(b);
    });
  }

  function showTablePlayers() {
    var box = document.getElementById("table-players");
    box.textContent = "";
    var at = tableKey(table.value), seated = seating[at] || [];
    if (!seated.length) return;
    var title = document.createElement("span");
    title.className = "muted";
    title.textContent = _("At table %(table)s:", { table: at });
    box.appendChild(title);
    seated.forEach(function (p) {
      var b = playerChip(p.label, p.reading);
      b.dataset.id = String(p.id);
      b.addEventListener("click", function () {
        playerInput.value = p.label; playerId.value = p.id; suggest(); checkSeat();
        box.querySelectorAll(".chip").forEach(function (c) { c.classList.toggle("on", c === b); });
      });
      box.appendChild(b);
    });
  }

  // The pairings at hand (no network needed): a player who is not seated at the typed table is said at once, with
  // their real table one tap away.
  function checkSeat() {
    var note = seatProblem(), text = note ? note.text : "";
    if (text === seatWarning.dataset.text) return;  // unchanged: the button stays under the judge's finger
    seatWarning.dataset.text = text; seatWarning.textContent = ""; seatWarning.hidden = !text;
    if (!note) return;
    var id = parseInt(playerId.value, 10), at = note.table;
    var p = document.createElement("p"); p.textContent = text; seatWarning.appendChild(p);
    if (at) {
      var b = document.createElement("button");
      b.type = "button"; b.className = "button"; b.textContent = _("Use table %(table)s", { table: at });
      b.addEventListener("click", function () {
        table.value = at; showTablePlayers(); checkSeat(); suggest();
        var chip = Array.prototype.find.call(document.querySelectorAll("#table-players .chip"), function (c) {
          return c.dataset.id === String(id);
        });
        if (chip) chip.classList.add("on");
        table.focus();
      });
      seatWarning.appendChild(b);
    }
  }

  // The seating is of the round the form was opened in: for another round chosen, say nothing.
  function seatProblem() {
    var round = $("#round");
    if (kind() !== "player" || !playerId.value || !seatingRound || (round && round.value !== seatingRound)) return null;
    var name = playerInput.value.split(" · ")[0];
    return seatNote(seating, byes, parseInt(playerId.value, 10), name, table.value);
  }

  // ---- The picker: what the search finds as tappable rows, best first, with full names that wrap. The <select> the
  // server rendered (the form without JS chooses there) stays as the value the form sends, out of sight. A row is
  // chosen only by a tap, or by typing its exact code: never by part of a word. A choice the search no longer finds
  // is dropped at once and said so, and the server refuses one its words do not find (services.chosen_infraction).
  var pickerBox = document.getElementById("infraction-picker"), rowsBox = document.getElementById("picker-rows");
  var pickerHead = document.getElementById("picker-head"), moreButton = document.getElementById("picker-more");
  var staleNote = document.getElementById("infraction-stale"), FIRST_ROWS = 8, showAll = false;
  // Each infraction once, from the select: its code, shown name and sub-section (the finder's entries are what is
  // searched: search.js `rank`, the same order as the server's; they come from the policy's finder file, below).
  var catalog = [], mostUsed = [];
  Array.prototype.forEach.call(infraction.querySelectorAll("option"), function (o) {
    if (!o.value) return;
    if (o.dataset.mostUsed) { mostUsed.push(o.value); return; }
    var group = o.parentNode.tagName === "OPTGROUP" ? o.parentNode.label : "";
    catalog.push({ code: o.value, text: o.textContent, name: o.textContent.slice(o.value.length).trim(), group: group });
  });
  var byCode = {};
  catalog.forEach(function (e) { byCode[e.code] = e; });
  // The finder file: the policy's names, readings and phrases in every language, one file per policy version (the
  // form's data-finder, cached for a year, kept by the service worker for offline use). Until it is here (a moment
  // online; at once from the phone's cache offline) the names the form lists are searched; then what was typed is
  // searched again, as if typed now.
  // The same file is the engine's input for the suggestion offline (`localSuggestion`): not in the copy of the events.
  var finderEntries = catalog.map(function (e) { return { code: e.code, fields: [[NAME, fold(e.name)]] }; });
  var policyFile = !form.dataset.finder ? Promise.resolve(null) : fetch(form.dataset.finder, { credentials: "same-origin" })
    .then(function (r) { return r.ok ? r.json() : null; }).catch(function () { return null; });
  if (form.dataset.finder) {
    policyFile
      .then(function (file) {
        var entries = entriesOf(file);
        if (!entries || !entries.length) return;
        finderEntries = entries;
        form.dataset.finderLoaded = "1";
        rankedFor = { q: null, hits: [] };
        if (search.value.trim()) filterInfractions();
      })
      .catch(function () {});
  }
  var usage = JSON.parse(document.getElementById("infraction-usage").textContent || "{}");
  infraction.hidden = true;
  pickerBox.hidden = false;
  form.querySelector("label[for=infraction]").htmlFor = "infraction-search";

  // Best first (search.js `rank`: an exact code, the start of a code, then names, phrases, notes; ties to what this
  // event uses most); only what the form lists.
  // A code typed lists the codes it is or starts, not the texts that merely mention it.
  var rankedFor = { q: null, hits: [] };
  var byCodeKind = function (h) { return h.kind === "code" || h.kind === "code-prefix"; };
  function hits(q) {
    if (rankedFor.q !== q) {
      var all = rank(finderEntries, q, { lang: document.documentElement.lang, usage: usage })
        .filter(function (h) { return byCode[h.code]; });
      rankedFor = { q: q, hits: all.some(byCodeKind) ? all.filter(byCodeKind) : all };
    }
    return rankedFor.hits;
  }
  function ranked(q) { return hits(q).map(function (h) { return byCode[h.code]; }); }
  function found(e, q) { return hits(q).some(function (h) { return h.code === e.code; }); }

  function pickerRow(e, chosen) {
    var li = document.createElement("li"), b = document.createElement("button");
    b.type = "button"; b.className = "pick"; b.dataset.code = e.code;
    b.setAttribute("aria-pressed", e.code === chosen ? "true" : "false");
    var code = document.createElement("span"); code.className = "pick-code"; code.textContent = e.code;
    var name = document.createElement("span"); name.className = "pick-name"; name.textContent = e.name;
    b.appendChild(code); b.appendChild(document.createTextNode(" ")); b.appendChild(name);
    if (e.group && e.group !== e.text) {  // 4.1 Cheating is the whole of sub-section 4.1 Cheating: named once
      var sub = document.createElement("small"); sub.className = "pick-sub"; sub.textContent = e.group;
      b.appendChild(sub);
    }
    b.addEventListener("click", function () { choose(e.code); });
    li.appendChild(b);
    return li;
  }

  function drawPicker() {
    var q = search.value.trim(), chosen = infraction.value;
    var list = q ? ranked(q) : mostUsed.map(function (c) { return byCode[c]; }).filter(Boolean);
    if (!q && chosen && byCode[chosen] && list.indexOf(byCode[chosen]) === -1) list.unshift(byCode[chosen]);
    pickerHead.textContent = q
      ? (list.length ? ngettext("%(num)s infraction found, best first:", "%(num)s infractions found, best first:", list.length)
                     : _("No infraction matches “%(typed)s”", { typed: q }))
      : (mostUsed.length ? _("Most used at this event:") : "");
    pickerHead.hidden = !pickerHead.textContent;
    rowsBox.textContent = "";
    var shown = showAll ? list : list.slice(0, FIRST_ROWS);
    shown.forEach(function (e) { rowsBox.appendChild(pickerRow(e, chosen)); });
    moreButton.hidden = shown.length === list.length;
    moreButton.textContent = ngettext("Show all %(num)s", "Show all %(num)s", list.length);
  }
  moreButton.addEventListener("click", function () { showAll = true; drawPicker(); });

  var dropped = null;  // the choice the search stopped finding, said until another is chosen
  function choose(code) {
    infraction.value = code; dropped = null;
    staleNote.hidden = true; staleNote.textContent = "";
    search.removeAttribute("aria-invalid");
    drawPicker(); suggest(); saveDraft();
  }

  // Typing: the rows follow the words; an exact code chooses its infraction; a choice the words no longer find goes.
  function filterInfractions() {
    var q = search.value.trim(), chosen = infraction.value;
    showAll = false;
    var exact = q && hits(q).filter(function (h) { return h.kind === "code"; })[0];  // only an exact code chooses
    if (exact && exact.code !== chosen) { choose(exact.code); return; }
    if (chosen && q && byCode[chosen] && !found(byCode[chosen], q)) {
      dropped = byCode[chosen];
      infraction.value = "";
      if (!penaltyTouched) penalty.value = "";
      suggest();
    }
    if (dropped && q) {
      staleNote.textContent = _("“%(typed)s” does not match %(infraction)s: it is no longer chosen. Choose the infraction again.",
                                { typed: q, infraction: dropped.text });
      staleNote.hidden = false;
    }
    drawPicker();
  }

  function checkPenalty() {
    var s = last, chosen = penalty.value;
    var needReason = false;
    var alt = s && chosen ? s.alternatives.filter(function (a) { return a.rank === chosen; })[0] : null;
    if (s && s.suggested && chosen) {
      // below the suggestion or above the default's top, and not the policy's own alternative
      needReason = s.in_range.indexOf(chosen) === -1 && !alt;
    }
    panel.querySelectorAll(".take-alt").forEach(function (b) {
      var on = b.dataset.rank === chosen;
      b.setAttribute("aria-pressed", on ? "true" : "false");
      var taken = b.parentNode.querySelector(".alt-taken");
      if (on && !taken) {
        taken = document.createElement("span"); taken.className = "alt-taken"; taken.setAttribute("role", "status");
        taken.textContent = _("Recorded with the condition as the reason.");
        b.parentNode.appendChild(taken);
      } else if (!on && taken) taken.remove();
    });
    reasonField.hidden = !needReason && !$("#deviation_reason").value;
    // who decides the chosen penalty: the head judge alone, or the head judge or an assistant head judge (confirm:)
    var byAssistant = !!s && (s.assistant_ranks || []).indexOf(chosen) !== -1;
    var needed = !!s && (s.head_judge_infraction || s.head_judge_only.indexOf(chosen) !== -1 ||
                         (s.confirm_ranks || []).indexOf(chosen) !== -1 ||
                         (s.head_judge_range || []).indexOf(chosen) !== -1);  // above the rule's rank (range_to_by)
    pendingNote.hidden = !(needed && s.pending_if_chosen && !byAssistant);
    assistantNote.hidden = !(needed && s.pending_if_chosen && byAssistant && !s.is_assistant);
  }

  function render(s) {
    panel.textContent = "";
    if (!s.ok) { panel.hidden = true; return; }
    panel.classList.toggle("upgraded", !!s.upgraded);  // an upgrade looks like one: the whole panel, not a line in green
    var chosen = byCode[infraction.value];
    if (chosen) {  // the chosen infraction in full, code and name, where the penalty is read
      var named = document.createElement("p");
      named.className = "chosen";
      var code = document.createElement("strong");
      code.textContent = chosen.code;
      named.appendChild(code); named.appendChild(document.createTextNode(" " + chosen.name));
      panel.appendChild(named);
    }
    if (s.local) {
      var where = document.createElement("p");
      where.className = "note local";
      where.textContent = _("No network: worked out on this phone from the history as of %(time)s. The server checks it again when the incident is sent.",
                            { time: venueClock(s.copy_time, document.body.dataset.tz) });
      panel.appendChild(where);
    }
    var h = document.createElement("p");
    h.className = "suggested";
    h.innerHTML = "";
    var strong = document.createElement("strong");
    var linked = s.related_to !== null && s.related_to !== undefined;  // one penalty for related errors
    strong.textContent = linked ? _("No second penalty: same cause as incident #%(number)s", { number: s.related_to })
      : s.suggested_name ? _("Suggested: %(penalty)s", { penalty: s.suggested_name })
      : (s.penalized ? _("No default penalty") : _("Not penalised"));
    h.appendChild(strong);
    if (s.default_label) {
      h.appendChild(document.createTextNode(" · " + _("default at level %(level)s: %(penalty)s", { level: s.level, penalty: s.default_label })));
    }
    panel.appendChild(h);
    var offered = (s.offered || []).length > 0, late = s.minutes_late !== null && s.minutes_late !== undefined;
    // the default is already in the heading line, unless the minutes late chose it or an escalation is offered
    if (s.upgraded || !s.default_label || offered || late || linked) {
      var line = document.createElement("p");
      line.className = s.upgraded ? "upgrade" : (offered ? "note offered" : "muted");
      line.textContent = s.explanation;
      panel.appendChild(line);
    }
    var base = s.upgraded && s.default && s.suggested ? upgradeBase(s) : "";
    if (base) {  // an upgrade names what it upgrades (issue 33, guard 8)
      var from = document.createElement("p");
      from.className = "upgrade-base"; from.textContent = base;
      panel.appendChild(from);
    }
    if (s.because.length) {
      var refs = document.createElement("p");
      refs.appendChild(document.createTextNode(_("Earlier:") + " "));
      s.because.forEach(function (b, i) {
        if (i) refs.appendChild(document.createTextNode(", "));
        if (b.number === null) {  // logged on this phone and not sent yet
          refs.appendChild(document.createTextNode(_("%(infraction)s, round %(round)s (on this phone, not sent yet)",
                                                     { infraction: b.infraction, round: b.round })));
          return;
        }
        var a = document.createElement("a");
        a.href = b.url; a.target = "_blank"; a.rel = "noopener";
        a.textContent = _("#%(number)s (%(infraction)s, round %(round)s)", { number: b.number, infraction: b.infraction, round: b.round });
        refs.appendChild(a);
      });
      panel.appendChild(refs);
    }
    // The policy's own alternative is one tap: its penalty, with its condition as the reason (the server records it;
    // nothing to type). Issue 33, guard 6.
    s.alternatives.forEach(function (alt) {
      var p = document.createElement("p");
      p.className = "alt";
      p.textContent = _("Instead: %(penalty)s when %(condition)s", { penalty: alt.penalty, condition: alt.condition });
      if (alt.rank && penalty.querySelector("option[value='" + alt.rank + "']")) {
        var take = document.createElement("button");
        take.type = "button"; take.className = "button take-alt"; take.dataset.rank = alt.rank;
        take.textContent = _("Give %(penalty)s: the condition holds", { penalty: alt.penalty });
        take.addEventListener("click", function () {
          penalty.value = alt.rank; penaltyTouched = true; $("#deviation_reason").value = "";
          checkPenalty(); saveDraft();
        });
        p.appendChild(document.createElement("br")); p.appendChild(take);
      }
      panel.appendChild(p);
    });
    panel.hidden = false;
  }

  // "default Warning, one rank up: Loss of Game": the ranks counted in the penalty list's order (the policy's).
  function upgradeBase(s) {
    var ids = Array.prototype.map.call(penalty.options, function (o) { return o.value; });
    var name = function (id) { var o = penalty.options[ids.indexOf(id)]; return o ? o.textContent : id; };
    var steps = ids.indexOf(s.suggested) - ids.indexOf(s.default.max);
    if (ids.indexOf(s.suggested) === -1 || ids.indexOf(s.default.max) === -1 || steps < 1) return "";
    var dflt = s.default.min === s.default.max ? name(s.default.max) : name(s.default.min) + " – " + name(s.default.max);
    return ngettext("default %(default)s, one rank up: %(penalty)s", "default %(default)s, %(num)s ranks up: %(penalty)s",
                    steps, { default: dflt, penalty: name(s.suggested) });
  }

  // The minutes late the judge gave (for defaults by minutes late), or null.
  function minutesLate() {
    var field = $("#minutes_late"), n = field ? parseInt(field.value, 10) : NaN;
    return isNaN(n) || n < 0 ? null : n;
  }

  // The game of the round's match (for rules counting per game), or null; the earlier incident of the same cause the
  // judge linked this one to (one penalty for related errors), or null.
  function gameNumber() {
    var field = $("#game"), n = field ? parseInt(field.value, 10) : NaN;
    return isNaN(n) || n < 1 ? null : n;
  }
  function relatedNumber() {
    var field = $("#related_to"), n = field ? parseInt(field.value, 10) : NaN;
    return isNaN(n) || n < 1 ? null : n;
  }

  function suggest() {
    var k = kind(), code = infraction.value;
    if (!code) { panel.hidden = true; last = null; checkPenalty(); return; }
    var params = new URLSearchParams({ kind: k, infraction: code });
    var roundField = $("#round"); if (roundField && roundField.value) params.set("round", roundField.value);
    if (division && division.value) params.set("division", division.value);  // its round's day: the "day" window
    var late = minutesLate(); if (late !== null) params.set("minutes_late", String(late));
    var game = gameNumber(); if (game !== null) params.set("game", String(game));
    var related = relatedNumber(); if (related !== null) params.set("related_to", String(related));
    if (k === "player") {
      if (playerId.value) params.set("player_id", playerId.value);
      else if (playerInput.value.trim().length >= 2 && !$("#new_player").checked) params.set("player", playerInput.value);
      else if ($("#new_player").checked) params.set("kind", "spectator");  // no history yet
      else { panel.hidden = true; return; }
    } else if (k === "team") {
      var team = $("#team"); if (!team || !team.value) { panel.hidden = true; return; }
      params.set("team", team.value);
    }
    var mine = ++requestNo;
    var show = function (s) {
      if (mine !== requestNo) return;  // a newer question was asked meanwhile
      last = s && s.ok ? s : null;
      var lateField = $("#minutes-late-field");  // asked only where the policy's default goes by minutes late
      if (lateField) lateField.hidden = !(s && s.ok && s.asks_minutes_late) && !$("#minutes_late").value;
      var gameField = $("#game-field");  // asked only where a rule counts this infraction per game
      if (gameField) gameField.hidden = !(s && s.ok && s.asks_game) && !$("#game").value;
      var relatedError = $("#related-to-live-error");  // the link checked as the save checks it
      if (relatedError) {
        relatedError.hidden = !(s && !s.ok && s.field === "related_to");
        relatedError.textContent = s && !s.ok && s.field === "related_to" ? s.message : "";
      }
      if (!s) { panel.hidden = true; phoneShown(null); return; }
      render(s);
      phoneShown(s.local && s.ok ? s : null);
      if (s.ok && !penaltyTouched) penalty.value = s.penalized ? (s.suggested || "") : "";
      checkPenalty();
    };
    var abort = new AbortController(), timer = setTimeout(function () { abort.abort(); }, 4000);
    fetch(form.dataset.suggestUrl + "?" + params.toString(), { credentials: "same-origin", signal: abort.signal,
                                                                headers: { Accept: "application/json" } })
      .then(function (r) {
        clearTimeout(timer);
        if ((r.headers.get("Content-Type") || "").indexOf("json") === -1) throw new Error("not an answer");
        return r.json();
      })
      .then(show, function () { clearTimeout(timer); return localSuggestion(k, code).then(show); })
      .catch(function () { show(null); });
  }

  // ---- offline: the engine on the phone, over the copy of the event and the records waiting in the outbox ----
  var user = document.body.dataset.user;
  function today() { return new Date().toISOString().slice(0, 10); }
  // The event's day (1, 2…) of the chosen division's round `n`, which a "day" window counts (the copy's round_days;
  // a copy made before days: the calendar's, as then).
  function dayOf(ev, n) {
    if (!ev.round_days) return today();
    var div = division && division.value ? division.value : String(ev.first_division);
    return ev.round_days[div + ":" + n] || 1;
  }
  function subjectIds(ev, k) {
    if (k === "spectator" || $("#new_player").checked) return [];
    if (k === "team") {
      var team = $("#team") && $("#team").value;
      return ev.players.filter(function (p) { return team && p.team === team; }).map(function (p) { return p.id; });
    }
    if (playerId.value) return [parseInt(playerId.value, 10)];
    return playerNamed(ev.players, playerInput.value);
  }
  function localSuggestion(k, code) {
    if (!user) return Promise.resolve(null);
    return Promise.all([Outbox.copy(user), Outbox.list(user), policyFile]).then(function (got) {
      var copy = got[0], waiting = got[1], file = got[2];
      var ev = copy && copy.events.filter(function (e) { return String(e.id) === form.dataset.event; })[0];
      if (!ev) return null;
      var ids = subjectIds(ev, k);
      if (ids === null) return null;
      var has = function (id) { return ids.indexOf(id) !== -1; };
      var priors = ev.priors.filter(function (p) { return p.players.some(has); });
      var mine = waitingPriors(waiting, form.dataset.event, has);  // this phone's own, not sent yet
      if (ev.round_days) mine.forEach(function (p) { p.day = dayOf(ev, p.round); });  // a player's one division
      priors = priors.concat(mine);
      // the engine's input: the policy's file the form names (kept by the phone); a copy saved before it, its own
      var policy = (file && file.policy) || (copy.policies || {})[ev.policy];
      if (!policy) return null;
      var roundNo = $("#round") && parseInt($("#round").value, 10);
      // the earlier record of the same cause, from the copy: of this player and round (the server checks it again)
      var relatedNo = policy.related_errors ? relatedNumber() : null;
      var linked = relatedNo === null ? null : priors.filter(function (p) {
        return p.ref === relatedNo && p.round === roundNo;
      })[0] || null;
      var s = suggestOnPhone(policy, ev.level, code, priors, dayOf(ev, roundNo), isNaN(roundNo) ? null : roundNo,
                             document.documentElement.lang, minutesLate(), gameNumber(), linked);  // in the page's language
      s.local = true; s.copy_time = copy.saved_at;
      s.head_judge_only = policy.head_judge_only;
      s.confirm_ranks = confirmRanks(policy, code, ev.level);
      s.assistant_ranks = assistantRanks(policy, code, ev.level);
      s.pending_if_chosen = ev.roles.indexOf("head_judge") === -1;
      if (!s.pending_if_chosen) s.in_range = s.in_range.concat(s.head_judge_range || []);  // the head judge's own reach
      s.is_assistant = ev.roles.indexOf("assistant_head_judge") !== -1;
      s.because.forEach(function (b) { b.url = "/events/" + ev.id + "/incidents/" + b.number; });
      return s;
    }).catch(function () { return null; });
  }
  // What the phone showed goes with the record, so the server can flag an upgrade that changed meanwhile.
  function phoneShown(s) {
    $("#phone_suggested").value = s ? (s.suggested || "") : "";
    $("#phone_upgraded").value = s ? (s.upgraded ? "1" : "0") : "";
    $("#phone_because").value = s ? s.because.map(function (b) { return b.number; }).filter(function (n) { return n !== null; }).join(",") : "";
  }

  // Offline the server cannot check the form: the essentials are checked here before the record is kept.
  form.outboxCheck = function () {
    var problems = [];
    form.querySelectorAll(".offline-error").forEach(function (e) { e.remove(); });
    var need = function (field, ok, text) {
      if (ok) return;
      var p = document.createElement("p");
      p.className = "error offline-error"; p.setAttribute("role", "alert"); p.textContent = text;
      field.closest(".field, fieldset, div").appendChild(p);
      problems.push(field);
    };
    var k = kind();
    need(search, !!infraction.value, _("Choose the infraction."));  // the select is out of sight: the search has the focus
    if (k === "player") need(playerInput, !!playerInput.value.trim(), _("Type a few letters of the player's name or their player ID."));
    if (k !== "spectator") need(table, !!table.value, _("Give the table number."));
    if (last && last.penalized && !last.unnamed_allowed && last.related_to == null) need(penalty, !!penalty.value, _("Choose the penalty."));
    if (last && last.unnamed_allowed && !penalty.value) need($("#description"), !!$("#description").value.trim(), _("Describe the penalty given: the policy does not name it."));
    var offered = last && last.alternatives.some(function (a) { return a.rank === penalty.value; });
    if (last && last.suggested && penalty.value && last.in_range.indexOf(penalty.value) === -1 && !offered) {
      need($("#deviation_reason"), !!$("#deviation_reason").value.trim(), _("This penalty departs from the suggestion: give a short reason."));
      reasonField.hidden = false;
    }
    if (problems.length) problems[0].focus();
    return !problems.length;
  };
  form.outboxSummary = function () {
    var who = kind() === "player" ? playerInput.value : kind() === "team" ? ($("#team") || {}).value : $("#spectator").value;
    var chosen = penalty.options[penalty.selectedIndex];
    return [_("Incident"), table.value && _("table %(table)s", { table: table.value }), who, infraction.value,
            chosen && chosen.value ? chosen.textContent : ""].filter(Boolean).join(" · ");
  };
  // The server has it: its draft must not come back with its one-time key, or the next incident typed over the
  // restored draft would be stored as this one (and so not at all). The confirmation page clears it too, but the
  // network may drop before that page comes.
  form.addEventListener("outbox:sent", function () { try { localStorage.removeItem(DRAFT); } catch (e) {} });
  form.addEventListener("outbox:queued", function () {
    justSaved = Date.now();  // the form is emptied: a second tap on Save sends nothing (see the submit listener)
    try { localStorage.removeItem(DRAFT); } catch (e) {}
    last = null; penaltyTouched = false; panel.hidden = true; phoneShown(null);
    if (proposed) proposed.value = "";
    reasonField.hidden = true; pendingNote.hidden = true; assistantNote.hidden = true;
    setTimeout(function () {  // after the form's reset: the round stays, the rest is empty
      form.querySelectorAll("[data-kind]").forEach(function (el) { el.hidden = el.dataset.kind !== kind(); });
      form.querySelector(".new-player").hidden = true;
      staleNote.hidden = true; dropped = null; showAll = false; drawPicker(); showTablePlayers();
      var b = form.querySelector("[type=submit]"); b.disabled = false; b.value = _("Save incident");
    }, 0);
  });

  // "Open it" from the outbox: a record the server refused comes back into the form with the server's messages.
  var opened = /^#outbox=([0-9a-f]{16,64})$/.exec(location.hash);
  if (opened) Outbox.get(opened[1]).then(function (record) {
    if (!record || record.owner !== user) return;
    var f = fieldMap(record.fields);
    form.querySelectorAll(FIELDS).forEach(function (el) {
      if (!(el.name in f) && el.type !== "checkbox") return;
      if (el.type === "radio") el.checked = f[el.name] === el.value;
      else if (el.type === "checkbox") el.checked = f[el.name] === "y";
      else el.value = f[el.name];
    });
    form.querySelectorAll("[data-kind]").forEach(function (el) { el.hidden = el.dataset.kind !== kind(); });
    Object.keys(record.errors || {}).forEach(function (name) {
      var field = form.elements[name] || form.querySelector("[type=submit]");
      var p = document.createElement("p");
      p.className = "error"; p.setAttribute("role", "alert"); p.textContent = [].concat(record.errors[name]).join(" ");
      (field.closest ? field.closest(".field") || field.parentNode : field.parentNode).appendChild(p);
      var folded = p.closest("[hidden]"); if (folded) folded.hidden = false;  // e.g. the reason for other minutes
    });
    record.state = "editing";  // out of the send queue while the judge corrects it; saving sends it again
    return Outbox.put(record).then(function () { syncPlayerId(); showTablePlayers(); drawPicker(); suggest(); });
  });

  // Call stopwatch: elapsed time by the server's clock (servertime.js: the phone's may be off) and what the policy
  // would owe if the call ended now. Minutes filled in here are marked as proposed: the server counts them again at
  // the save; minutes the judge types other than the policy's need a reason.
  var watch = document.getElementById("stopwatch");
  var proposed = form.elements.extension_proposed, extensionReason = document.getElementById("extension-reason-field");
  if (watch) {
    var start = Date.parse(watch.dataset.start), over = parseFloat(watch.dataset.over), plus = parseInt(watch.dataset.plus || "0", 10);
    var serverNow = serverClock(watch.dataset.now), owedNow = 0;
    var tick = function () {
      var secs = Math.max(0, Math.floor((serverNow() - start) / 1000));
      watch.querySelector(".elapsed").textContent = Math.floor(secs / 60) + ":" + ("0" + secs % 60).slice(-2);
      if (!isNaN(over) && secs > over * 60) {
        var owed = owedNow = Math.ceil(secs / 60) + plus;
        watch.querySelector(".owed").textContent = "· " + _("over %(over)s min: %(owed)s min owed so far", { over: over, owed: owed });
        owedHint.hidden = false;
        // why this many: the time the call has been open, rounded up to the minute (issue 33, guard 8)
        var open = { minutes: Math.floor(secs / 60), seconds: secs % 60, up: Math.ceil(secs / 60), plus: plus, owed: owed };
        owedHint.textContent = plus
          ? _("Call open %(minutes)s min %(seconds)s s, rounded up: %(up)s min, plus %(plus)s: the policy owes the match %(owed)s min (counted again by the server when you save).", open)
          : _("Call open %(minutes)s min %(seconds)s s, rounded up: the policy owes the match %(owed)s min (counted again by the server when you save).", open);
        if (!extension.dataset.touched) { extension.value = owed; if (proposed) proposed.value = "1"; }
      }
    };
    tick();
    setInterval(tick, 1000);
    extension.addEventListener("input", function () {
      extension.dataset.touched = "1";
      if (proposed) proposed.value = "";  // the judge's own minutes
      var typed = parseInt(extension.value, 10);
      if (extensionReason && extension.value !== "" && typed !== owedNow) extensionReason.hidden = false;
    });
  }

  form.querySelectorAll("input[name=subject_kind]").forEach(function (r) { r.addEventListener("change", showKind); });
  playerInput.addEventListener("input", function () { syncPlayerId(); showMatches(); if (playerId.value) suggest(); checkSeat(); });
  playerInput.addEventListener("change", function () { syncPlayerId(); suggest(); checkSeat(); });  // not the matches: a tap on one blurs the field first
  table.addEventListener("input", function () { showTablePlayers(); checkSeat(); });
  var roundField = $("#round"); if (roundField) roundField.addEventListener("change", function () { checkSeat(); suggest(); });
  search.addEventListener("input", filterInfractions);
  infraction.addEventListener("change", suggest);
  var lateInput = $("#minutes_late"); if (lateInput) lateInput.addEventListener("input", suggest);
  var gameInput = $("#game"); if (gameInput) gameInput.addEventListener("input", suggest);
  var relatedInput = $("#related_to"); if (relatedInput) relatedInput.addEventListener("input", suggest);
  penalty.addEventListener("change", function () { penaltyTouched = true; checkPenalty(); });
  var team = $("#team"); if (team) team.addEventListener("change", suggest);
  $("#new_player").addEventListener("change", function (e) {
    form.querySelector(".new-player").hidden = !e.target.checked; syncPlayerId(); suggest();
  });
  // Issue 33, guard 3: a second tap on Save a moment after a save, or on the form that save just emptied, does
  // nothing (it would send an empty form and the server's refusal would replace "Saved on this phone"). Typing or
  // choosing anything in the form makes it a new record again. Runs before page.js's listener on the document.
  form.addEventListener("input", function () { justSaved = 0; });
  form.addEventListener("change", function () { justSaved = 0; });
  form.addEventListener("click", function (e) { if (!e.target.closest("[type=submit]")) justSaved = 0; });
  form.addEventListener("submit", function (event) {
    if (justSaved || form.dataset.sending === "1") {
      event.preventDefault(); event.stopPropagation();
      var said = document.getElementById("outbox-said");
      if (said) said.scrollIntoView({ block: "nearest" });
    }
  });
  // Tapping the Table field takes the whole number (a table carried over from the last incident is replaced, not
  // typed after: "8" then "10" is 10, not 810).
  table.addEventListener("focus", function () { setTimeout(function () { table.select(); }, 0); });
  form.addEventListener("submit", function (event) {  // a double tap sends once; the one-time key covers retries
    if (event.defaultPrevented && justSaved) return;
    var b = form.querySelector("[type=submit]");
    setTimeout(function () {
      // kept back by the phone's own check (offline: page.js, outboxCheck): nothing is being saved, the button stays
      if (event.defaultPrevented && form.dataset.sending !== "1") return;
      b.disabled = true; b.value = _("Saving…");
    }, 0);
  });
  function saveWorksAgain() {
    var b = form.querySelector("[type=submit]"); b.disabled = false; b.value = _("Save incident");
  }
  form.addEventListener("outbox:unkept", saveWorksAgain);  // not kept on the phone: the entry stays, Save works again
  window.addEventListener("pageshow", saveWorksAgain);  // back from a failed send: the button works again
  if (restored) {
    form.querySelectorAll("[data-kind]").forEach(function (el) { el.hidden = el.dataset.kind !== kind(); });
    form.querySelector(".new-player").hidden = !$("#new_player").checked;
  }
  syncPlayerId();
  showTablePlayers();
  checkSeat();
  drawPicker();
  if (infraction.value) suggest();
}

main();
