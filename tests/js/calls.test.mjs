// The judge-call stopwatch's reading (judgeapp/static/js/calls-time.js), pure.
import { test } from "node:test";
import assert from "node:assert/strict";
import { elapsedText } from "../../judgeapp/static/js/calls-time.js";

test("under an hour the stopwatch reads minutes and two-digit seconds", () => {
  assert.equal(elapsedText(0), "0:00");
  assert.equal(elapsedText(65_400), "1:05");
  assert.equal(elapsedText(59 * 60_000 + 59_999), "59:59");
});

test("from an hour on it reads hours, minutes and seconds", () => {
  assert.equal(elapsedText(3_600_000), "1:00:00");
  assert.equal(elapsedText(3_600_000 + 9 * 60_000 + 7_000), "1:09:07");
});

test("a phone clock behind the server's never shows a negative time", () => {
  assert.equal(elapsedText(-5_000), "0:00");
  assert.equal(elapsedText(undefined), "0:00");
});
