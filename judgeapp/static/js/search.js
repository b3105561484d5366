// Infraction search on the phone, as judgeapp/infractions/search.py on the server: the code, or every word of the
// query in the infraction's text; Japanese names are found by their kana reading too, in hiragana or katakana, full-
// or half-width (tests/shared/search_cases.json holds for both). Pure: no DOM.

// Text as search compares it: NFKC, lower case, katakana (ァ..ヶ and the iteration marks ヽ ヾ) folded to hiragana
// by code point. Infraction search and people's names (names.js) both fold with it.
export function fold(text) {
  var s = String(text == null ? "" : text).normalize("NFKC").toLowerCase(), out = "";
  for (var ch of s) {
    var c = ch.codePointAt(0);
    out += (c >= 0x30a1 && c <= 0x30f6) || c === 0x30fd || c === 0x30fe ? String.fromCodePoint(c - 0x60) : ch;
  }
  return out;
}

// Whether an infraction (its code and its already folded text) is found by `query`; an empty query finds everything.
export function matches(code, text, query) {
  var q = fold(String(query || "").trim());
  if (!q) return true;
  if (String(code).toLowerCase().indexOf(q) === 0) return true;
  return q.split(/\s+/).every(function (w) { return text.indexOf(w) !== -1; });
}
