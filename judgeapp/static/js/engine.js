// The penalty engine on the phone: the same rules as judgeapp/infractions/engine.py, over the policy export of
// judgeapp/infractions/export.py. tests/shared/engine_cases.json runs through both (tests/js/engine.test.mjs, called
// from tests/unit/test_javascript.py), so they cannot drift. Pure: no DOM, no storage.

function rankById(policy, id) {
  for (var i = 0; i < policy.ranks.length; i++) if (policy.ranks[i].id === id) return policy.ranks[i];
  throw new Error("unknown rank " + id);
}

function infractionByCode(policy, code) {
  for (var i = 0; i < policy.infractions.length; i++) if (policy.infractions[i].code === code) return policy.infractions[i];
  return null;
}

function levelByNumber(policy, number) {
  for (var i = 0; i < policy.levels.length; i++) if (policy.levels[i].number === number) return policy.levels[i];
  throw new Error("unknown level " + number);
}

function rangeLabel(policy, range) {
  var min = rankById(policy, range.min), max = rankById(policy, range.max);
  return min.id === max.id ? min.name : min.name + " ~ " + max.name;
}

function ordinal(n) {
  var suffix = (n % 100 >= 10 && n % 100 <= 20) ? "th" : ({ 1: "st", 2: "nd", 3: "rd" })[n % 10] || "th";
  return n + suffix;
}

// Earlier penalties that make this one a repeat: standing, same sub-section, same day when the policy says so.
export function countingPriors(policy, infraction, priors, today) {
  return (priors || []).filter(function (p) {
    if ((p.status || "standing") !== "standing") return false;
    if (policy.repeat_scope === "day" && today && p.day && p.day !== today) return false;
    var subsection = p.subsection;
    if (!subsection) {
      var known = infractionByCode(policy, p.infraction);
      if (!known) return false;  // a code the catalog no longer has cannot be matched to a sub-section
      subsection = known.subsection;
    }
    return subsection === infraction.subsection;
  });
}

function explanation(policy, level, infraction, dflt, suggested, upgraded, because) {
  if (!infraction.penalized) return "Not an infraction: no penalty.";
  if (!suggested) return "No default penalty: the judge decides, guided by similar infractions.";
  if (!upgraded) return "Default at " + level.name + ": " + rangeLabel(policy, dflt) + ".";
  var last = because[because.length - 1];
  var where = last.ref !== null && last.ref !== undefined ? "incident #" + last.ref : last.infraction;
  if (last.round !== null && last.round !== undefined) where += ", round " + last.round;
  return "Upgraded: " + ordinal(because.length + 1) + " penalty in " + infraction.subsection + " for this player — " + where;
}

// The suggestion for `code` at `levelNumber`, given the player's earlier penalties at this event.
// priors: [{infraction, rank, ref, round, day ("YYYY-MM-DD"), status, subsection}]
export function suggest(policy, levelNumber, code, priors, today) {
  var level = levelByNumber(policy, levelNumber);
  var infraction = infractionByCode(policy, code);
  if (!infraction) throw new Error("unknown infraction " + code);
  var dflt = infraction.penalized && infraction.defaults ? infraction.defaults[String(level.number)] : null;
  var because = [], suggested = null, upgraded = false;
  if (dflt) {
    because = countingPriors(policy, infraction, priors, today);
    suggested = rankById(policy, dflt.min);
    if (because.length) {
      var above = policy.ranks[Math.min(suggested.order + 1, policy.ranks.length - 1)];
      upgraded = above.id !== suggested.id;
      suggested = above;
      if (!upgraded) because = [];  // already at the top rank: nothing to upgrade
    }
  }
  var inRange = policy.ranks.map(function (r) { return r.id; });
  if (suggested && dflt) {
    var top = Math.max(rankById(policy, dflt.max).order, suggested.order);
    inRange = policy.ranks.filter(function (r) { return r.order >= suggested.order && r.order <= top; })
      .map(function (r) { return r.id; });
  }
  return {
    ok: true,
    policy: policy.id,
    level: level.number,
    infraction: { code: infraction.code, name: infraction.name },
    "default": dflt ? { min: dflt.min, max: dflt.max } : null,
    default_label: dflt ? rangeLabel(policy, dflt) : null,
    suggested: suggested ? suggested.id : null,
    suggested_name: suggested ? suggested.name : null,
    upgraded: upgraded,
    because: because.map(function (p) {
      return { infraction: p.infraction, rank: p.rank, ref: p.ref === undefined ? null : p.ref,
               number: p.ref === undefined ? null : p.ref, round: p.round === undefined ? null : p.round };
    }),
    head_judge_only: suggested !== null && policy.head_judge_only.indexOf(suggested.id) !== -1,
    in_range: inRange,
    penalized: infraction.penalized,
    alternatives: (infraction.alternatives || []).filter(function (a) { return a.levels.indexOf(level.number) !== -1; })
      .map(function (a) { return { condition: a.condition, penalty: a.label }; }),
    explanation: explanation(policy, level, infraction, dflt, suggested, upgraded, because)
  };
}
