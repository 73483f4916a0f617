// The forecast routes the forecast page calls, with the signed-in tenant's client (`state.api`): list, read, start
// and delete forecasts, and a forecast's rows as CSV. Each answers the client's promise (JSON, a Blob, or an APIError);
// they know no DOM and nothing of what the page shows.
import { enc } from "./api.js";
import { state } from "./state.js";

/** The resource of forecast `id`. */
export const forecastPath = (id) => `/v1/forecasts/${enc(id)}`;

/** `GET /v1/forecasts`: `{forecasts: […]}`, newest first, without their results. */
export function listForecasts() { return state.api.get("/v1/forecasts"); }

/** `GET /v1/forecasts/{id}`: the forecast, with its result once done. */
export function readForecast(id) { return state.api.get(forecastPath(id)); }

/** `POST /v1/forecasts`: starts a forecast of `request`; answers it, running. */
export function startForecast(request) { return state.api.post("/v1/forecasts", request); }

/** `DELETE /v1/forecasts/{id}`: cancels it if it runs, and deletes it. */
export function deleteForecast(id) { return state.api.del(forecastPath(id)); }

/** `GET /v1/forecasts/{id}/devices` as `text/csv`: its rows, a Blob. */
export function forecastRows(id) { return state.api.blob(`${forecastPath(id)}/devices`, "text/csv"); }
