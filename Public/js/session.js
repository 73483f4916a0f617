// The tenant's API key: signing in (the key kept in local storage), signing out, a key the service refuses (401)
// and a service that cannot be reached; once signed in, the device list is read again every 2.5 s.
import { API, APIError, storedKey, storeKey } from "./api.js";
import { selectDevice, stopDevice } from "./device.js";
import { $ } from "./dom.js";
import { leaveForecastPage } from "./forecast.js";
import { syncPage } from "./pages.js";
import { loadDevices, renderNoDevice } from "./sidebar.js";
import { state } from "./state.js";
import { linkedDevice } from "./url.js";
import { setConn, showView } from "./views.js";

/** Signs in with the stored key, if any: the device the address names is shown, else the first one. */
export async function start() {
  const key = storedKey();
  if (!key) { showSignin(); return; }
  state.api = new API(key);
  try {
    await loadDevices();
  } catch (error) {
    if (error instanceof APIError && error.status === 401) {
      storeKey("");
      showSignin("That API key was refused (401): it is wrong or has been revoked.");
    } else if (error instanceof APIError && error.unreachable) {
      showUnreachable(error.message);
    } else {
      showUnreachable(String(error.message || error));
    }
    return;
  }
  showView("main");
  syncPage();
  setConn("connected", "good");
  state.deviceId = null;
  startPolling();
  const wanted = linkedDevice();
  const pick = state.devices.find((d) => d.id === wanted) || state.devices[0];
  if (pick) selectDevice(pick.id); else renderNoDevice();
}

function showSignin(error) {
  stopDevice();
  leaveForecastPage(true);
  stopPolling();
  showView("signin");
  const box = $("signin-error");
  box.hidden = !error;
  box.textContent = error || "";
  document.body.dataset.signin = error ? "wrong-key" : "no-key";
  setConn("");
  $("apikey").focus();
}

function showUnreachable(message) {
  stopDevice();
  leaveForecastPage();
  stopPolling();
  showView("unreachable");
  $("unreach-detail").textContent = `${message} Check that bgemu is running, then retry.`;
  setConn("service unreachable", "bad");
  $("retry").focus();
}

function startPolling() {
  stopPolling();
  state.pollTimer = setInterval(async () => {
    try {
      await loadDevices();
      setConn("connected", "good");
      if (!state.deviceId && state.devices.length) selectDevice(state.devices[0].id);
      else if (!state.deviceId) renderNoDevice();
    } catch (error) {
      if (error instanceof APIError && error.status === 401) { storeKey(""); showSignin("The API key is no longer accepted (401)."); return; }
      setConn("service unreachable — retrying", "bad");
    }
  }, 2500);
}
function stopPolling() { clearInterval(state.pollTimer); state.pollTimer = null; }

export function bindSession() {
  $("signin-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const key = $("apikey").value.trim();
    if (!key) return;
    storeKey(key);
    $("apikey").value = "";
    start();
  });
  $("signout").addEventListener("click", () => { storeKey(""); state.api = null; location.hash = ""; showSignin(); });
  $("retry").addEventListener("click", () => start());
}
