// Infraction search on the phone, as judgeapp/infractions/search.py on the server: the finder's `rank` (the incident
// form's picker and the quick reference); Japanese names are found by their kana reading too, in hiragana or katakana,
// full- or half-width (tests/shared/search_cases.json and finder_cases.json hold for both). Pure: no DOM.

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

// ---- The finder: ranked search over what judges say (judgeapp/infractions/search.py `rank` is the same, step by step;
// tests/shared/finder_cases.json holds for both). Written twice rather than through a search library: see README,
// "Finding an infraction".
//
// rank(entries, query, {lang, usage}) -> [{code, score, kind, whole}], best first.
//   entries: the policy's finder entries as the server exports them (judgeapp/infractions/search.py
//     `finder_entries(policy)`, which the incident form embeds as JSON: <script type="application/json"
//     id="infraction-finder">{{ entries|tojson }}</script>): [{code, fields: [[weight, folded text], ...]}], in
//     catalog order. Names to show come from the form's own choices (code -> "code name"). Weights: NAME (a name in
//     any language, and its reading), PHRASE (the policy's phrases, game words and short forms; the source text's
//     synonyms; the sub-section's name), NOTE (notes and remedy).
//   lang: the page's language; every language the policy speaks is searched whatever it is (accepted, for later).
//   usage: {code: how often this event used it}; ties go to the most used, then to catalog order.
//   score: an integer, higher is better. kind: "code" (the query is the code), "code-prefix" (the start of a code),
//     "name", "phrase" or "note" (where the best-matching words are). whole: every word of the query matched a
//     whole word (or its form), a Japanese run was found whole, or the query is the whole code: only such a result
//     may be selected by itself; a word's start, a typo or part of a Japanese run only lists.
//   Order: per query word, how well it matched (exact, form, start, typo) times where (name 4, phrase 3, note 1), a
//   word fewer entries match counting for more; a bonus when a field is the query itself or holds its words in a row.
// An empty query, or one of only little words, finds nothing (the picker shows the most used instead).

export var NAME = 4, PHRASE = 3, NOTE = 1;
var EXACT = 10, FORM = 9, PREFIX = 6, TYPO = 5, CJK_PART = 8;
var KIND = { 4: "name", 3: "phrase", 1: "note" };

var STOP = ["a", "an", "the", "of", "to", "in", "on", "at", "his", "her", "their", "my", "your", "our", "and", "or",
  "is", "was", "were", "be", "been", "for", "with", "from", "he", "she", "they", "it", "its", "i", "we", "you", "by",
  "as", "that", "this", "them", "him", "me", "so", "into", "up"];

// Irregular forms judges say, each to the word it is a form of (the small stemmer handles the regular ones).
var IRREGULAR = {
  drew: "draw", drawn: "draw", saw: "see", seen: "see", took: "take", taken: "take", gave: "give", given: "give",
  forgot: "forget", forgotten: "forget", lost: "lose", left: "leave", threw: "throw", thrown: "throw", ate: "eat",
  eaten: "eat", spoke: "speak", spoken: "speak", told: "tell", said: "say", found: "find", brought: "bring",
  bought: "buy", stole: "steal", stolen: "steal", shook: "shake", shaken: "shake", hid: "hide", hidden: "hide",
  made: "make", went: "go", gone: "go", got: "get", gotten: "get", kept: "keep", paid: "pay", won: "win",
  bent: "bend", dealt: "deal", wrote: "write", written: "write", ran: "run", sat: "sit", swore: "swear",
  sworn: "swear", chose: "choose", chosen: "choose", fell: "fall", fallen: "fall", knew: "know", known: "know",
  began: "begin", begun: "begin", stuck: "stick", held: "hold", let: "let", put: "put", cut: "cut", hit: "hit",
  read: "read", bet: "bet", slept: "sleep", spent: "spend", sent: "send", flung: "fling", tore: "tear", torn: "tear",
  did: "do", done: "do", does: "do", has: "have", had: "have", men: "man", dice: "die", children: "child"
};

// Latin letters and digits make words; anything else outside Japanese script separates them.
function isCjk(c) {
  return (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0xf900 && c <= 0xfaff) || c === 0x3005;
}
function isWordChar(c) {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || (c >= 0xdf && c <= 0x24f && c !== 0xf7 && c !== 0xd7);
}

// Folded text -> its terms: [kind, text], kind "w" a word, "j" a run of Japanese script. "ー" (the long vowel mark)
// belongs to a Japanese run; the apostrophe is dropped inside a word (don't -> dont).
export function terms(text) {
  var out = [], cur = "", kind = "";
  for (var ch of String(text)) {
    var c = ch.codePointAt(0);
    if (c === 0x27 || c === 0x2019) { if (kind === "w") continue; }
    var k = isWordChar(c) ? "w" : isCjk(c) ? "j" : "";
    if (k !== kind && cur) { out.push([kind, cur]); cur = ""; }
    kind = k;
    if (k) cur += ch;
  }
  if (cur) out.push([kind, cur]);
  return out;
}

// The word a form is of: irregular forms by the table, then -ies/-ied, -ing, -ed, -es, -s, -ly; a final e and a
// doubled last consonant dropped (shuffle, shuffled, shuffling, shuffles -> shuffl; stopped -> stop; stalling -> stall).
export function stem(word) {
  var w = word;
  if (Object.prototype.hasOwnProperty.call(IRREGULAR, w)) return IRREGULAR[w];
  if (w.length < 4 || /[0-9]/.test(w)) return w;
  if (/ies$|ied$/.test(w) && w.length > 4) w = w.slice(0, -3) + "y";
  else if (/ing$/.test(w) && w.length >= 6) w = w.slice(0, -3);
  else if (/ed$/.test(w) && w.length >= 5) w = w.slice(0, -2);
  else if (/es$/.test(w) && w.length >= 5) w = w.slice(0, -2);
  else if (/s$/.test(w) && !/ss$|us$|is$/.test(w)) w = w.slice(0, -1);
  else if (/ly$/.test(w) && w.length >= 6) w = w.slice(0, -2);
  if (/e$/.test(w) && w.length >= 4) w = w.slice(0, -1);
  if (w.length >= 4 && w[w.length - 1] === w[w.length - 2] && /[bdfgkmnprtv]/.test(w[w.length - 1])) w = w.slice(0, -1);
  return w;
}

// One edit apart (a letter more, less, changed, or two neighbours swapped): the typo a word of five letters or more
// is forgiven.
export function oneEdit(a, b) {
  if (a === b) return true;
  var la = a.length, lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  var i = 0;
  while (i < la && i < lb && a[i] === b[i]) i++;
  if (la === lb) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return i + 1 < la && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

// How well a query word matches a text word: EXACT, FORM (the same word in another form), PREFIX (the start of it),
// TYPO (one edit off, five letters or more), or 0.
function wordPoints(q, qs, w) {
  if (q === w) return EXACT;
  if (qs === stem(w)) return FORM;
  if (w.length > q.length && w.indexOf(q) === 0) return PREFIX;
  if (q.length >= 5 && w.length >= 4 && oneEdit(q, w)) return TYPO;
  return 0;
}

// How well a run of Japanese script matches a field: EXACT when the field holds it whole; else the better of the share
// of its two-character pieces the field holds (at least half of them, for a run of three or more), and a Japanese word
// of the field the run holds (a judge's sentence around a phrase: スマホ見てた holds スマホ) or most of whose pieces it
// holds; else 0.
function cjkPoints(run, field) {
  if (field.text.indexOf(run) !== -1) return EXACT;
  var best = 0, chars = Array.from(run), total, found, i;
  if (chars.length >= 3) {
    total = chars.length - 1; found = 0;
    for (i = 0; i < total; i++) if (field.text.indexOf(chars[i] + chars[i + 1]) !== -1) found++;
    if (found * 2 >= total) best = Math.floor((CJK_PART * found) / total);
  }
  field.jwords.forEach(function (word) {
    var w = Array.from(word);
    if (w.length < 2) return;
    if (run.indexOf(word) !== -1) { best = Math.max(best, Math.min(CJK_PART, 4 + w.length)); return; }
    if (w.length < 3) return;
    var t = w.length - 1, f = 0;
    for (var j = 0; j < t; j++) if (run.indexOf(w[j] + w[j + 1]) !== -1) f++;
    if (f * 3 >= t * 2) best = Math.max(best, Math.floor(((CJK_PART - 2) * f) / t));
  });
  return best;
}

// An entry's fields with their words, worked out once per entries array (kept beside it, not on the caller's objects).
var CACHE = new WeakMap();
function fieldTerms(entry) {
  var got = CACHE.get(entry);
  if (!got) {
    got = entry.fields.map(function (f) {
      var found = terms(f[1]), pick = function (kind) {
        return found.filter(function (t) { return t[0] === kind; }).map(function (t) { return t[1]; });
      };
      return { weight: f[0], text: f[1], words: pick("w"), jwords: pick("j") };
    });
    CACHE.set(entry, got);
  }
  return got;
}

function looksLikeCode(q) { return /^[a-z]{0,3}[0-9]/.test(q) && !/\s/.test(q); }

// For each query term, its best [points, weight] in the entry's fields; [0, 0] when it matches none.
function termMatches(fields, qterms) {
  return qterms.map(function (t) {
    var top = 0, topWeight = 0, qs = t[0] === "w" ? stem(t[1]) : "";
    fields.forEach(function (f) {
      var pts = 0;
      if (t[0] === "j") pts = cjkPoints(t[1], f);
      else f.words.forEach(function (w) { var p = wordPoints(t[1], qs, w); if (p > pts) pts = p; });
      if (pts * f.weight > top * topWeight || (pts && pts * f.weight === top * topWeight && f.weight > topWeight)) {
        top = pts; topWeight = f.weight;
      }
    });
    return [top, topWeight];
  });
}

// An entry's score: per matched term its rarity (fewer entries matching it, more) times (20 + points x weight), plus a
// bonus when a field is the query itself, or holds its words in a run.
function score(fields, found, rarity, qterms) {
  var total = 0, best = 0, bestWeight = 0, whole = true;
  found.forEach(function (m, i) {
    var top = m[0], topWeight = m[1];
    if (top) {
      total += rarity[i] * (20 + top * topWeight);
      if (top * topWeight > best * bestWeight) { best = top; bestWeight = topWeight; }
    }
    if (top < FORM) whole = false;
  });
  if (!total) return null;
  var joined = qterms.map(function (t) { return t[1]; }).join(" "), bonus = 0;
  fields.forEach(function (f) {
    var b = f.text === joined ? 300 * f.weight
      : qterms.length > 1 && (" " + f.text + " ").indexOf(" " + joined + " ") !== -1 ? 150 * f.weight : 0;
    if (b > bonus) bonus = b;
  });
  return { score: total + bonus, kind: KIND[bestWeight], whole: whole };
}

function rarityOf(n, df) { return Math.floor((100 * n) / (n + 3 * df)); }

export function rank(entries, query, options) {
  var opts = options || {}, usage = opts.usage || {};
  var q = fold(String(query == null ? "" : query)).trim().replace(/\s+/g, " ");
  if (!q) return [];
  var qterms = terms(q).filter(function (t) { return t[0] !== "w" || STOP.indexOf(t[1]) === -1; });
  var codeLike = looksLikeCode(q);
  if (!qterms.length && !codeLike) return [];
  var fields = entries.map(fieldTerms), found = fields.map(function (f) { return termMatches(f, qterms); });
  var rarity = qterms.map(function (_, i) {
    return rarityOf(entries.length, found.filter(function (m) { return m[i][0]; }).length);
  });
  var hits = [];
  entries.forEach(function (entry, index) {
    var code = String(entry.code).toLowerCase(), s;
    if (q === code) s = { score: 1000000, kind: "code", whole: true };
    else if (codeLike && code.indexOf(q) === 0) {
      s = { score: 500000 + (code.charAt(q.length) === "." ? 1000 : 0) - code.length, kind: "code-prefix", whole: false };
    } else s = score(fields[index], found[index], rarity, qterms);
    if (s) hits.push({ code: entry.code, score: s.score, kind: s.kind, whole: s.whole, used: usage[entry.code] || 0, index: index });
  });
  hits.sort(function (a, b) { return b.score - a.score || b.used - a.used || a.index - b.index; });
  return hits.map(function (h) { return { code: h.code, score: h.score, kind: h.kind, whole: h.whole }; });
}
