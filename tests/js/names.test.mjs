// The phone's name search (judgeapp/static/js/names.js) gives the server's answers (judgeapp/names.py) on the shared
// cases, and finds a player by name, reading, handle or ID however the judge types it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { playersMatching, searchKey } from "../../judgeapp/static/js/names.js";

const shared = JSON.parse(readFileSync(new URL("../shared/name_cases.json", import.meta.url), "utf-8"));

test("every shared text has the search key judgeapp/names.py gives it", () => {
  for (const c of shared.keys) assert.equal(searchKey(c.text), c.key, JSON.stringify(c));
});

test("every shared query matches (or not) as on the server", () => {
  for (const c of shared.matches) {
    const [name, ...rest] = c.fields;
    const found = playersMatching([{ id: 1, label: name, name, reading: rest[0], ids: rest.slice(1) }], c.query);
    assert.equal(found.length === 1, c.match, JSON.stringify(c));
  }
});

const players = [
  { id: 1, label: "山田 太郎 · DEMO-001", name: "山田 太郎", reading: "やまだ たろう", handle: "タロ", ids: ["DEMO-001"] },
  { id: 2, label: "黒川 花子 · DEMO-002", name: "黒川 花子", reading: "くろかわ はなこ", handle: "Kuro", ids: ["DEMO-002", "BR0000002"] },
  { id: 3, label: "Anna Berg", name: "Anna Berg", reading: null, handle: null, ids: [] },
];

test("half-width katakana, hiragana and katakana all find 山田 太郎 by his reading", () => {
  for (const typed of ["ﾔﾏﾀﾞ", "やまだ", "ヤマダ"]) assert.deepEqual(playersMatching(players, typed).map((p) => p.id), [1], typed);
});

test("a handle, a full-width player ID and another platform's ID find the player", () => {
  assert.deepEqual(playersMatching(players, "ｋｕｒｏ").map((p) => p.id), [2]);
  assert.deepEqual(playersMatching(players, "ＤＥＭＯ－００１").map((p) => p.id), [1]);
  assert.deepEqual(playersMatching(players, "br0000002").map((p) => p.id), [2]);
});

test("those whose name, reading, handle or ID begins with what was typed come first; nothing typed finds no one", () => {
  assert.deepEqual(playersMatching(players, "demo").map((p) => p.id), [1, 2]);
  assert.deepEqual(playersMatching(players, "はなこ").map((p) => p.id), [2]);
  assert.deepEqual(playersMatching(players, "a").map((p) => p.id), [3]);
  assert.deepEqual(playersMatching(players, " ・ "), []);
  assert.equal(playersMatching(players, "demo", 1).length, 1);
});
