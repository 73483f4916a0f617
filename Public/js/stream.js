// The shown device's live events over Server-Sent Events: opened after the newest event held, reopened after it when
// the browser gives up, and resumed from what the service still holds when its retention pruned the events after it
// (410 eventsPruned).
import { enc } from "./api.js";
import { receive } from "./events.js";
import { state } from "./state.js";
import { setStream } from "./views.js";
import { feed } from "./widgets.js";

// Every event type the service emits; EventSource dispatches named events only to listeners of that name.
export const EVENT_TYPES = [
  "app.crashed", "app.delegate", "app.installed", "app.settingsChanged", "app.stateChanged", "app.terminated",
  "app.uninstalled", "backgroundTask.began", "backgroundTask.ended", "backgroundTask.expiring", "clock.advanced",
  "device.conditionsChanged", "device.created", "device.policyChanged", "device.rebooted", "fetch.intervalChanged",
  "notification.cancelled", "notification.delivered", "notification.dropped", "notification.scheduled",
  "push.coalesced", "push.deferred", "push.delivered", "push.dropped", "push.received", "run.completed",
  "run.expired", "run.expiring", "run.progress", "run.started", "system.opportunity", "taskRequest.cancelled",
  "taskRequest.rejected", "taskRequest.submitted", "transfer.cancelled", "transfer.completed", "transfer.enqueued",
  "transfer.failed", "transfer.progress", "transfer.started", "transfer.waiting", "urlSession.created",
  "urlSession.eventsDelivered", "activity.started", "activity.stopped", "device.locationChanged", "location.delivered",
  "accessory.dataReceived", "voip.keepAlive", "message",
];

/**
 * Opens the stream of the device shown, after the newest event held, while `generation` is current. `reload` is
 * called when the service no longer holds the events after the feed's newest (the newest page is loaded again).
 */
export function openStream(generation, reload) {
  if (generation !== state.generation) return;
  const url = `/v1/devices/${enc(state.deviceId)}/events?access_token=${enc(state.api.key)}&lastEventId=${state.lastId}`;
  const source = new EventSource(url);
  state.source = source;
  const onEvent = (message) => {
    if (generation !== state.generation) return;
    let event;
    try { event = JSON.parse(message.data); } catch { return; }
    receive([event]);
  };
  for (const type of EVENT_TYPES) source.addEventListener(type, onEvent);
  source.onopen = () => { if (generation === state.generation) setStream("live", "good"); };
  source.onerror = () => {
    if (generation !== state.generation) return;
    if (source.readyState === EventSource.CLOSED) {
      // The browser gave up (a non-200 answer such as 503 or a restart mid-handshake): reopen after our last id,
      // unless the service no longer holds the events after it (410 eventsPruned: its retention pruned them).
      setStream("stream closed — reconnecting", "bad");
      source.close();
      clearTimeout(state.reopenTimer);
      state.reopenTimer = setTimeout(async () => {
        const prunedThrough = await prunedAfterLastId();
        if (generation !== state.generation) return;
        if (prunedThrough === null) openStream(generation, reload);
        else if (feed.events.length) reload();   // the newest page again: no gap in the feed
        else { state.lastId = prunedThrough; openStream(generation, reload); }
      }, 2000);
    } else {
      setStream("reconnecting…", "bad");
    }
  };
}

/** Closes the stream of the device shown, if open, and any reopening planned. */
export function closeStream() {
  if (state.source) { state.source.close(); state.source = null; }
  clearTimeout(state.reopenTimer);
}

/** The greatest id the service's retention pruned after our last id (a resume from it would be a 410), or null. */
async function prunedAfterLastId() {
  try {
    await state.api.get(`/v1/devices/${enc(state.deviceId)}/events?after=${state.lastId}&limit=1`);
  } catch (error) {
    const pruned = error.status === 410 && error.problem ? error.problem.lastPrunedEventId : undefined;
    if (Number.isInteger(pruned)) return pruned;
  }
  return null;
}
