// A small client of the bgemu REST API: bearer key, JSON bodies, RFC 9457 problems as errors.

const KEY_STORAGE = "bgemu.apiKey";

export function storedKey() {
  try { return localStorage.getItem(KEY_STORAGE) || ""; } catch { return ""; }
}
export function storeKey(key) {
  try { if (key) localStorage.setItem(KEY_STORAGE, key); else localStorage.removeItem(KEY_STORAGE); } catch { /* private mode */ }
}

/** A failed request: `status` 0 means the service could not be reached at all. */
export class APIError extends Error {
  constructor(status, problem, message) {
    super(message);
    this.status = status;
    this.problem = problem;
  }
  get unreachable() { return this.status === 0; }
}

export class API {
  constructor(key) { this.key = key; }

  /** `as: "blob"` answers a successful response's body as a Blob (a download); JSON otherwise. */
  async request(method, path, { body, headers = {}, signal, as } = {}) {
    const init = { method, headers: { Accept: "application/json", Authorization: `Bearer ${this.key}`, ...headers }, signal };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (error) {
      if (error && error.name === "AbortError") throw error;
      throw new APIError(0, null, "The service cannot be reached.");
    }
    if (response.ok && as === "blob") return response.blob();
    const text = await response.text().catch(() => "");
    let json = null;
    if (text) { try { json = JSON.parse(text); } catch { json = null; } }
    if (!response.ok) {
      const problem = json && typeof json === "object" ? json : null;
      let message = problem ? `${response.status} ${problem.title || ""}${problem.code ? ` (${problem.code})` : ""}: ${problem.detail || ""}`
                            : `${response.status} ${response.statusText}`;
      if (problem && Array.isArray(problem.errors) && problem.errors.length) {
        message += " " + problem.errors.map((e) => `${e.field}: ${e.message}`).join("; ");
      }
      if (problem && problem.reason) message += ` reason: ${problem.reason}`;
      // A reverse proxy in front of a stopped service answers 502/503/504 with no problem body.
      const status = !problem && [502, 503, 504].includes(response.status) ? 0 : response.status;
      throw new APIError(status, problem, message.trim());
    }
    return json;
  }

  get(path, opts) { return this.request("GET", path, opts); }
  post(path, body, opts = {}) { return this.request("POST", path, { ...opts, body }); }
  patch(path, body) { return this.request("PATCH", path, { body }); }
  put(path, body) { return this.request("PUT", path, { body }); }
  del(path) { return this.request("DELETE", path); }
  blob(path, accept = "*/*") { return this.request("GET", path, { as: "blob", headers: { Accept: accept } }); }
}

export const enc = encodeURIComponent;
