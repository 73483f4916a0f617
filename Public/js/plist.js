// An Info.plist read in the browser: the XML property list format (a binary one the form sends to the service as it
// is). Only what a forecast's app needs is taken: CFBundleIdentifier, UIBackgroundModes,
// BGTaskSchedulerPermittedIdentifiers and UIApplicationExitsOnSuspend, and the build settings those refer to.

/**
 * The keys of `text` (an XML plist) a forecast reads, and in `buildSettings` the names of the build settings they
 * refer to (`$(NAME)`, `${NAME}`: the service expands them); throws an Error saying what is wrong with the file.
 */
export function readInfoPlist(text) {
  const doc = new DOMParser().parseFromString(text, "application/xml");
  if (doc.querySelector("parsererror")) throw new Error("this file is not an XML property list");
  const dict = doc.querySelector("plist > dict");
  if (!dict) throw new Error("this property list has no top-level <dict>");
  const values = plistDict(dict);
  const found = { buildSettings: [] };
  const refers = (v) => typeof v === "string" && /\$[({]/.test(v);
  for (const key of ["CFBundleIdentifier", "UIBackgroundModes", "BGTaskSchedulerPermittedIdentifiers"]) {
    for (const v of [values[key]].flat()) {
      if (!refers(v)) continue;
      for (const m of v.matchAll(/\$[({]([A-Za-z0-9_]+)/g)) if (!found.buildSettings.includes(m[1])) found.buildSettings.push(m[1]);
    }
  }
  if (typeof values.CFBundleIdentifier === "string") {
    // A build variable such as $(PRODUCT_BUNDLE_IDENTIFIER) or ${PRODUCT_BUNDLE_IDENTIFIER} is not one.
    if (refers(values.CFBundleIdentifier)) found.bundleIdSetting = values.CFBundleIdentifier;
    else found.bundleId = values.CFBundleIdentifier;
  }
  for (const key of ["UIBackgroundModes", "BGTaskSchedulerPermittedIdentifiers"]) {
    if (Array.isArray(values[key])) found[key] = values[key].filter((v) => typeof v === "string");
  }
  if (typeof values.UIApplicationExitsOnSuspend === "boolean") found.UIApplicationExitsOnSuspend = values.UIApplicationExitsOnSuspend;
  return found;
}

function plistDict(dict) {
  const out = {};
  const children = [...dict.children];
  for (let i = 0; i + 1 < children.length; i += 2) {
    if (children[i].tagName === "key") out[children[i].textContent] = plistValue(children[i + 1]);
  }
  return out;
}

function plistValue(e) {
  switch (e.tagName) {
    case "string": return e.textContent;
    case "true": return true;
    case "false": return false;
    case "integer": case "real": return Number(e.textContent);
    case "array": return [...e.children].map(plistValue);
    case "dict": return plistDict(e);
    default: return null;
  }
}
