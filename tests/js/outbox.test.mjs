// The outbox's rules (judgeapp/static/js/outbox.js), pure: no page, no IndexedDB, no network.
import { test } from "node:test";
import assert from "node:assert/strict";
import { webcrypto } from "node:crypto";
import {
  beyondLast, eventOf, formBody, inLoggedOrder, newKey, newlyWaited, nextStep, pagesOf, playerNamed, refusalMessage,
  sentRow, stalePages, stampsOf, summaryText, unseenChange, waitingPriors, RENDER_GRACE_MS,
} from "../../judgeapp/static/js/outbox.js";

test("records are sent in the order they were logged, the key breaking a tie, without reordering the list given", () => {
  const rows = [{ key: "b", created: 2 }, { key: "c", created: 1 }, { key: "a", created: 2 }];
  assert.deepEqual(inLoggedOrder(rows).map((r) => r.key), ["c", "a", "b"]);
  assert.deepEqual(rows.map((r) => r.key), ["b", "c", "a"]);
  assert.deepEqual(inLoggedOrder(undefined), []);
});

test("a one-time key is 32 hex digits, fresh each time, also where randomUUID is missing (plain http)", () => {
  const keys = [newKey(webcrypto), newKey(webcrypto), newKey({ getRandomValues: (b) => webcrypto.getRandomValues(b) })];
  keys.forEach((k) => assert.match(k, /^[0-9a-f]{32}$/));
  assert.equal(new Set(keys).size, 3);
});

test("a record is posted with the page's fields, a fresh CSRF token and its writer's account", () => {
  const record = { owner: "7", waited: false, logged_at: "2026-05-01T10:00:00.000Z",
                   fields: [["csrf_token", "stale"], ["table", "12"], ["tag", "a"], ["tag", "b"]] };
  const body = formBody(record, { csrf_token: "fresh" });
  assert.deepEqual(body.getAll("csrf_token"), ["fresh"]);
  assert.deepEqual(body.getAll("tag"), ["a", "b"]);
  assert.equal(body.get("table"), "12");
  assert.equal(body.get("outbox_owner"), "7");
  assert.equal(body.get("logged_at"), null);
});

test("a record that waited for the network is posted with the time it was logged on the phone", () => {
  const record = { owner: "7", waited: true, logged_at: "2026-05-01T10:00:00.000Z", fields: [] };
  assert.equal(formBody(record, { csrf_token: "t" }).get("logged_at"), "2026-05-01T10:00:00.000Z");
});

test("each answer of the server decides what happens to the record and the ones after it", () => {
  const table = [
    [{ signedOut: true }, false, "signed-out"],
    [{ ok: true, status: 200 }, false, "sent"],
    [{ status: 400 }, false, "new-token"],  // a token that expired meanwhile: once more with a fresh one
    [{ status: 400 }, true, "rejected"],  // … but only once
    [{ status: 429 }, false, "retry"],
    [{ status: 500 }, false, "retry"],
    [{ status: 503 }, true, "retry"],
    [{ status: 403 }, false, "rejected"],
    [{ status: 404 }, false, "rejected"],
    [{ status: 409 }, false, "rejected"],
    [{ status: 413 }, false, "rejected"],
    [{ status: 422, errors: { table: ["Required."] } }, false, "rejected"],
  ];
  for (const [answer, retried, step] of table) assert.equal(nextStep(answer, retried), step, JSON.stringify(answer));
});

test("a refused record says the server's field errors, else what its status means", () => {
  assert.equal(refusalMessage({ status: 422, errors: { table: ["Required."], round: "Too big.", x: ["A.", "B."] } }),
               "Required. Too big. A. B.");
  assert.equal(refusalMessage({ status: 409, errors: {} }), "The event is closed: nothing more can be logged.");
  assert.equal(refusalMessage({ status: 418 }), "Refused (418).");
});

test("only waiting records not yet marked are marked as having waited", () => {
  const records = [{ key: "a", state: "waiting", waited: false }, { key: "b", state: "waiting", waited: true },
                   { key: "c", state: "rejected", waited: false }];
  assert.deepEqual(newlyWaited(records).map((r) => r.key), ["a"]);
});

test("a sent record keeps its incident's address without the query, its number and whether the upgrade changed", () => {
  const row = sentRow({ key: "k", owner: "7", kind: "incident", event_id: 3, summary: "Incident · table 4", waited: true },
                      { url: "/events/3/incidents/12?saved=1", number: 12, changed: true, suggested: "loss_of_game" }, 1000);
  assert.deepEqual(row, { key: "k", owner: "7", kind: "incident", event_id: "3", summary: "Incident · table 4",
                          sent_at: 1000, created: 1000, url: "/events/3/incidents/12", number: 12, changed: true,
                          suggested: "loss_of_game", waited: true, said: "" });
  const bare = sentRow({ key: "k", owner: "7", kind: "deck_check" }, {}, 5);
  assert.equal(bare.url, ""); assert.equal(bare.number, null); assert.equal(bare.changed, false);
  assert.equal(bare.event_id, "");
});

test("a sent time extension keeps what the server confirmed, to say it when it went in the background", () => {
  const said = "Table 5: 4 min added; it now ends at 18:16. Tell both players how much extra time …";
  const row = sentRow({ key: "k", owner: "7", kind: "extension", waited: true }, { url: "/events/1/clock", message: said }, 9);
  assert.equal(row.said, said);
  assert.equal(sentRow({ key: "k", owner: "7", kind: "incident" }, { message: "Saved" }, 9).said, "");
});

test("the last 20 sent records are kept and the older ones dropped", () => {
  const rows = Array.from({ length: 25 }, (_, i) => ({ key: String(i) }));
  assert.deepEqual(beyondLast(rows, 20).map((r) => r.key), ["0", "1", "2", "3", "4"]);
  assert.deepEqual(beyondLast(rows.slice(0, 20), 20), []);
});

test("a sent row names its event, also a row kept before the event was stored", () => {
  assert.equal(eventOf({ event_id: "4", url: "/events/9/incidents/1" }), "4");
  assert.equal(eventOf({ url: "/events/9/incidents/1" }), "9");
  assert.equal(eventOf({ url: "/elsewhere" }), "");
  assert.ok(unseenChange({ changed: true }));
  assert.ok(!unseenChange({ changed: true, seen: true }));
  assert.ok(!unseenChange({ changed: false }));
});

test("a record's summary names the form, its round and table when given", () => {
  assert.equal(summaryText("Time extension", "3", "12"), "Time extension · round 3 · table 12");
  assert.equal(summaryText("Deck check", "", "12"), "Deck check · table 12");
});

test("the phone keeps the home page and every page of each event, each fetched only when it is not current", () => {
  const changed = Date.UTC(2026, 4, 1, 9);
  const copy = { home: "/", shell: "s1", events: [
    { id: 1, stamp: "a", changed_at: changed, pages: ["/events/1", "/events/1/incidents/new", "/events/1/deck-checks/new"] },
    { id: 2, stamp: "b", changed_at: 0, pages: ["/events/2"] }] };
  assert.deepEqual(pagesOf(copy), ["/", "/events/1", "/events/1/incidents/new", "/events/1/deck-checks/new", "/events/2"]);
  const all = ["/", "/events/1", "/events/1/incidents/new", "/events/1/deck-checks/new", "/events/2"];
  assert.deepEqual(stalePages(copy, null, {}), all);  // nothing kept yet
  const after = changed + RENDER_GRACE_MS;
  const kept = { "/": after, "/events/1": after, "/events/1/incidents/new": after, "/events/1/deck-checks/new": after,
                 "/events/2": 1 };
  assert.deepEqual(stalePages(copy, null, kept), []);  // pages just loaded are not fetched a second time
  assert.deepEqual(stalePages(copy, copy, kept), []);
  // the event changed after the page was rendered (or too shortly before, for its commit to be sure): fetched again,
  // an event's last page too (it was the quick reference, which followed the catalog only: now rendered from the
  // policy's file, no page of the copy); the home page lists the events, so it follows the latest change
  const before = { ...kept, "/": after - 1, "/events/1/incidents/new": changed + 5000, "/events/1/deck-checks/new": 1 };
  assert.deepEqual(stalePages(copy, copy, before), ["/", "/events/1/incidents/new", "/events/1/deck-checks/new"]);
  assert.deepEqual(stalePages(copy, { ...copy, events: [copy.events[0]] }, kept), ["/"]);  // another event on the list
  assert.deepEqual(stalePages(copy, { ...copy, shell: "s0" }, kept), all);  // a new deployment: every page again
  assert.equal(stampsOf(copy), "a|bs1");
});

test("the judge's guide is kept with the events' pages, once per deployment, whatever the events change", () => {
  const copy = { home: "/", shell: "s1", help: ["/help/", "/help/floor-judge"],
                 events: [{ id: 1, changed_at: 5000, stamp: "a", pages: ["/events/1"] }] };
  assert.deepEqual(pagesOf(copy), ["/", "/events/1", "/help/", "/help/floor-judge"]);
  assert.deepEqual(stalePages(copy, null, {}), ["/", "/events/1", "/help/", "/help/floor-judge"]);
  const kept = { "/": 1e9, "/events/1": 1e9, "/help/": 1, "/help/floor-judge": 1 };
  assert.deepEqual(stalePages(copy, copy, kept), []);  // rendered before the event changed: the guide does not follow it
  assert.deepEqual(stalePages(copy, { ...copy, shell: "s0" }, kept).slice(-2), ["/help/", "/help/floor-judge"]);
  assert.deepEqual(pagesOf({ ...copy, help: undefined }), ["/", "/events/1"]);  // an older server
});

test("the phone's own incidents not sent yet count as the player's history at that event only", () => {
  const incident = (over) => ({ kind: "incident", state: "waiting", event_id: "1", created: Date.UTC(2026, 4, 1, 9),
                                fields: [["subject_kind", "player"], ["player_id", "5"], ["infraction", "3.5.2"],
                                         ["penalty", "warning"], ["round", "2"]], ...over });
  const records = [
    incident({}),
    incident({ event_id: "2" }),
    incident({ state: "rejected" }),
    incident({ kind: "extension" }),
    incident({ fields: [["subject_kind", "player"], ["player_id", "6"], ["infraction", "3.5.2"], ["penalty", "warning"]] }),
    incident({ fields: [["subject_kind", "player"], ["player_id", "5"], ["infraction", "3.5.2"], ["penalty", ""]] }),
  ];
  assert.deepEqual(waitingPriors(records, "1", (id) => id === 5),
                   [{ infraction: "3.5.2", rank: "warning", ref: null, round: 2, game: null, day: "2026-05-01", status: "standing" }]);
});

test("an incident not sent yet keeps its game of the match, which a per-game rule counts (FaB PPG 3.3)", () => {
  const record = { kind: "incident", state: "waiting", event_id: "1", created: Date.UTC(2026, 4, 1, 9),
                   fields: [["subject_kind", "player"], ["player_id", "5"], ["infraction", "3.3"], ["penalty", "caution"],
                            ["round", "2"], ["game", "2"]] };
  assert.deepEqual(waitingPriors([record], "1", (id) => id === 5).map((p) => [p.round, p.game]), [[2, 2]]);
});

test("a typed name, label or player ID names a player only when it names exactly one", () => {
  const players = [{ id: 1, name: "Ann Lee", code: "P-1" }, { id: 2, name: "Bo Kim", code: "P-2" },
                   { id: 3, name: "Bo Kim", code: null }];
  assert.deepEqual(playerNamed(players, " ann lee "), [1]);
  assert.deepEqual(playerNamed(players, "Ann Lee · P-1"), [1]);
  assert.deepEqual(playerNamed(players, "p-2"), [2]);
  assert.equal(playerNamed(players, "Bo Kim"), null);
  assert.equal(playerNamed(players, "Nobody"), null);
});

test("a record that waited and went in the last ten minutes is shown as sent, as which record, until acknowledged", async () => {
  const { recentlySent, sentText, SENT_SHOWN_MS } = await import("../../judgeapp/static/js/outbox.js");
  const now = 1_000_000_000;
  const rows = [
    { key: "a", kind: "incident", number: 4, waited: true, sent_at: now - 60_000 },
    { key: "b", kind: "extension", number: 2, waited: true, sent_at: now - 1_000 },
    { key: "c", kind: "incident", number: 5, waited: false, sent_at: now - 1_000 },  // went at once: the page said so
    { key: "d", kind: "incident", number: 6, waited: true, sent_at: now - SENT_SHOWN_MS - 1 },
    { key: "e", kind: "incident", number: 7, waited: true, sent_at: now - 1_000, acknowledged: true },
  ];
  assert.deepEqual(recentlySent(rows, now).map((r) => r.key), ["b", "a"]);
  assert.equal(sentText(rows[0]), "Sent as incident #4");
  assert.equal(sentText(rows[1]), "Sent as time extension #2");
  assert.equal(sentText({ kind: "deck_check" }), "Sent");
});

test("times on the phone read as the venue's clocks: 24-hour, in the venue's time zone, whatever the phone's settings", async () => {
  const { venueClock } = await import("../../judgeapp/static/js/outbox.js");
  const at = Date.UTC(2026, 10, 23, 15, 5);
  assert.equal(venueClock(at, "UTC"), "15:05");
  assert.equal(venueClock(at, "Asia/Tokyo"), "00:05");
  assert.equal(venueClock(at, "America/New_York"), "10:05");  // not "10:05 AM"
  assert.equal(venueClock(at, "Not/A_Zone"), venueClock(at, undefined));  // a zone the phone does not know: its own
});
