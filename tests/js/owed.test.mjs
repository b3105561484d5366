// The phone's time-owed arithmetic (judgeapp/static/js/owed.js) gives the Python engine's answers on the shared cases.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { betweenMs, clockText, owedMinutes, owedText } from "../../judgeapp/static/js/owed.js";

const shared = JSON.parse(readFileSync(new URL("../shared/owed_cases.json", import.meta.url), "utf-8"));

test("every shared case owes what the Python engine owes", () => {
  for (const c of shared.cases) assert.equal(owedMinutes({ over: c.over, plus: c.plus }, c.taken_ms), c.owed, JSON.stringify(c));
});

test("the texts: a running stop as m:ss, and what is owed with the rule's section", () => {
  assert.equal(clockText(192_400), "3:12");
  const rule = { over: 1, plus: 0, summary: "time the call took", section: "1.2.2" };
  assert.equal(owedText(rule, 192_400), "4 min owed: time the call took (1.2.2)");
  assert.equal(owedText(rule, 30_000), "No time owed yet: time the call took (1.2.2)");
  assert.match(owedText(undefined, 30_000), /sets no time extension/);
});

test("a stop from 23:58 to 00:03 lasted five minutes", () => {
  assert.equal(betweenMs("23:58", "00:03"), 5 * 60_000);
  assert.equal(betweenMs("14:05", ""), null);
});
