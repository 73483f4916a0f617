// What the forecast form starts with: the service's documented defaults (ForecastRequest, ForecastPopulation,
// ForecastUsagePattern, ForecastChargingHabit, ForecastNetworkMix) and an example app that uses app refresh and fetch.
// The service fills any field left out with the same defaults; the form shows them so they can be read and changed.

export const BACKGROUND_MODES = [
  "fetch", "processing", "remote-notification", "audio", "location", "voip", "bluetooth-central", "bluetooth-peripheral",
  "external-accessory", "nearby-interaction", "network-authentication", "newsstand-content", "push-to-talk",
];

export const RUN_KINDS = ["appRefresh", "processing", "fetch", "remoteNotification", "urlSessionEvents", "location", "accessory", "voip", "newsstand"];
export const RUN_RESULTS = ["success", "failure", "newData", "noData", "failed"];

export const DEFAULT_POPULATION = {
  lowPowerModeShare: 0.05,
  lowPowerModeWhenLowShare: 0.3,
  lowPowerModeBatteryLevel: 20,
  backgroundAppRefreshOffShare: 0.1,
  appBackgroundAppRefreshOffShare: 0.05,
  forceQuitShare: 0.1,
  usage: [
    { name: "commuter", share: 0.4, hours: [8, 18], opensPerDay: 2, spreadMinutes: 20, sessionMinutes: 5 },
    { name: "evening", share: 0.35, hours: [20.5], opensPerDay: 1, spreadMinutes: 60, sessionMinutes: 10 },
    { name: "rare", share: 0.25, hours: [13], opensPerDay: 0.3, spreadMinutes: 180, sessionMinutes: 3 },
  ],
  charging: [
    { name: "overnight", share: 0.75, startHour: 23, durationHours: 8, daysShare: 1, spreadMinutes: 60 },
    { name: "irregular", share: 0.25, durationHours: 2, daysShare: 0.8, spreadMinutes: 0 },
  ],
  batteryDrainPerHour: { min: 2, max: 5 },
  chargePerHour: 40,
  startBattery: { min: 50, max: 100 },
  network: {
    homeFromHour: 19, homeToHour: 8,
    home: { wifi: 0.9, cellular: 0.08, none: 0.02 },
    away: { wifi: 0.25, cellular: 0.7, none: 0.05 },
  },
};

/** The request the form shows first. */
export const DEFAULT_REQUEST = {
  seed: 0,
  devices: 1000,
  days: 7,
  osVersion: "17.0",
  app: {
    bundleId: "com.example.weather",
    infoPlist: {
      UIBackgroundModes: ["fetch", "remote-notification"],
      BGTaskSchedulerPermittedIdentifiers: ["com.example.weather.refresh"],
      UIApplicationExitsOnSuspend: false,
    },
    atLaunch: {
      // Not before 15 minutes, as Apple's sample code asks: without it a resubmitted request runs again at once.
      submit: [{ kind: "appRefresh", identifier: "com.example.weather.refresh", earliestBeginSeconds: 900, requiresNetworkConnectivity: false, requiresExternalPower: false }],
      fetchInterval: "minimum",
    },
  },
  population: DEFAULT_POPULATION,
  pushes: [],
};

/**
 * The behaviour the service scripts when the request gives none (ForecastApp.resolvedBehavior): every run completes
 * after 5 s, and each BGTask kind the app submits at launch is resubmitted as it was submitted.
 */
export function defaultBehavior(submit) {
  const behavior = {
    fetch: { completeAfter: 5, result: "newData", resubmit: false },
    remoteNotification: { completeAfter: 5, result: "newData", resubmit: false },
  };
  for (const kind of ["appRefresh", "processing"]) {
    const submission = (submit || []).find((s) => s.kind === kind);
    behavior[kind] = { completeAfter: 5, result: "success", resubmit: Boolean(submission) };
    if (submission && submission.earliestBeginSeconds !== undefined) behavior[kind].resubmitAfter = submission.earliestBeginSeconds;
  }
  return behavior;
}

/** A new row of each table. */
export const BLANK = {
  usage: () => ({ name: "pattern", share: 0.1, hours: [12], opensPerDay: 1, spreadMinutes: 30, sessionMinutes: 5 }),
  charging: () => ({ name: "habit", share: 0.1, startHour: 22, durationHours: 8, daysShare: 1, spreadMinutes: 30 }),
  pushes: () => ({ everyMinutes: 60, priority: 5 }),
  submit: () => ({ kind: "appRefresh", identifier: "" }),
  behavior: () => ({ kind: "fetch", completeAfter: 5, result: "newData", resubmit: false }),
};
