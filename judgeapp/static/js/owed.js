// Pure (tests/js/owed.test.mjs, with the Python engine's answers in tests/shared/owed_cases.json): the minutes a match
// is owed back for a stop of `takenMs`, under a policy's time rule, exactly as judgeapp/infractions/timing.py counts
// them: nothing for a stop no longer than the rule's threshold, else the stop in whole minutes rounded up, plus the
// rule's extra.
import { _ } from "./i18n.js";

export function owedMinutes(rule, takenMs) {
  if (!rule || !(takenMs > 0) || takenMs <= rule.over * 60000) return 0;
  return Math.ceil(takenMs / 60000) + rule.plus;
}

// m:ss of a running stop.
export function clockText(ms) {
  var s = Math.max(0, Math.floor(ms / 1000));
  return Math.floor(s / 60) + ":" + ("0" + (s % 60)).slice(-2);
}

// "4 min owed (summary, section)", or why nothing is owed yet.
export function owedText(rule, takenMs) {
  if (!rule) return _("This policy sets no time extension for this; the judge decides.");
  var owed = owedMinutes(rule, takenMs), values = { minutes: owed, summary: rule.summary, section: rule.section };
  return owed ? _("%(minutes)s min owed: %(summary)s (%(section)s)", values)
    : _("No time owed yet: %(summary)s (%(section)s)", values);
}

// Minutes between two "HH:MM" times of one day (the next day when the second is earlier); null unless both are given.
export function betweenMs(from, to) {
  var a = /^(\d\d):(\d\d)/.exec(from || ""), b = /^(\d\d):(\d\d)/.exec(to || "");
  if (!a || !b) return null;
  var m = (+b[1] * 60 + +b[2]) - (+a[1] * 60 + +a[2]);
  return (m < 0 ? m + 1440 : m) * 60000;
}
