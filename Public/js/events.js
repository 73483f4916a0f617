// The shown device's events in the feed and the lanes: taken in id order from the history or the stream (each once),
// older pages loaded as the reader reaches back before the oldest one held, and the line that says how much is loaded.
import { enc } from "./api.js";
import { refreshApps } from "./device-panel.js";
import { $ } from "./dom.js";
import { formatVirtual } from "./format.js";
import { state } from "./state.js";
import { feed, lanes, model } from "./widgets.js";

const PAGE = 500;          // events per page of history
const NEAR_TOP_ROWS = 20;  // the feed pages older events in when scrolled this close to its top

/** Forgets the events of the device shown before: the feed and the lanes start empty, nothing is loaded. */
export function resetEvents() {
  state.lastId = 0;
  state.oldestId = null;
  state.allLoaded = false;
  state.loadingOlder = false;
  state.pageTimes = [];
  feed.reset();
  model.setInstalled([]);
  model.reset();
  lanes.fit();
  $("feed").dataset.loaded = "false";
}

/**
 * Loads the newest page of device `id`'s events (older pages come in when the feed or the lanes reach back before
 * it); answers false when the device shown changed meanwhile.
 */
export async function loadNewest(id, generation) {
  const page = await state.api.get(`/v1/devices/${enc(id)}/events?order=desc&limit=${PAGE}`);
  if (generation !== state.generation) return false;
  const events = page.items.slice().reverse();
  state.allLoaded = !page.nextCursor;
  state.oldestId = events.length ? events[0].id : null;
  // Before the oldest event of the page, the lanes show no state until that history is loaded.
  model.reset();
  if (!state.allLoaded && events.length) model.historyFrom = Date.parse(events[0].at);
  receive(events);
  if (model.addInstalled()) lanes.schedule();   // the apps list may have come first
  return true;
}

/** Loads the page of events just older than the oldest loaded one; one request at a time. */
export async function loadOlder() {
  if (state.allLoaded || state.loadingOlder || state.oldestId === null || !state.deviceId) return;
  if ($("feed").dataset.loaded !== "true") return;
  const generation = state.generation;
  const started = performance.now();
  state.loadingOlder = true;
  renderHistoryState();
  let page;
  try {
    page = await state.api.get(`/v1/devices/${enc(state.deviceId)}/events?order=desc&limit=${PAGE}&cursor=${state.oldestId}`);
  } catch (error) {
    if (generation !== state.generation) return;
    state.loadingOlder = false;
    renderHistoryState(`older events failed: ${error.message}`);
    return;
  }
  if (generation !== state.generation) return;
  state.loadingOlder = false;
  // Oldest first, and only what is older than every event held: the feed never shows one twice.
  const older = page.items.filter((e) => e.id < state.oldestId && (!e.deviceId || e.deviceId === state.deviceId)).reverse();
  state.allLoaded = !page.nextCursor;
  if (older.length) {
    state.oldestId = older[0].id;
    feed.prepend(older);
  }
  // Applying events is order-sensitive: the lanes are built again from everything loaded, in id order.
  model.rebuild(feed.events, state.allLoaded);
  lanes.schedule();
  state.pageTimes.push(performance.now() - started);
  renderHistoryState();
  $("feed-count").textContent = `${feed.events.length} events`;
  // Still at the top (a short page, or a reader holding the top): keep going.
  if (!state.allLoaded && feed.container.scrollTop < NEAR_TOP_ROWS * 24) setTimeout(() => loadOlder(), 0);
}

/** After every drawing of the lanes: a view panned or zoomed to before the oldest loaded event pages older ones in. */
export function onLaneRange(from, to, fitted) {
  if (fitted || state.allLoaded || model.historyFrom === null) return;
  if (from < model.historyFrom) loadOlder();
}

export function renderHistoryState(error) {
  const box = $("history-state");
  const n = feed.events.length;
  let text;
  if ($("feed").dataset.loaded !== "true") text = "";
  else if (error) text = error;
  else if (state.allLoaded) text = `all ${n} events loaded`;
  else if (state.loadingOlder) text = `${n} newest events loaded · loading older events…`;
  else text = `${n} newest events loaded · older events: scroll to load`;
  box.textContent = text;
  box.className = error ? "muted error" : "muted";
  $("feed").dataset.allLoaded = String(state.allLoaded);
  $("feed").dataset.oldestId = state.oldestId === null ? "" : String(state.oldestId);
}

/** Takes events in id order from the history or the stream, dropping any already seen. */
export function receive(events) {
  const fresh = [];
  for (const event of events) {
    if (typeof event.id !== "number" || event.id <= state.lastId) continue;
    if (event.deviceId && event.deviceId !== state.deviceId) continue;
    state.lastId = event.id;
    fresh.push(event);
    model.apply(event);
  }
  if (!fresh.length) return;
  feed.append(fresh);
  lanes.schedule();
  $("feed").dataset.lastId = String(state.lastId);
  $("feed-count").textContent = `${feed.events.length} events`;
  if ($("feed").dataset.loaded === "true" && !state.loadingOlder) renderHistoryState();
  if (model.now !== null) $("device-clock").textContent = `virtual time ${formatVirtual(new Date(model.now).toISOString())}`;
  if (fresh.some((e) => /^(app|run|taskRequest|backgroundTask|device)\./.test(e.type))) {
    clearTimeout(state.appsTimer);
    state.appsTimer = setTimeout(refreshApps, 300);
  }
}
