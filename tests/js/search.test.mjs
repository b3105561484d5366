// The phone's infraction search (judgeapp/static/js/search.js) on the cases the server's search passes
// (tests/shared/search_cases.json): the Bushiroad policy's codes, Japanese names and kana readings, as the export
// written by tests/unit/test_javascript.py gives them (JUDGEAPP_ENGINE_CASES).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fold, matches } from "../../judgeapp/static/js/search.js";

const CASES = JSON.parse(readFileSync(new URL("../shared/search_cases.json", import.meta.url), "utf8"));
const FILE = process.env.JUDGEAPP_ENGINE_CASES;
const WHY = "no JUDGEAPP_ENGINE_CASES: run through pytest tests/unit/test_javascript.py, which writes the policies";

test("katakana, half-width and full-width text is compared as hiragana and ASCII, as on the server", () => {
  for (const [text, folded] of CASES.fold) assert.equal(fold(text), folded, text);
});

test("a query finds the Bushiroad infractions by Japanese name, kana reading or code, as on the server", { skip: !FILE && WHY }, () => {
  const { search_texts: texts } = JSON.parse(readFileSync(FILE, "utf8"));
  for (const c of CASES.search) {
    const found = texts.filter((t) => matches(t.code, t.text, c.query)).map((t) => t.code);
    assert.deepEqual(found, c.codes, c.query);
  }
});
