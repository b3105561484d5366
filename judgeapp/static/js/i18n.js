// The phone's strings in the page's language (<html lang>): the JSON catalog `make` builds from the same .po files as
// the server's (scripts/i18n.py), named by <meta name="judgeapp-messages">; English needs none, its strings are the
// ids. Placeholders are Python's: _("Table %(n)s", {n: 4}).
// Every module that imports this one waits for the catalog (a top-level await): offline the service worker answers it
// from the phone (it is one of the shell's files, sw.js); with no kept copy and no network, or a network that does
// not answer within CATALOG_WAIT_MS, the English ids are shown and the page's script still runs.
export const CATALOG_WAIT_MS = 3000;
const meta = typeof document === "undefined" ? null : document.querySelector('meta[name="judgeapp-messages"]');
let messages = {};
if (meta && meta.content) {
  const abort = typeof AbortController === "function" ? new AbortController() : null;
  const timer = abort ? setTimeout(() => abort.abort(), CATALOG_WAIT_MS) : null;
  try {
    const answer = await fetch(meta.content, { credentials: "same-origin", signal: abort ? abort.signal : undefined });
    if (answer.ok) {
      const got = await answer.json();
      if (got && typeof got === "object" && !Array.isArray(got)) messages = got;
    }
  } catch {
    // no network and no kept copy: the English ids still say it
  } finally {
    clearTimeout(timer);
  }
}

export const locale = (typeof document !== "undefined" && document.documentElement.lang) || "en";

function fill(text, values) {
  if (!values) return text;
  return text.replace(/%\((\w+)\)[sd]/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

export function _(msgid, values) {
  const found = messages[msgid];
  return fill(typeof found === "string" && found ? found : msgid, values);
}

export function ngettext(singular, plural, n, values) {
  const found = messages[singular];
  const all = { num: n, ...(values || {}) };
  if (Array.isArray(found) && found.length) {
    // Japanese has one form; other languages' plural rules are not needed yet: first form for 1, last for others
    return fill(found.length === 1 ? found[0] : n === 1 ? found[0] : found[found.length - 1], all);
  }
  return fill(n === 1 ? singular : plural, all);
}
