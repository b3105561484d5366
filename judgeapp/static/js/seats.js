// Where this round's pairings seat a player, from the copy the incident form carries (no network needed): pure, so
// tests/js/seats.test.mjs runs it under Node. incident.js turns the answers into the "At table N" chips and the
// warning with the player's real table one tap away.
import { _ } from "./i18n.js";

// The table as the pairings name it: what a phone's number field may hold ("05", " 5") read as a table number, or ""
// when it is no table at all.
export function tableKey(typed) {
  var text = String(typed == null ? "" : typed).trim();
  if (!/^[0-9]+$/.test(text)) return "";
  var n = parseInt(text, 10);
  return n > 0 ? String(n) : "";
}

// seating: {table: [{id, label}]} of the round; player id -> the table it seats them at.
export function tablesOf(seating) {
  var out = {};
  Object.keys(seating || {}).forEach(function (t) {
    seating[t].forEach(function (p) { out[p.id] = t; });
  });
  return out;
}

// What to tell the judge about player `id` (called `name`) at the typed table: null when nothing (no player, no
// pairings for the round, or seated there), else {text, table} where `table` is the player's real table to offer,
// or null when there is none to offer (a bye, or not in the round's pairings).
export function seatNote(seating, byes, id, name, typed) {
  if (!id) return null;
  byes = byes || [];
  if (!Object.keys(seating || {}).length && !byes.length) return null;
  if (byes.indexOf(id) >= 0) return { text: _("%(name)s has a bye this round: no table.", { name: name }), table: null };
  var at = tablesOf(seating)[id], table = tableKey(typed);
  if (!at) return { text: _("%(name)s is not in this round's pairings.", { name: name }), table: null };
  if (at === table) return null;
  var values = { name: name, at: at, typed: table };
  return { text: table ? _("%(name)s is at table %(at)s this round, not table %(typed)s.", values)
    : _("%(name)s is at table %(at)s this round.", values), table: at };
}
