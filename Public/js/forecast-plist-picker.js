// The forecast form's Info.plist picker. A plain XML file fills the app's fields; one that is binary or refers to
// build settings is kept to be sent as it is (`app.infoPlist` as XML text or Base64), with the build settings typed
// beside it, for the service to read as it reads an upload.
import { $ } from "./dom.js";
import { row } from "./form-parts.js";
import { readInfoPlist } from "./plist.js";

/**
 * The Info.plist picked to be sent as it is (`app.infoPlist` as the file's XML text, or a binary plist in Base64):
 * set when the service must read the file itself, because it is binary or its keys refer to build settings
 * (`$(PRODUCT_BUNDLE_IDENTIFIER)`, `${APPLICATION_IDENTIFIER}.refresh`), which the service expands with the
 * settings typed beside it, as an upload to `POST …/apps` is.
 */
let attached = null;

export function plistPicker(showKeys) {
  const label = document.createElement("label");
  label.className = "field";
  const input = document.createElement("input");
  input.type = "file";
  input.id = "fc-plist";
  input.accept = ".plist,application/xml,text/xml,application/x-plist";
  label.append("Info.plist ", input);
  const out = document.createElement("span");
  out.id = "fc-plist-status";
  out.className = "muted";
  out.setAttribute("role", "status");
  const detach = document.createElement("button");
  detach.type = "button";
  detach.id = "fc-plist-detach";
  detach.textContent = "Use the fields instead";
  detach.hidden = true;
  detach.addEventListener("click", detachPlist);
  const settings = document.createElement("textarea");
  settings.id = "fc-build-settings";
  settings.rows = 2;
  settings.cols = 48;
  settings.dataset.path = "app.buildSettings";
  settings.placeholder = "NAME=value, one per line (PRODUCT_BUNDLE_IDENTIFIER=com.example.app)";
  const settingsLabel = document.createElement("label");
  settingsLabel.className = "field";
  settingsLabel.id = "fc-build-settings-field";
  settingsLabel.hidden = true;
  settingsLabel.append("Build settings ", settings);
  input.addEventListener("change", async () => {
    const file = input.files[0];
    if (!file) return;
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      if (isBinaryPlist(bytes)) {
        attach({ name: file.name, payload: base64(bytes) });
        out.className = "muted";
        out.textContent = `${file.name} (a binary property list) is sent as it is: the service reads it`;
        return;
      }
      const text = new TextDecoder().decode(bytes);
      const found = readInfoPlist(text);
      showKeys(found);
      out.className = "muted";
      if (found.buildSettings.length) {
        attach({ name: file.name, payload: text });
        out.textContent = `${file.name} refers to build settings (${found.buildSettings.join(", ")}): it is sent as it is, `
          + "and the service expands them with the settings below and Xcode's defaults";
      } else {
        attach(null);
        out.textContent = `read ${file.name}: ${Object.keys(found).filter((k) => k !== "buildSettings" && k !== "bundleIdSetting").join(", ") || "none of the keys a forecast reads"}`;
      }
    } catch (error) {
      attach(null);
      out.className = "error";
      out.textContent = `${file.name}: ${error.message}`;
    }
  });
  return [row(label, out, detach), row(settingsLabel)];
}

/** The file to send as `app.infoPlist` ({name, payload, buildSettings}), or null. */
export function attachedPlist() {
  return attached && { ...attached, buildSettings: buildSettings($("fc-build-settings").value) };
}

/** Forgets the file picked: the form's fields are the request's again. */
export function detachPlist() {
  attach(null);
  $("fc-plist-status").textContent = "";
  $("fc-plist").value = "";
}

/** Attaches `file` ({name, payload}) to be sent as `app.infoPlist`, or detaches it (null). */
function attach(file) {
  attached = file;
  const form = $("forecast-form");
  $("fc-plist-detach").hidden = !file;
  $("fc-build-settings-field").hidden = !file;
  for (const e of form.querySelectorAll('[data-path^="app.infoPlist."], [data-mode]')) e.disabled = Boolean(file);
}

function isBinaryPlist(bytes) {
  return bytes.length >= 6 && String.fromCharCode(...bytes.slice(0, 6)) === "bplist";
}

function base64(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/** `NAME=value` lines as an object; a line without `=` is kept whole as a name (the service names it). */
function buildSettings(text) {
  const out = {};
  for (const line of text.split("\n").map((l) => l.trim()).filter(Boolean)) {
    const at = line.indexOf("=");
    if (at < 0) out[line] = "";
    else out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}
