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

// `ja`, `ja-JP`, `ja_JP` -> `ja`; nothing -> `en` (catalog.py base_language).
function baseLanguage(lang) {
  return String(lang || "en").replace("-", "_").split("_")[0].toLowerCase() || "en";
}

// An entry's name in `lang`, else its English `name` (catalog.py Named.name_in).
export function nameIn(entry, lang) {
  var names = entry.names || {};
  return names[baseLanguage(lang)] || entry.name;
}

// An alternative's condition in `lang`, else its English one (catalog.py text_in).
function conditionIn(alternative, lang) {
  var conditions = alternative.conditions || {};
  return conditions[baseLanguage(lang)] || alternative.condition;
}

var RANGE_SEPARATORS = { ja: "～" };  // catalog.py RANGE_SEPARATORS

export function rangeLabel(policy, range, lang) {
  var min = rankById(policy, range.min), max = rankById(policy, range.max);
  var sep = RANGE_SEPARATORS[baseLanguage(lang)] || " ~ ";
  return min.id === max.id ? nameIn(min, lang) : nameIn(min, lang) + sep + nameIn(max, lang);
}

// The explanation's phrases per language: the same table as engine.py PHRASES (the shared cases compare them).
var PHRASES = {
  en: {
    no_default_but: "No penalty by default at {level}; {when}.",
    alternative: "{penalty} when {condition}",
    or: "; ",
    not_penalized: "Not an infraction: no penalty.",
    discretion: "No default penalty: the judge decides, guided by similar infractions.",
    "default": "Default at {level}: {penalty}.",
    default_late: "Default at {level} for {minutes} minutes late: {penalty}.",
    upgraded: "Upgraded: {nth} {what} {window} ({section}): {rank} — after {where}",
    incident: "incident #{ref}",
    in_round: "{where}, round {round}",
    window_event: "at this event",
    window_day: "today",
    window_match: "in this match",
    window_game: "in this game",
    in_round_game: "{where}, round {round}, game {game}",
    related: "One penalty for related errors ({section}): the same cause as {where}, whose {rank} stands for both; no second penalty.",
    related_more: " This error's default ({penalty}) is more severe: correct the penalty of {where} instead.",
    penalty_in: "penalty in {subsection}",
    penalty: "penalty",
    offered: " The judge may escalate to {rank} ({section}: {nth} {what} {window}): their call, never applied by itself."
  },
  ja: {
    no_default_but: "{level}では標準の罰則はありません。{when}。",
    alternative: "{condition}の場合は{penalty}",
    or: "、",
    not_penalized: "違反ではありません。罰則はありません。",
    discretion: "標準の罰則はありません。類似の違反を参考にジャッジが決めます。",
    "default": "{level}の標準の罰則：{penalty}",
    default_late: "{level}で{minutes}分の遅刻の標準の罰則：{penalty}",
    upgraded: "格上げ：{window}{what}の{n}回目（{section}）：{rank} — 前回：{where}",
    incident: "違反記録 #{ref}",
    in_round: "{where}（第{round}ラウンド）",
    window_event: "この大会で",
    window_day: "本日",
    window_match: "このマッチで",
    window_game: "このゲームで",
    in_round_game: "{where}（第{round}ラウンド第{game}ゲーム）",
    related: "関連する違反は1つの罰則（{section}）：{where}と同じ原因で、その{rank}が両方に対する罰則です。2つ目の罰則はありません。",
    related_more: "この違反の標準の罰則（{penalty}）の方が重いため、代わりに{where}の罰則を訂正してください。",
    penalty_in: "{subsection}の罰則",
    penalty: "罰則",
    offered: "ジャッジの判断で{rank}に格上げできます（{section}：{window}{what}の{n}回目）。自動では適用されません。"
  }
};

function phrases(lang) { return PHRASES[baseLanguage(lang)] || PHRASES.en; }

// str.format's {name} placeholders, filled in one pass (a value holding braces is not read again).
function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, function (whole, name) { return name in values ? String(values[name]) : whole; });
}

function ordinal(n, lang) {
  if (baseLanguage(lang) !== "en") return String(n);
  var suffix = (n % 100 >= 10 && n % 100 <= 20) ? "th" : ({ 1: "st", 2: "nd", 3: "rd" })[n % 10] || "th";
  return n + suffix;
}

function inCodes(codes, code, subsection) {
  return codes.indexOf(code) !== -1 || (!!subsection && codes.indexOf(subsection) !== -1);
}

// Whether `rule` counts repeats of `infraction` at `level` (undefined: at any level) (engine.py _counts_repeats_of).
function countsRepeatsOf(rule, infraction, level) {
  if ((infraction.repeats || "counted") !== "counted") return false;
  if (infraction.repeat_rules && infraction.repeat_rules.indexOf(rule.id) === -1) return false;
  return level == null || !rule.levels.length || rule.levels.indexOf(level) !== -1;
}

// Whether `rule` may upgrade `infraction` at `level` (engine.py rule_applies).
export function ruleApplies(rule, infraction, level) {
  if (!countsRepeatsOf(rule, infraction, level)) return false;
  var scope = rule.applies_to.length ? rule.applies_to : (rule.counts === "group" ? rule.group : []);
  return !scope.length || inCodes(scope, infraction.code, infraction.subsection);
}

// The earlier penalties `rule` counts (engine.py counted_by): standing, in its window, of what it counts. Per game:
// only a penalty of the same round and game, both known.
export function countedBy(policy, rule, infraction, priors, today, thisRound, thisGame) {
  return (priors || []).filter(function (p) {
    if ((p.status || "standing") !== "standing") return false;
    if (rule.window === "day" && today && p.day && p.day !== today) return false;
    if (rule.window === "match" && thisRound != null && p.round != null && p.round !== thisRound) return false;
    if (rule.window === "game" && (thisRound == null || thisGame == null || p.round !== thisRound || p.game !== thisGame)) return false;
    if (rule.prior_ranks.length && rule.prior_ranks.indexOf(p.rank) === -1) return false;
    var known = infractionByCode(policy, p.infraction);
    if (known && known.repeats === "tracking_only") return false;
    var subsection = p.subsection || (known ? known.subsection : null);
    if (rule.counts === "any") return true;
    if (rule.counts === "infraction") return p.infraction === infraction.code;
    if (!subsection) return false;  // a code the catalog no longer has cannot be matched to a sub-section
    if (rule.counts === "subsection") return subsection === infraction.subsection;
    return inCodes(rule.group, p.infraction, subsection);
  });
}

// The earlier penalties that make this one a repeat under any rule (engine.py counting_priors).
export function countingPriors(policy, infraction, priors, today, thisRound, thisGame) {
  var seen = [];
  (policy.repeat_rules || []).forEach(function (rule) {
    if (!countsRepeatsOf(rule, infraction)) return;
    countedBy(policy, rule, infraction, priors, today, thisRound, thisGame).forEach(function (p) {
      if (seen.indexOf(p) === -1) seen.push(p);
    });
  });
  return (priors || []).filter(function (p) { return seen.indexOf(p) !== -1; });
}

function upgradedRank(policy, rule, base, counted) {
  var n = counted.length + 1, rank;
  if (rule.result === "rank" && rule.rank) rank = rankById(policy, rule.rank);
  else if (rule.result === "ladder" && rule.ladder.length) {
    rank = rankById(policy, rule.ladder[Math.min(n - rule.from_count, rule.ladder.length - 1)]);
  } else {
    var start = base;
    var last = counted.length ? policy.ranks.filter(function (x) { return x.id === counted[counted.length - 1].rank; })[0] : null;
    if (rule.above_last_given && last) start = last;  // the penalty actually given last time, even below the default
    else if (rule.above_highest_prior) {
      counted.forEach(function (p) {
        var r = policy.ranks.filter(function (x) { return x.id === p.rank; })[0];
        if (r && r.order > start.order) start = r;
      });
    }
    rank = policy.ranks[Math.min(start.order + rule.steps, policy.ranks.length - 1)];
  }
  if (rule.cap && rank.order > rankById(policy, rule.cap).order) rank = rankById(policy, rule.cap);
  return rank.order > base.order ? rank : base;
}

function ruleSubject(rule, infraction, lang) {
  if (rule.name) return nameIn(rule, lang);
  if (rule.counts === "infraction") return infraction.code + " " + nameIn(infraction, lang);
  if (rule.counts === "subsection") return fill(phrases(lang).penalty_in, { subsection: infraction.subsection });
  return phrases(lang).penalty;
}

function sectionIn(rule, lang) { return (rule.sections || {})[baseLanguage(lang)] || rule.section; }

// The sentences for the escalations the text leaves to the judge (engine.py Suggestion._offer_words).
function offerWords(offers, infraction, lang) {
  var words = phrases(lang);
  return offers.map(function (o) {
    return fill(words.offered, {
      rank: nameIn(o.rank, lang), section: sectionIn(o.rule, lang), nth: ordinal(o.because.length + 1, lang),
      n: o.because.length + 1, what: ruleSubject(o.rule, infraction, lang), window: words["window_" + o.rule.window]
    });
  }).join("");
}

// An earlier record as the explanation names it (engine.py _where): "incident #3, round 2" (", game 1" when known).
function whereOf(p, lang) {
  var words = phrases(lang);
  var where = p.ref !== null && p.ref !== undefined ? fill(words.incident, { ref: p.ref }) : p.infraction;
  var hasRound = p.round !== null && p.round !== undefined, hasGame = p.game !== null && p.game !== undefined;
  if (hasRound && hasGame) return fill(words.in_round_game, { where: where, round: p.round, game: p.game });
  if (hasRound) return fill(words.in_round, { where: where, round: p.round });
  return where;
}

// "One penalty for related errors (IPG 1.2): …" (engine.py Suggestion._related_words).
function relatedWords(policy, related, dflt, lang) {
  var words = phrases(lang), where = whereOf(related, lang);
  var given = policy.ranks.filter(function (r) { return r.id === related.rank; })[0] || null;
  var text = fill(words.related, { section: policy.related_errors.section, where: where,
                                   rank: given ? nameIn(given, lang) : related.rank });
  if (dflt && given && rankById(policy, dflt.min).order > given.order) {
    text += fill(words.related_more, { penalty: rangeLabel(policy, dflt, lang), where: where });
  }
  return text;
}

function explanation(policy, level, infraction, dflt, suggested, rule, because, lang, offers, lateRow, related) {
  var words = phrases(lang), levelName = nameIn(level, lang);
  if (related && policy.related_errors) return relatedWords(policy, related, dflt, lang);
  if (!infraction.penalized) {
    var alts = (infraction.alternatives || []).filter(function (a) { return a.levels.indexOf(level.number) !== -1; });
    if (alts.length) {  // no penalty unless a condition holds (IPG 2.1)
      var when = alts.map(function (a) {
        return fill(words.alternative, { penalty: rangeLabel(policy, a.penalty, lang), condition: conditionIn(a, lang) });
      }).join(words.or);
      return fill(words.no_default_but, { level: levelName, when: when });
    }
    return words.not_penalized;
  }
  if (!suggested) return words.discretion;
  var offered = offerWords(offers, infraction, lang);
  if (!rule && lateRow) {
    return fill(words.default_late, { level: levelName, penalty: rangeLabel(policy, dflt, lang), minutes: lateRow.minutes }) + offered;
  }
  if (!rule) return fill(words["default"], { level: levelName, penalty: rangeLabel(policy, dflt, lang) }) + offered;
  var where = whereOf(because[because.length - 1], lang);
  return fill(words.upgraded, {
    nth: ordinal(because.length + 1, lang), n: because.length + 1, what: ruleSubject(rule, infraction, lang),
    window: words["window_" + rule.window], section: sectionIn(rule, lang),
    rank: nameIn(suggested, lang), where: where
  }) + offered;
}

// The row of defaults for `minutes` late (catalog.py Infraction.late_row): the last that starts at or before it.
function lateRowFor(infraction, minutes) {
  if (minutes === null || minutes === undefined) return null;
  var rows = infraction.minutes_late || [], found = null;
  rows.forEach(function (r) { if (r.from <= minutes) found = r; });
  return found ? { defaults: found.defaults, minutes: minutes } : null;
}

// The ranks the policy has the head judge confirm for `code` at `level` (the view's confirm_ranks, offline).
export function confirmRanks(policy, code, level) {
  var infraction = infractionByCode(policy, code);
  if (!infraction) return [];
  return policy.ranks.filter(function (r) { return confirmationFor(policy, infraction, r.id, level) !== null; })
    .map(function (r) { return r.id; });
}

// Of those, the ranks an assistant head judge may confirm (catalog.py Policy.assistant_may_confirm): the rule names "the
// head judge or an assistant head judge", and neither the rank nor the infraction is the head judge's alone.
export function assistantRanks(policy, code, level) {
  var infraction = infractionByCode(policy, code);
  if (!infraction || infraction.head_judge_only) return [];
  return policy.ranks.filter(function (r) {
    var c = confirmationFor(policy, infraction, r.id, level);
    return c !== null && c.by === "head_judge_or_assistant" && policy.head_judge_only.indexOf(r.id) === -1;
  }).map(function (r) { return r.id; });
}

// The first of the policy's confirmation rules that holds for this penalty (catalog.py Policy.confirmation_for).
function confirmationFor(policy, infraction, rankId, level) {
  var rules = policy.confirm || [];
  for (var i = 0; i < rules.length; i++) {
    var c = rules[i];
    if (rankId === null || c.ranks.indexOf(rankId) === -1) continue;
    if (c.levels.length && c.levels.indexOf(level) === -1) continue;
    if (c.exceptions.indexOf(infraction.code) !== -1 || c.exceptions.indexOf(infraction.subsection) !== -1) continue;
    if (c.off_default && !offDefault(policy, infraction, rankId, level)) continue;
    return { by: c.by, judges: c.judges === undefined ? null : c.judges, section: c.section };
  }
  return null;
}

// Whether `rankId` lies outside the infraction's general default at `level` (an up- or downgrade; catalog.py
// Policy.confirmation_for).
function offDefault(policy, infraction, rankId, level) {
  var dflt = infraction.penalized && infraction.defaults ? infraction.defaults[String(level)] : null;
  if (!dflt) return false;
  var order = function (id) { return policy.ranks.map(function (r) { return r.id; }).indexOf(id); };
  var at = order(rankId);
  return at !== -1 && (at < order(dflt.min) || at > order(dflt.max));
}

// Whether a rule counting per game may upgrade `infraction` at `level` (engine.py asks_game): the form asks the game.
export function asksGame(policy, infraction, level) {
  return !!infraction.penalized && (policy.repeat_rules || []).some(function (rule) {
    return rule.window === "game" && ruleApplies(rule, infraction, level);
  });
}

// The suggestion for `code` at `levelNumber`, given the player's earlier penalties at this event.
// priors: [{infraction, rank, ref, round, game, day ("YYYY-MM-DD"), status, subsection}]; thisRound: the incident's
// round (for rules counting within a match); lang: the page's language, for the names and the explanation (English
// when absent); thisGame: the game of the round's match (for rules counting per game); relatedTo: the earlier record
// ({infraction, rank, ref, round, game}) the judge linked this one to as the same cause (one penalty for related
// errors): then nothing is suggested
export function suggest(policy, levelNumber, code, priors, today, thisRound, lang, minutesLate, thisGame, relatedTo) {
  var level = levelByNumber(policy, levelNumber);
  var infraction = infractionByCode(policy, code);
  if (!infraction) throw new Error("unknown infraction " + code);
  if (relatedTo && !policy.related_errors) throw new Error(policy.id + " gives every error its own penalty");
  thisGame = thisGame === undefined ? null : thisGame;
  var gameAsked = asksGame(policy, infraction, level.number);
  var dflt = infraction.penalized && infraction.defaults ? infraction.defaults[String(level.number)] : null;
  var lateRow = infraction.penalized ? lateRowFor(infraction, minutesLate) : null;
  if (lateRow) dflt = lateRow.defaults[String(level.number)];
  var because = [], suggested = null, chosen = null, offers = [];
  if (dflt && !relatedTo) {
    suggested = rankById(policy, dflt.min);
    var base = suggested;
    (policy.repeat_rules || []).forEach(function (rule) {
      if (!ruleApplies(rule, infraction, level.number)) return;
      // e.g. "the second Warning becomes a Game Loss": a Caution being given stays one
      if (rule.upgrades && rule.upgrades.length && rule.upgrades.indexOf(base.id) === -1) return;
      var counted = countedBy(policy, rule, infraction, priors, today, thisRound, thisGame);
      if (counted.length + 1 < rule.from_count) return;
      var rank = upgradedRank(policy, rule, base, counted);
      if (rule.offered) offers.push({ rule: rule, rank: rank, because: counted });
      else if (rank.order > suggested.order) { suggested = rank; chosen = rule; because = counted; }
    });
    offers = offers.filter(function (o) { return o.rank.order > suggested.order; });
  }
  var upgraded = chosen !== null;
  var inRange = policy.ranks.map(function (r) { return r.id; });
  var headJudgeRange = [];  // ranks a rule's range_to reaches that only the head judge gives (Riftbound 704.1.b)
  if (suggested && dflt) {
    var top = Math.max(rankById(policy, dflt.max).order, suggested.order);
    if (chosen && chosen.range_to && !chosen.range_to_by) top = Math.max(top, rankById(policy, chosen.range_to).order);
    offers.forEach(function (o) { top = Math.max(top, o.rank.order); });  // the judge's call: no reason to type
    inRange = policy.ranks.filter(function (r) { return r.order >= suggested.order && r.order <= top; })
      .map(function (r) { return r.id; });
    if (chosen && chosen.range_to && chosen.range_to_by === "head_judge") {  // engine.py head_judge_range
      var own = Math.max(rankById(policy, dflt.max).order, suggested.order);
      offers.forEach(function (o) { own = Math.max(own, o.rank.order); });
      var reach = rankById(policy, chosen.range_to).order;
      headJudgeRange = policy.ranks.filter(function (r) { return r.order > own && r.order <= reach; })
        .map(function (r) { return r.id; });
    }
  }
  return {
    ok: true,
    policy: policy.id,
    level: level.number,
    infraction: { code: infraction.code, name: nameIn(infraction, lang) },
    "default": dflt ? { min: dflt.min, max: dflt.max } : null,
    default_label: dflt ? rangeLabel(policy, dflt, lang) : null,
    suggested: suggested ? suggested.id : null,
    suggested_name: suggested ? nameIn(suggested, lang) : null,
    upgraded: upgraded,
    rule: chosen ? chosen.id : null,
    because: because.map(function (p) {
      return { infraction: p.infraction, rank: p.rank, ref: p.ref === undefined ? null : p.ref,
               number: p.ref === undefined ? null : p.ref, round: p.round === undefined ? null : p.round };
    }),
    head_judge_only: !!infraction.head_judge_only ||
      (suggested !== null && policy.head_judge_only.indexOf(suggested.id) !== -1),
    head_judge_infraction: !!infraction.head_judge_only,
    head_judge_range: headJudgeRange,
    offered: offers.map(function (o) {
      return { rule: o.rule.id, rank: o.rank.id, because: o.because.map(function (p) { return p.ref === undefined ? null : p.ref; }) };
    }),
    confirm: confirmationFor(policy, infraction, suggested ? suggested.id : null, level.number),
    unnamed_allowed: !!policy.unnamed_penalties && infraction.penalized && !infraction.defaults,
    in_range: inRange,
    penalized: infraction.penalized,
    alternatives: (infraction.alternatives || []).filter(function (a) { return a.levels.indexOf(level.number) !== -1; })
      .map(function (a) { return { condition: conditionIn(a, lang), penalty: rangeLabel(policy, a.penalty, lang), rank: a.penalty.min }; }),
    asks_minutes_late: !!(infraction.minutes_late && infraction.minutes_late.length),
    minutes_late: lateRow ? lateRow.minutes : null,
    asks_game: gameAsked,
    game: gameAsked ? thisGame : null,
    related_allowed: !!policy.related_errors,
    related_to: relatedTo ? (relatedTo.ref === undefined ? null : relatedTo.ref) : null,
    explanation: explanation(policy, level, infraction, dflt, suggested, chosen, because, lang, offers, lateRow, relatedTo)
  };
}
