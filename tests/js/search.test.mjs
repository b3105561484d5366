// The phone's infraction search (judgeapp/static/js/search.js) on the cases the server's search passes
// (tests/shared/search_cases.json): the Bushiroad policy's codes, Japanese names and kana readings, as the export
// written by tests/unit/test_javascript.py gives them (JUDGEAPP_ENGINE_CASES).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { entriesOf, fold, pieces, rank, stem, oneEdit } from "../../judgeapp/static/js/search.js";

const CASES = JSON.parse(readFileSync(new URL("../shared/search_cases.json", import.meta.url), "utf8"));
const FINDER = JSON.parse(readFileSync(new URL("../shared/finder_cases.json", import.meta.url), "utf8"));
const FILE = process.env.JUDGEAPP_ENGINE_CASES;
const WHY = "no JUDGEAPP_ENGINE_CASES: run through pytest tests/unit/test_javascript.py, which writes the policies";

test("katakana, half-width and full-width text is compared as hiragana and ASCII, as on the server", () => {
  for (const [text, folded] of CASES.fold) assert.equal(fold(text), folded, text);
});

// The entries the phone searches: read from the policy's file (export.py `policy_file`), as incident.js and reference.js do.
function phoneEntries() {
  const { policy_files: files } = JSON.parse(readFileSync(FILE, "utf8"));
  return Object.fromEntries(Object.entries(files).map(([id, file]) => [id, entriesOf(file)]));
}

test("the phone reads from each policy's file the very finder entries the server searches", { skip: !FILE && WHY }, () => {
  const { finder_entries: entries } = JSON.parse(readFileSync(FILE, "utf8"));
  const read = phoneEntries();
  assert.ok(Object.keys(entries).length >= 5);
  for (const id of Object.keys(entries)) assert.deepEqual(read[id], entries[id], id);
  assert.equal(entriesOf([{ code: "1.1", fields: [] }]), null);  // not a policy's file (an older phone's cache)
});

test("the finder names the Bushiroad infractions first by Japanese name, kana reading or code, as on the server", { skip: !FILE && WHY }, () => {
  const entries = phoneEntries();
  for (const c of CASES.first) {
    const first = rank(entries["bushiroad-afr"], c.query).slice(0, c.codes.length).map((h) => h.code);
    assert.deepEqual(first.sort(), [...c.codes].sort(), c.query);
  }
});

test("the finder ranks every shared case in the server's order, with its kind, whole-word flag and score", { skip: !FILE && WHY }, () => {
  const entries = phoneEntries();
  assert.ok(FINDER.cases.length >= 200);
  for (const c of FINDER.cases) {
    const hits = rank(entries[c.policy], c.query, { lang: c.lang, usage: c.usage });
    const where = `${c.policy} ${c.lang} ${JSON.stringify(c.query)}`;
    assert.deepEqual(hits.slice(0, 3).map((h) => h.code), c.top, where);
    if (c.first) assert.deepEqual({ kind: hits[0].kind, whole: hits[0].whole, score: hits[0].score }, c.first, where);
  }
});

test("a Japanese run is cut into the server's pieces: stems without okurigana or endings, particles dropped", () => {
  assert.ok(FINDER.pieces.length >= 40);
  for (const c of FINDER.pieces) assert.deepEqual(pieces(c.run), c.pieces, c.run);
});

test("word forms meet at one stem, and one edit is one typo", () => {
  for (const w of ["shuffle", "shuffled", "shuffling", "shuffles"]) assert.equal(stem(w), "shuffl", w);
  for (const w of ["draw", "drew", "drawn", "drawing", "draws"]) assert.equal(stem(w), "draw", w);
  assert.ok(oneEdit("shufle", "shuffle") && oneEdit("mulligna", "mulligan") && oneEdit("stallling", "stalling"));
  assert.ok(!oneEdit("eating", "cheating") && !oneEdit("ab", "abcd"));
});
