// The two pages of the signed-in view, named by the address: the devices (`#device=…`, or none) and the forecasts
// (`#forecast`, `#forecast=…`). The navigation in the top bar switches between them.
import { enc } from "./api.js";
import { $ } from "./dom.js";
import { leaveForecastPage, showForecastPage } from "./forecast.js";
import { state } from "./state.js";
import { linkedForecast } from "./url.js";
import { showPage } from "./views.js";

/** Shows the page the address names; returns it (`devices` or `forecast`). */
export function syncPage() {
  const forecast = linkedForecast();
  const page = forecast === null ? "devices" : "forecast";
  if (!state.api || page === "devices") leaveForecastPage();
  showPage(page);
  if (state.api && page === "forecast") showForecastPage(forecast);
  return page;
}

export function bindPages() {
  // Back to the devices: the device shown before, if any.
  $("nav-devices").addEventListener("click", (e) => {
    e.preventDefault();
    location.hash = state.deviceId ? `device=${enc(state.deviceId)}` : "";
  });
}
