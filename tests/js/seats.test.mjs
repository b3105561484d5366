// The incident form's seat check (judgeapp/static/js/seats.js), pure: the round's seating as the page carries it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { seatNote, tableKey } from "../../judgeapp/static/js/seats.js";

// Invented players: Aiko (1) and Ben (2) at table 3, Chen (3) and Dana (4) at table 5, Emi (5) has a bye.
const SEATING = {
  "3": [{ id: 1, label: "Aiko Mori · P-001" }, { id: 2, label: "Ben Ode · P-002" }],
  "5": [{ id: 3, label: "Chen Yu · P-003" }, { id: 4, label: "Dana Roy · P-004" }],
};
const BYES = [5];

test("a player seated at another table is named with their real table, offered to use instead", () => {
  assert.deepEqual(seatNote(SEATING, BYES, 3, "Chen Yu", "3"), {
    text: "Chen Yu is at table 5 this round, not table 3.",
    table: "5",
  });
  assert.deepEqual(seatNote(SEATING, BYES, 3, "Chen Yu", ""), { text: "Chen Yu is at table 5 this round.", table: "5" });
});

test("a player at the table typed gets no warning, also when the phone's number field holds 05 or blanks", () => {
  assert.equal(seatNote(SEATING, BYES, 3, "Chen Yu", "5"), null);
  assert.equal(seatNote(SEATING, BYES, 3, "Chen Yu", "05"), null);
  assert.equal(seatNote(SEATING, BYES, 3, "Chen Yu", " 5 "), null);
  assert.deepEqual([tableKey("007"), tableKey("0"), tableKey("5e1"), tableKey("-5"), tableKey(null)], ["7", "", "", "", ""]);
});

test("a player with a bye is told so, with no table to offer", () => {
  assert.deepEqual(seatNote(SEATING, BYES, 5, "Emi Sato", "3"), { text: "Emi Sato has a bye this round: no table.", table: null });
});

test("a player the round's pairings do not name is said to be missing from them, with no table to offer", () => {
  assert.deepEqual(seatNote(SEATING, BYES, 9, "Late Entry", "3"), { text: "Late Entry is not in this round's pairings.", table: null });
});

test("without pairings for the round, or without a player picked, nothing is said", () => {
  assert.equal(seatNote({}, [], 3, "Chen Yu", "3"), null);
  assert.equal(seatNote(SEATING, BYES, NaN, "", "3"), null);
});
