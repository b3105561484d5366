// The server's clock on the phone (judgeapp/static/js/servertime.js), pure.
import { test } from "node:test";
import assert from "node:assert/strict";
import { elapsedText } from "../../judgeapp/static/js/calls-time.js";
import { serverClock, skewOf } from "../../judgeapp/static/js/servertime.js";

test("a phone five minutes fast is corrected by the server's time the page carries", () => {
  const server = Date.parse("2026-11-24T10:00:00Z"), phone = server + 5 * 60_000;
  const skew = skewOf("2026-11-24T10:00:00Z", phone);
  assert.equal(skew, -5 * 60_000);
  const calledAt = server - 35_000;  // a call 35 seconds old by the server's clock
  assert.equal(elapsedText(phone + skew - calledAt), "0:35");  // not 5:35
});

test("without the server's time the phone's own clock is used", () => {
  assert.equal(skewOf("", 1_000), 0);
  assert.equal(skewOf(undefined, 1_000), 0);
  assert.equal(skewOf("not a time", 1_000), 0);
});

test("serverClock runs on from the server's time", () => {
  const ahead = new Date(Date.now() + 3_600_000).toISOString();
  const now = serverClock(ahead);
  assert.ok(Math.abs(now() - (Date.now() + 3_600_000)) < 1_000);
});
