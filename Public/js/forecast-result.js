// A finished forecast's answer: the key figures per run kind in a table, then three plots (the cumulative share of
// devices that ran against hours since install, the runs-per-day histogram, why the others never ran) and, when the
// fleet was sent pushes, what became of them.
import { table } from "./dom.js";
import { barPlot, histogramPlot, linePlot, percent } from "./svg-plot.js";

export const KINDS = [
  { key: "appRefresh", label: "App refresh" },
  { key: "processing", label: "Processing" },
  { key: "fetch", label: "Background fetch" },
];

/** The eligibility conditions of the why-not chart, in words (the engine's names otherwise). */
const CONDITIONS = {
  lowPowerModeOff: "Low Power Mode", backgroundAppRefreshDevice: "BAR switch off (device)",
  backgroundAppRefreshApp: "BAR switch off (app)", notForceQuit: "force quit", budget: "budget",
  batteryNotCritical: "battery critical", networkAvailable: "no network", externalPower: "not on power",
  usagePrediction: "usage prediction", rateLimit: "rate limit", requestPending: "no request pending",
  earliestBeginDate: "earliest begin date", fetchInterval: "fetch interval", fetchMode: "fetch mode missing",
  notInForeground: "in the foreground", deviceIdle: "device not idle", permitted: "not permitted",
  launchHandlerRegistered: "no launch handler", noOpenRun: "a run still open", none: "none (missed chances)",
};

/** The outcomes of a push, which exclude each other: their shares of the pushes sent add up to 1. */
const PUSH_OUTCOMES = [
  ["deliveredAtOnce", "delivered at once"], ["deliveredLater", "delivered later"],
  ["coalesced", "coalesced"], ["dropped", "dropped"], ["pending", "still deferred"],
];

/** Seconds in the unit that reads best: 42 s, 3.5 min, 2.1 h, 1.3 d. */
export function duration(seconds) {
  if (seconds === undefined || seconds === null) return "—";
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 5400) return `${(seconds / 60).toFixed(1)} min`;
  if (seconds < 172800) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86400).toFixed(1)} d`;
}

/** The kinds the result has, in their order. */
export function kindsOf(result) {
  return KINDS.filter((k) => result[k.key]);
}

/** The key figures: one row per kind. */
export function figuresTable(result) {
  const rows = kindsOf(result).map(({ key, label }) => {
    const s = result[key];
    const within = s.devicesWithRunWithin || {};
    const delay = s.firstRunDelaySeconds || {};
    const perDay = s.runsPerDevicePerDay || {};
    return [label, percent(within["1h"] ?? 0), percent(within["4h"] ?? 0), percent(within["24h"] ?? 0),
      duration(delay.p50), duration(delay.p90), duration(delay.p99),
      String(perDay.mean ?? "—"), `${perDay.p50 ?? "—"} / ${perDay.p90 ?? "—"}`,
      percent(s.devicesWithoutRun ?? 0), percent(s.expiredShare ?? 0)];
  });
  const t = table(["Kind", "ran within 1 h", "4 h", "24 h", "first run p50", "p90", "p99", "runs/day mean", "p50 / p90",
    "never ran", "runs expired"], rows);
  t.className = "figures";
  t.id = "fc-figures";
  return t;
}

/** Hours-axis ticks: every 6 h over 2 days or less, else every day (or every few days). */
function hourTicks(hours) {
  const step = hours <= 48 ? 6 : 24 * Math.ceil(hours / 24 / 10);
  const ticks = [];
  for (let h = 0; h <= hours; h += step) ticks.push(h);
  return ticks;
}

/** The cumulative share of devices with a first run against hours since install, one line per kind. */
export function ranWithinPlot(result) {
  const series = kindsOf(result).filter((k) => Array.isArray(result[k.key].ranWithinHours))
    .map((k) => ({ key: k.key, label: k.label, points: result[k.key].ranWithinHours.map((share, h) => [h, share]) }));
  const hours = Math.max(24, ...series.map((s) => s.points.length - 1));
  const last = series.map((s) => `${s.label} ${percent(s.points.at(-1)[1])} after ${hours} h`).join(", ");
  return linePlot({
    title: "Devices that ran, by hours since install", description: `Cumulative share of devices with a first run. ${last}.`,
    xLabel: "hours since install", yLabel: "share of devices", series,
    x: { min: 0, max: hours }, y: { min: 0, max: 1 }, xTicks: hourTicks(hours), xFormat: (h) => `${h}`, yFormat: (v) => percent(v, 0),
  });
}

/** The runs-per-day histogram of `kind` (its devices in at most 12 bins). */
export function histogram(result, kind) {
  const index = kindsOf(result).findIndex((k) => k.key === kind);
  const label = KINDS.find((k) => k.key === kind).label;
  const bins = (result[kind].runsPerDayHistogram || []).map((b) => ({ from: b.from, to: b.to, value: b.devices }));
  const fmt = (v) => (Number.isInteger(v) ? String(v) : v.toFixed(2).replace(/0$/, ""));
  return histogramPlot({
    title: `${label}: runs per device per day`,
    description: `${bins.length} bins: ${bins.map((b) => `${fmt(b.from)}–${fmt(b.to)}: ${b.value} devices`).join("; ")}.`,
    xLabel: "runs per device per day", yLabel: "devices", bins, seriesKey: kind, seriesIndex: Math.max(0, index), xFormat: fmt,
  });
}

/** For the devices that never ran each kind, the share charged to each condition. */
export function whyNotPlot(result) {
  const kinds = kindsOf(result);
  const totals = {};
  for (const k of kinds) for (const [c, v] of Object.entries(result[k.key].whyNot || {})) totals[c] = (totals[c] || 0) + v;
  const categories = Object.keys(totals).sort((a, b) => totals[b] - totals[a] || a.localeCompare(b))
    .map((key) => ({ key, label: CONDITIONS[key] || key }));
  const series = kinds.map((k) => ({ key: k.key, label: k.label, values: { ...(result[k.key].whyNot || {}) } }));
  const words = series.map((s) => `${s.label}: ${Object.entries(s.values).map(([c, v]) => `${CONDITIONS[c] || c} ${percent(v)}`).join(", ") || "every device ran"}`);
  return barPlot({
    title: "Why devices never ran", description: `Share of the devices without a run, by the condition that blocked them. ${words.join(". ")}.`,
    xLabel: "share of the devices that never ran", categories, series, x: { min: 0, max: 1 },
    xFormat: (v) => percent(v, 0), emptyNote: "every device ran",
  });
}

/** The share of an outcome: from `outcomes` (a result before them has only the flat shares). */
function outcomeShare(pushes, key) {
  return pushes.outcomes ? pushes.outcomes[key]?.share ?? 0 : pushes[key] ?? 0;
}

/** What became of the pushes sent: one bar per exclusive outcome (the bars add up to every push sent); the share
 * deferred at least once, which overlaps them, is said in words beside. */
export function pushPlot(pushes) {
  const categories = PUSH_OUTCOMES.map(([key, label]) => ({ key, label }));
  const values = Object.fromEntries(PUSH_OUTCOMES.map(([key]) => [key, outcomeShare(pushes, key)]));
  const deferred = pushes.overlapping?.deferredAtLeastOnce?.share ?? pushes.deferred ?? 0;
  const delay = pushes.delaySeconds ? ` Delay p50 ${duration(pushes.delaySeconds.p50)}, p90 ${duration(pushes.delaySeconds.p90)}, p99 ${duration(pushes.delaySeconds.p99)}.` : "";
  return barPlot({
    title: `Pushes: what became of ${pushes.sent} sent`,
    description: `${PUSH_OUTCOMES.map(([key, label]) => `${label} ${percent(values[key])}`).join(", ")} (one outcome per push). ` +
      `Deferred at least once, whatever became of them: ${percent(deferred)}.${delay}`,
    xLabel: "share of the pushes sent", categories, series: [{ key: "pushes", label: "pushes", values }],
    x: { min: 0, max: 1 }, xFormat: (v) => percent(v, 0),
  });
}
