// What the dashboard holds between requests: the API client, the tenant's devices, and the device shown with how
// much of its history is loaded and how it stays live. One object, shared by the modules that read and change it.

export const state = {
  api: null,
  devices: [],
  deviceId: null,
  device: null,
  apps: [],
  generation: 0,     // bumps on every device switch: stale loads and streams drop their results
  lastId: 0,         // the newest event id seen (history or stream): resume point and de-duplication
  oldestId: null,    // the oldest event id loaded; older pages go below it
  allLoaded: false,  // whether the device's whole history is loaded
  loadingOlder: false, // one page of older events in flight at a time
  pageTimes: [],     // milliseconds each page of older events took (for the browser tests' figures)
  source: null,
  reopenTimer: null,
  pollTimer: null,
  appsTimer: null,
};
