// Names as judges type them, on the phone: the same search key as the server's judgeapp/names.py (NFKC, lower case,
// katakana as hiragana, only letters, digits and ー kept), so ﾔﾏﾀﾞ, ヤマダ and やまだ find the player whose reading is
// やまだ たろう, and ＤＥＭＯ－００１ finds DEMO-001. Pure: tests/js/names.test.mjs runs it under Node on the cases
// of tests/shared/name_cases.json, which the Python tests hold judgeapp/names.py to as well.

import { fold } from "./search.js";

var KEPT = /[\p{L}\p{N}ー]/u;

// The text as a search compares it: width, case and kana kind ignored, spaces and punctuation dropped.
export function searchKey(text) {
  var folded = fold(text);
  var out = "";
  for (var ch of folded) if (KEPT.test(ch)) out += ch;
  return out;
}

// players: [{id, label, name, reading, handle, ids: [player ID, other platforms' IDs]}]; the players whose name,
// reading, handle or one of whose IDs holds what was typed, those it begins first, at most `limit` of them.
export function playersMatching(players, typed, limit) {
  var key = searchKey(typed);
  if (!key) return [];
  var first = [], then = [];
  (players || []).forEach(function (p) {
    var keys = [p.name, p.reading, p.handle].concat(p.ids || []).filter(Boolean).map(searchKey);
    if (keys.some(function (k) { return k.indexOf(key) === 0; })) first.push(p);
    else if (keys.some(function (k) { return k.indexOf(key) > 0; })) then.push(p);
  });
  return first.concat(then).slice(0, limit || 8);
}
