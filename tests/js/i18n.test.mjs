// The phone scripts' translations (judgeapp/static/js/i18n.js) over the JSON catalog `make` builds from the Japanese
// .po file (judgeapp/static/i18n/ja.json): a page names it in <meta name="judgeapp-messages">, <html lang> says the
// language. Each case gives i18n.js a page (document) and a network (fetch), then imports a fresh copy of it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const CATALOG_URL = "/static/i18n/ja.json?v=0123456789ab";
const JA = JSON.parse(readFileSync(new URL("../../judgeapp/static/i18n/ja.json", import.meta.url), "utf-8"));

function page(lang, catalogUrl) {
  return {
    documentElement: { lang },
    querySelector: (sel) => (catalogUrl && sel === 'meta[name="judgeapp-messages"]' ? { content: catalogUrl } : null),
  };
}
function network(answer) {
  const asked = [];
  const fetch = (url, options) => {
    asked.push({ url, options });
    return answer(url, options);
  };
  return { fetch, asked };
}
const serves = (body) => () => Promise.resolve({ ok: true, json: () => Promise.resolve(body) });
let fresh = 0;
async function i18nFor(doc, net) {
  globalThis.document = doc;
  globalThis.fetch = net.fetch;
  try {
    return await import(`../../judgeapp/static/js/i18n.js?case=${++fresh}`);
  } finally {
    delete globalThis.document;
  }
}

// The first import of the plain module in this process (the one outbox.js, seats.js and owed.js import) gets a
// Japanese page: those pure modules then write Japanese.
const japanese = network(serves(JA));
globalThis.document = page("ja", CATALOG_URL);
globalThis.fetch = japanese.fetch;
const plain = await import("../../judgeapp/static/js/i18n.js");
const outbox = await import("../../judgeapp/static/js/outbox.js");
const { seatNote } = await import("../../judgeapp/static/js/seats.js");
const { owedText } = await import("../../judgeapp/static/js/owed.js");
delete globalThis.document;

test("a Japanese page fetches the catalog its meta names, with the session's cookies, once", () => {
  assert.equal(plain.locale, "ja");
  assert.equal(japanese.asked.length, 1);
  assert.equal(japanese.asked[0].url, CATALOG_URL);
  assert.equal(japanese.asked[0].options.credentials, "same-origin");
});

test("a message in the catalog is said in Japanese with its placeholders filled by name", () => {
  assert.equal(plain._("Send now"), "今すぐ送信");
  assert.equal(plain._("Sent as incident #%(number)s", { number: 4 }), "違反記録 #4 として送信済み");
  assert.equal(plain._("Use table %(table)s", { table: "12" }), "12番卓にする");
  // the values go in where the Japanese puts them, whatever the English order
  assert.equal(plain._("%(name)s is at table %(at)s this round, not table %(typed)s.", { name: "佐藤 陽翔", at: "5", typed: "3" }),
               "佐藤 陽翔のこのラウンドの卓は5番卓です（3番卓ではありません）。");
});

test("a value holding a placeholder's spelling is put in as it is, not filled again", () => {
  assert.equal(plain._("Discard this record for good? %(summary)s", { summary: "%(summary)s · 違反記録" }),
               "この記録を完全に破棄しますか？ %(summary)s · 違反記録");
});

test("a message missing from the catalog falls back to the English id, placeholders still filled", () => {
  assert.equal(plain._("Not a message of the catalog, table %(table)s", { table: 7 }), "Not a message of the catalog, table 7");
  assert.equal(plain._("Nothing to fill %(left)s"), "Nothing to fill %(left)s");
  assert.equal(plain.ngettext("%(num)s unknown thing", "%(num)s unknown things", 1), "1 unknown thing");
  assert.equal(plain.ngettext("%(num)s unknown thing", "%(num)s unknown things", 3), "3 unknown things");
});

test("Japanese has one plural form: ngettext gives it for one and for many, with the count and other values", () => {
  const one = plain.ngettext("%(num)s record waiting to be sent", "%(num)s records waiting to be sent", 1);
  const many = plain.ngettext("%(num)s record waiting to be sent", "%(num)s records waiting to be sent", 3);
  assert.equal(one, "送信待ちの記録 1件");
  assert.equal(many, "送信待ちの記録 3件");
  const signOut = plain.ngettext(
    "%(num)s record could not be sent yet (%(waiting)s waiting for the network). They stay on this phone, unreadable to other accounts, and are sent when you sign in again. Sign out anyway?",
    "%(num)s records could not be sent yet (%(waiting)s waiting for the network). They stay on this phone, unreadable to other accounts, and are sent when you sign in again. Sign out anyway?",
    2, { waiting: 1 });
  assert.match(signOut, /^2件の記録をまだ送信できていません（うち1件はネットワーク待ち）。/);
});

test("the outbox's, the seats' and the time rules' sentences come out in Japanese on a Japanese page", () => {
  assert.equal(outbox.sentText({ kind: "extension", number: 2 }), "時間延長 #2 として送信済み");
  assert.equal(outbox.sentText({ kind: "deck_check" }), "送信済み");
  assert.equal(outbox.refusalMessage({ status: 409 }), "大会は終了しています。これ以上記録できません。");
  assert.equal(outbox.refusalMessage({ status: 418 }), "拒否されました（418）。");
  assert.equal(outbox.summaryText("違反記録", "3", "12"), "違反記録 · 第3ラウンド · 12番卓");
  assert.deepEqual(seatNote({ 5: [{ id: 3, label: "佐藤 陽翔" }] }, [], 3, "佐藤 陽翔", ""),
                   { text: "佐藤 陽翔のこのラウンドの卓は5番卓です。", table: "5" });
  assert.equal(owedText({ over: 2, plus: 0, summary: "ジャッジコールの時間", section: "1.2.2" }, 192_400),
               "時間延長4分：ジャッジコールの時間（1.2.2）");
});

test("a Japanese page's clock is the venue's, 24-hour (14:05, never 午後2:05)", () => {
  const at = Date.UTC(2026, 10, 23, 5, 5);
  assert.equal(outbox.venueClock(at, "Asia/Tokyo"), "14:05");
  assert.equal(outbox.venueClock(at + 9 * 3600_000, "Asia/Tokyo"), "23:05");
  assert.equal(outbox.venueClock(at, "UTC", "en"), "05:05");
});

test("an English page asks for no catalog: the ids are the English, ngettext picks the English form", async () => {
  const net = network(() => assert.fail("an English page fetched a catalog"));
  const en = await i18nFor(page("en", null), net);
  assert.equal(en.locale, "en");
  assert.equal(en._("Send now"), "Send now");
  assert.equal(en._("Sent as incident #%(number)s", { number: 4 }), "Sent as incident #4");
  assert.equal(en.ngettext("%(num)s record waiting to be sent", "%(num)s records waiting to be sent", 1), "1 record waiting to be sent");
  assert.equal(en.ngettext("%(num)s record waiting to be sent", "%(num)s records waiting to be sent", 0), "0 records waiting to be sent");
  assert.equal(net.asked.length, 0);
});

test("offline with no kept copy of the catalog, a Japanese page's script still runs, in English", async () => {
  const net = network(() => Promise.reject(new TypeError("Failed to fetch")));
  const ja = await i18nFor(page("ja", CATALOG_URL), net);
  assert.equal(net.asked.length, 1);
  assert.equal(ja._("Send now"), "Send now");
  assert.equal(ja.ngettext("%(num)s record waiting to be sent", "%(num)s records waiting to be sent", 2), "2 records waiting to be sent");
});

test("a catalog answered with an error page, or not JSON, leaves the English ids", async () => {
  const notFound = await i18nFor(page("ja", CATALOG_URL), network(() => Promise.resolve({ ok: false, status: 404 })));
  assert.equal(notFound._("Send now"), "Send now");
  const broken = await i18nFor(page("ja", CATALOG_URL), network(() => Promise.resolve({
    ok: true, json: () => Promise.reject(new SyntaxError("Unexpected token <")) })));
  assert.equal(broken._("Send now"), "Send now");
});

test("a network that never answers holds the page's script back no longer than CATALOG_WAIT_MS", async () => {
  const hanging = network((url, options) => new Promise((resolve, reject) => {
    options.signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
  }));
  const started = Date.now();
  const ja = await i18nFor(page("ja", CATALOG_URL), hanging);
  const waited = Date.now() - started;
  assert.ok(waited >= ja.CATALOG_WAIT_MS - 50 && waited < ja.CATALOG_WAIT_MS + 2000, `waited ${waited} ms`);
  assert.equal(ja._("Send now"), "Send now");
});
