// Which of the page's views shows (sign-in, unreachable, main) and, once signed in, which page (the devices or the
// forecasts); and its status lines: the connection to the service, the device's event stream, and the answer to the
// last control used.
import { $ } from "./dom.js";

export function showView(name) {
  document.body.dataset.view = name;
  const page = document.body.dataset.page || "devices";
  $("view-signin").hidden = name !== "signin";
  $("view-unreachable").hidden = name !== "unreachable";
  $("view-main").hidden = name !== "main" || page !== "devices";
  $("view-forecast").hidden = name !== "main" || page !== "forecast";
  $("nav").hidden = name !== "main";
  for (const link of $("nav").querySelectorAll("a")) {
    if (link.dataset.page === page) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
  }
  $("signout").hidden = name === "signin";
}

/** Shows `page` (`devices` or `forecast`) of the signed-in view. */
export function showPage(page) {
  document.body.dataset.page = page;
  showView(document.body.dataset.view || "signin");
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
