// The phone's penalty engine (judgeapp/static/js/engine.js) against the Python engine, under Node's test runner.
// tests/unit/test_javascript.py writes the cases with the Python engine's answers (tests/shared/engine_cases.json, and
// a sweep of every infraction, level and history shape) to a file and names it in JUDGEAPP_ENGINE_CASES.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { assistantRanks, confirmRanks, countingPriors, suggest } from "../../judgeapp/static/js/engine.js";

const FILE = process.env.JUDGEAPP_ENGINE_CASES;
const WHY = "no JUDGEAPP_ENGINE_CASES: run through pytest tests/unit/test_javascript.py, which writes the Python answers";
const fixture = FILE ? JSON.parse(readFileSync(FILE, "utf8")) : { cases: [], sweep: [], policies: {} };

// engine.js's answer in the fields tests/shared/engine_cases.py's python_answer gives.
function fields(answer) {
  return {
    suggested: answer.suggested, upgraded: answer.upgraded, rule: answer.rule, because: answer.because.map((b) => b.ref),
    default: answer.default, default_label: answer.default_label, head_judge_only: answer.head_judge_only,
    in_range: answer.in_range, head_judge_range: answer.head_judge_range, alternatives: answer.alternatives.map((a) => a.penalty), offered: answer.offered,
    confirm: answer.confirm, minutes_late: answer.minutes_late, asks_game: answer.asks_game, game: answer.game,
    related_to: answer.related_to, explanation: answer.explanation,
  };
}

function expectedPart(expect, got) {
  return Object.fromEntries(Object.keys(expect).map((k) => [k, got[k]]));
}

test("every shared engine case gives the expected suggestion and the Python engine's answer", { skip: !FILE && WHY }, () => {
  assert.ok(fixture.cases.length >= 20);
  for (const c of fixture.cases) {
    const got = fields(suggest(c.policy, c.level, c.infraction, c.priors, c.today || null, c.round ?? null, c.lang,
                               c.minutes_late ?? null, c.game ?? null, c.related_to ?? null));
    assert.deepEqual(expectedPart(c.expect, got), c.expect, c.name);
    assert.deepEqual(got, c.python, c.name);
  }
});

test("the engine agrees with Python on every infraction, level and history shape", { skip: !FILE && WHY }, () => {
  assert.ok(fixture.sweep.length > 500);
  for (const c of fixture.sweep) {
    const got = fields(suggest(fixture.policies[c.policy], c.level, c.infraction, c.priors, null, c.round ?? null, c.lang,
                               null, c.game ?? null));
    assert.deepEqual(got, c.python, JSON.stringify({ policy: c.policy, level: c.level, infraction: c.infraction, priors: c.priors, lang: c.lang }));
  }
});

// A small policy of its own, so the rules below read without the catalog.
const POLICY = {
  id: "tiny", head_judge_only: ["disqualification"],
  repeat_rules: [{ id: "same-sub", name: "", counts: "subsection", window: "event", from_count: 2, result: "up", section: "§9",
                   steps: 1, above_highest_prior: false, rank: null, ladder: [], cap: null, range_to: null, group: [],
                   applies_to: [], prior_ranks: [], levels: [] }],
  ranks: [{ id: "warning", name: "Warning", order: 0 }, { id: "loss_of_game", name: "Loss of Game", order: 1 },
          { id: "disqualification", name: "Disqualification", order: 2 }],
  levels: [{ number: 1, name: "Local" }],
  infractions: [
    { code: "1.1", name: "Drawing extra cards", subsection: "1", penalized: true, defaults: { 1: { min: "warning", max: "loss_of_game" } }, alternatives: [] },
    { code: "1.2", name: "Looking at extra cards", subsection: "1", penalized: true, defaults: { 1: { min: "warning", max: "warning" } }, alternatives: [] },
    { code: "2.1", name: "Slow play", subsection: "2", penalized: true, defaults: { 1: { min: "warning", max: "warning" } }, alternatives: [] },
  ],
};

test("an unknown infraction code is refused with its code named", () => {
  assert.throws(() => suggest(POLICY, 1, "9.9", [], null), /unknown infraction 9\.9/);
});

test("an earlier penalty counts only when standing, in the same sub-section and, by day, on the same day", () => {
  const infraction = POLICY.infractions[0];
  const priors = [
    { infraction: "1.2", rank: "warning", ref: 1, day: "2026-05-01" },
    { infraction: "1.2", rank: "warning", ref: 2, status: "voided" },
    { infraction: "2.1", rank: "warning", ref: 3 },
    { infraction: "gone", rank: "warning", ref: 4 },  // a code the catalog no longer has
    { infraction: "gone", rank: "warning", ref: 5, subsection: "1" },  // … unless the prior names its sub-section
  ];
  assert.deepEqual(countingPriors(POLICY, infraction, priors, "2026-05-02").map((p) => p.ref), [1, 5]);
  const byDay = { ...POLICY, repeat_rules: POLICY.repeat_rules.map((r) => ({ ...r, window: "day" })) };
  assert.deepEqual(countingPriors(byDay, infraction, priors, "2026-05-02").map((p) => p.ref), [5]);
});

test("an earlier penalty logged on the phone and not sent yet upgrades, named by its round", () => {
  const s = suggest(POLICY, 1, "1.1", [{ infraction: "1.2", rank: "warning", ref: null, round: 3 }], null);
  assert.equal(s.suggested, "loss_of_game");
  assert.equal(s.explanation, "Upgraded: 2nd penalty in 1 at this event (§9): Loss of Game — after 1.2, round 3");
  assert.deepEqual(s.because, [{ infraction: "1.2", rank: "warning", ref: null, number: null, round: 3 }]);
});

test("the ranks a policy has the head judge confirm, per level and infraction, with its exceptions", () => {
  const policy = {
    ...POLICY,
    confirm: [{ ranks: ["loss_of_game", "disqualification"], by: "head_judge_or_assistant", judges: null, levels: [1],
                exceptions: ["2"], section: "C1" }],
  };
  assert.deepEqual(confirmRanks(policy, "1.1", 1), ["loss_of_game", "disqualification"]);
  assert.deepEqual(confirmRanks(policy, "2.1", 1), [], "an excepted sub-section");
  assert.deepEqual(confirmRanks(policy, "9.9", 1), [], "an unknown code");
  assert.deepEqual(confirmRanks(POLICY, "1.1", 1), [], "a policy without confirm");
});

test("the ranks an assistant head judge confirms: a rule naming them, never a rank or infraction the head judge's alone (PPG 4.1, 6.2)", () => {
  const rule = { ranks: ["loss_of_game", "disqualification"], by: "head_judge_or_assistant", judges: null, levels: [1],
                 exceptions: ["2"], section: "C1" };
  const policy = { ...POLICY, confirm: [rule], head_judge_only: ["disqualification"] };
  assert.deepEqual(assistantRanks(policy, "1.1", 1), ["loss_of_game"]);
  assert.deepEqual(assistantRanks(policy, "1.1", 2), [], "a level the rule does not name");
  assert.deepEqual(assistantRanks(policy, "2.1", 1), [], "an excepted sub-section");
  assert.deepEqual(assistantRanks({ ...policy, confirm: [{ ...rule, by: "head_judge" }] }, "1.1", 1), [],
                   "a rule naming the head judge alone");
  const headOnly = { ...policy, infractions: policy.infractions.map((i) => ({ ...i, head_judge_only: true })) };
  assert.deepEqual(assistantRanks(headOnly, "1.1", 1), [], "an infraction only the head judge decides");
});
