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
//     id="infraction-finder">{{ entries|tojson }}</script>): [{code, fields: [[weight, text], ...]}] (text in NFKC and
//     lower case, katakana as written: rank folds it, and cuts its Japanese into pieces), in
//     catalog order. Names to show come from the form's own choices (code -> "code name"). Weights: NAME (a name in
//     any language, and its reading), PHRASE (the policy's phrases, game words and short forms; the source text's
//     synonyms; the sub-section's name), NOTE (notes and remedy).
//   lang: the page's language; every language the policy speaks is searched whatever it is (accepted, for later).
//   usage: {code: how often this event used it}; ties go to the most used, then to catalog order.
//   score: an integer, higher is better. kind: "code" (the query is the code), "code-prefix" (the start of a code),
//     "name", "phrase" or "note" (where the best-matching words are). whole: every word of the query matched a
//     whole word (or its form), every Japanese piece met the same piece (its stem) in the text, or the query is the
//     whole code: only such a result may be selected by itself; a word's start, a typo or part of a Japanese piece
//     only lists.
//   Order: per query word (a Japanese run: per piece, see `pieces`), how well it matched (exact, form, start, typo)
//   times where (name 4, phrase 3, note 1), a word fewer entries match counting for more; a bonus when a field is the
//   query itself or holds its words in a row.
// An empty query, or one of only little words, finds nothing (the picker shows the most used instead).

export var NAME = 4, PHRASE = 3, NOTE = 1;

// The finder entries of a policy's file (judgeapp/infractions/export.py `policy_file`: one file per policy version,
// the phone keeps it), as search.py `entries_of_file` reads them: per infraction its names, phrases and notes as
// written, made comparable here (NFKC, lower case, one space between words; `rank` folds the kana); a note the quick
// reference shows is named by its index among the infraction's notes and remedy (export.py `_shown`). null: not a file.
export function entriesOf(file) {
  if (!file || !file.policy || !file.reference || !Array.isArray(file.finder)) return null;
  var weights = [NAME, PHRASE, NOTE];
  return file.policy.infractions.map(function (inf, i) {
    var fields = [], ref = file.reference.infractions[i];
    var shown = Object.values(ref.notes).concat(Object.values(ref.remedy));
    (file.finder[i] || []).forEach(function (group, g) {
      group.forEach(function (text) {
        if (typeof text === "number") text = shown[text];
        fields.push([weights[g], String(text).normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim()]);
      });
    });
    return { code: inf.code, fields: fields };
  });
}
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

// ---- Japanese word analysis (judgeapp/infractions/search.py `pieces`, the same step by step): no dictionary, only the
// kind of each character. A run of Japanese script is cut where kanji, katakana and hiragana meet; a kanji run is a
// stem, a katakana run a word, and hiragana is okurigana, particles, endings or now and then a word of its own: 取った,
// 取る, 取り, 取って are all 取; 払ってない, 払わない are 払; 引きすぎた, 引き過ぎ are 引 + すぎ; 山札から多めに取った is
// 山札, 多, 取. A field's text is cut the same way, so a query's pieces meet the infraction's by the same stems.
var JA_PARTICLES = ["から", "まで", "より", "ので", "のに", "けど", "を", "が", "に", "で", "は", "へ", "と", "も", "の", "や"];
var JA_ENDINGS = ["なかった", "ちゃった", "ってない", "ていた", "ている", "てない", "ました", "ません", "ってた", "ってる",
  "ます", "った", "って", "いた", "いて", "んだ", "んで", "ない", "てる", "てた", "た", "て"];
var JA_STOP = ["こと", "もの", "ため", "よう", "とき", "ところ", "ちゃん", "さん", "くん", "ない", "ある", "いる", "する",
  "なる", "これ", "それ", "あれ", "この", "その", "あの", "ここ", "そこ", "まだ", "もう", "ずっと", "ちょっと", "しま"];
var SUGI = "すぎ";

function jaKind(c) {
  if (c >= 0x3041 && c <= 0x309f) return "h";
  if (c >= 0x30a0 && c <= 0x30ff) return c === 0x30fc ? "h" : "k";
  return "c";
}

// A run cut where its script changes: [kind, text], kind "c" kanji, "k" katakana, "h" hiragana; ー stays with the run
// before it (katakana at the start).
function jaChunks(run) {
  var out = [];
  for (var ch of run) {
    var c = ch.codePointAt(0), kind = jaKind(c);
    if (c === 0x30fc) kind = out.length ? out[out.length - 1][0] : "k";
    if (out.length && out[out.length - 1][0] === kind) out[out.length - 1][1] += ch;
    else out.push([kind, ch]);
  }
  return out;
}

// A hiragana word without a verb's ending, when two characters or more are left (いじった -> いじ).
function jaStem(word) {
  var w = Array.from(word);
  for (var i = 0; i < JA_ENDINGS.length; i++) {
    var end = JA_ENDINGS[i], n = Array.from(end).length;
    if (word.endsWith(end) && w.length - n >= 2) return w.slice(0, w.length - n).join("");
  }
  return word;
}

// The pieces of a hiragana chunk: cut at particles (not right after て or で: してもらった is one verb); its first part
// right after a kanji (okurigana) or after a katakana word as する is dropped, but for ～すぎ; another part is a word,
// by its stem, unless it says little.
function jaHiragana(text, afterWord) {
  var parts = [], cur = "", chars = Array.from(text), i = 0;
  while (i < chars.length) {
    var rest = chars.slice(i).join(""), hit = "", last = cur.slice(-1);
    if (last !== "て" && last !== "で") {
      for (var j = 0; j < JA_PARTICLES.length; j++) if (rest.startsWith(JA_PARTICLES[j])) { hit = JA_PARTICLES[j]; break; }
    }
    if (hit) { parts.push(cur); cur = ""; i += Array.from(hit).length; }
    else { cur += chars[i]; i++; }
  }
  parts.push(cur);
  var out = [];
  parts.forEach(function (part, n) {
    var at = part.indexOf(SUGI), head = at >= 0 ? part.slice(0, at) : part;
    if (head && !(n === 0 && afterWord)) {
      var word = jaStem(head);
      if ((Array.from(word).length >= 2 || at >= 0) && JA_STOP.indexOf(word) === -1) out.push(word);
    }
    if (at >= 0) out.push(SUGI);
  });
  return out;
}

// The content pieces of a run of Japanese script (NFKC, lower case, katakana as typed), folded: each kanji run as a
// stem (okurigana and endings dropped), each katakana word, the hiragana words between particles by their stems, and
// すぎ for ～すぎ or ～過ぎ. Particles (を、が、に、で、から、の …) are dropped.
export function pieces(run) {
  var chunks = jaChunks(run), out = [];
  chunks.forEach(function (chunk, n) {
    var kind = chunk[0], text = chunk[1], next = n + 1 < chunks.length ? chunks[n + 1][1] : "";
    if (kind === "c") {
      var sugi = text.endsWith("過") && next.startsWith("ぎ"), stem = sugi ? Array.from(text).slice(0, -1).join("") : text;
      if (stem) out.push(stem);
      if (sugi) out.push(SUGI);
    } else if (kind === "k") {
      if (Array.from(text).length >= 2) out.push(fold(text));
    } else {
      var after = n ? chunks[n - 1][0] : "";
      out = out.concat(jaHiragana(text, after === "c" || (after === "k" && "しすさせ".indexOf(text[0]) !== -1)));
    }
  });
  return out;
}

// Text as typed, made comparable but for kana: NFKC, lower case, one space between words.
function normal(text) {
  return String(text == null ? "" : text).normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}

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

// Two pieces of kana that are forms of one word written in kana: one is the other and a character more (めく, めくる),
// or they differ only in a last る, り, れ or っ (めくる, めくり); two characters or more shared, no kanji.
function kanaForms(a, b) {
  var x = Array.from(a), y = Array.from(b);
  if (x.length < y.length) { var t = x; x = y; y = t; }
  if (y.length < 2 || y.some(function (c) { return jaKind(c.codePointAt(0)) === "c"; })) return false;
  if (x.length === y.length + 1) return x.slice(0, -1).join("") === y.join("");
  return x.length === y.length && y.length >= 3 && x.slice(0, -1).join("") === y.slice(0, -1).join("") &&
    "るりれっ".indexOf(x[x.length - 1]) !== -1 && "るりれっ".indexOf(y[y.length - 1]) !== -1;
}

// How well a Japanese piece matches a field: EXACT when the field has the same piece (the same stem); FORM when a
// piece of kana is another form of one of the field's (kanaForms); CJK_PART when
// the field's text holds it (two characters or more with a kanji, three of kana); for one kanji, PREFIX when a piece of
// the field starts with it (罵, 罵倒); else the better of a piece of the field it holds (対戦中 holds 対戦) and, for
// three characters or more, the share of its two-character pieces the field holds (at least half); else 0.
function piecePoints(piece, field) {
  if (field.pieces.has(piece)) return EXACT;
  var chars = Array.from(piece), best = 0, i;
  var kanji = chars.some(function (c) { return jaKind(c.codePointAt(0)) === "c"; });
  if (!kanji) for (var f of field.pieces) if (kanaForms(piece, f)) return FORM;
  if (chars.length >= (kanji ? 2 : 3) && field.text.indexOf(piece) !== -1) return CJK_PART;
  if (chars.length === 1) {
    for (var p of field.pieces) if (p.startsWith(piece)) return PREFIX;
    return 0;
  }
  field.pieces.forEach(function (p) {
    var n = Array.from(p).length;
    if (n >= 2 && piece.indexOf(p) !== -1) best = Math.max(best, Math.min(CJK_PART, 4 + n));
  });
  if (chars.length >= 3) {
    var total = chars.length - 1, found = 0;
    for (i = 0; i < total; i++) if (field.text.indexOf(chars[i] + chars[i + 1]) !== -1) found++;
    if (found * 2 >= total) best = Math.max(best, Math.floor((CJK_PART * found) / total));
  }
  return best;
}

// An entry's fields with their words, worked out once per entries array (kept beside it, not on the caller's objects).
var CACHE = new WeakMap();
function fieldTerms(entry) {
  var got = CACHE.get(entry);
  if (!got) {
    got = entry.fields.map(function (f) {
      var text = fold(f[1]), cut = [];
      var words = terms(text).filter(function (t) { return t[0] === "w"; }).map(function (t) { return t[1]; });
      terms(f[1]).forEach(function (t) { if (t[0] === "j") cut = cut.concat(pieces(t[1])); });
      return { weight: f[0], text: text, words: words, pieces: new Set(cut) };
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
      if (t[0] === "j") pts = piecePoints(t[1], f);
      else f.words.forEach(function (w) { var p = wordPoints(t[1], qs, w); if (p > pts) pts = p; });
      if (pts * f.weight > top * topWeight || (pts && pts * f.weight === top * topWeight && f.weight > topWeight)) {
        top = pts; topWeight = f.weight;
      }
    });
    return [top, topWeight];
  });
}

// An entry's score: per matched term its rarity (fewer entries matching it, more) times (20 + points x weight), plus a
// bonus when a field is the query itself (joined: its words and Japanese runs, folded), or holds its words (more than
// one) in a run.
function score(fields, found, rarity, joined, words) {
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
  var bonus = 0;
  fields.forEach(function (f) {
    var b = f.text === joined ? 300 * f.weight
      : words > 1 && (" " + f.text + " ").indexOf(" " + joined + " ") !== -1 ? 150 * f.weight : 0;
    if (b > bonus) bonus = b;
  });
  return { score: total + bonus, kind: KIND[bestWeight], whole: whole };
}

function rarityOf(n, df) { return Math.floor((100 * n) / (n + 3 * df)); }

export function rank(entries, query, options) {
  var opts = options || {}, usage = opts.usage || {};
  var typed = normal(query), q = fold(typed);  // katakana as typed: the Japanese analysis tells it from hiragana
  if (!q) return [];
  var said = terms(typed).filter(function (t) { return t[0] !== "w" || STOP.indexOf(t[1]) === -1; });
  var qterms = [];
  said.forEach(function (t) {
    if (t[0] === "w") qterms.push(t);
    else pieces(t[1]).forEach(function (p) { qterms.push(["j", p]); });
  });
  var joined = said.map(function (t) { return fold(t[1]); }).join(" ");
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
    } else s = score(fields[index], found[index], rarity, joined, said.length);
    if (s) hits.push({ code: entry.code, score: s.score, kind: s.kind, whole: s.whole, used: usage[entry.code] || 0, index: index });
  });
  hits.sort(function (a, b) { return b.score - a.score || b.used - a.used || a.index - b.index; });
  return hits.map(function (h) { return { code: h.code, score: h.score, kind: h.kind, whole: h.whole }; });
}
