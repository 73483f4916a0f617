// Which of the page's views shows (sign-in, unreachable, main) and its status lines: the connection to the service,
// the device's event stream, and the answer to the last control used.
import { $ } from "./dom.js";

export function showView(name) {
  document.body.dataset.view = name;
  $("view-signin").hidden = name !== "signin";
  $("view-unreachable").hidden = name !== "unreachable";
  $("view-main").hidden = name !== "main";
  $("signout").hidden = name === "signin";
}

/** The connection to the service, in the top bar. */
export function setConn(text, kind = "") {
  const c = $("conn");
  c.textContent = text;
  c.className = `conn ${kind}`;
}

/** The device's event stream, beside its clock. */
export function setStream(text, kind = "") {
  const s = $("stream-state");
  s.textContent = text;
  s.className = `conn ${kind}`;
}

/** What the last control did, under the controls. */
export function status(text, kind = "") {
  const s = $("action-status");
  s.textContent = text;
  s.className = `action-status ${kind}`;
}
