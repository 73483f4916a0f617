// An Info.plist read in the browser: the XML property list format (a binary one is refused with how to convert it).
// Only what a forecast's app needs is taken: CFBundleIdentifier, UIBackgroundModes,
// BGTaskSchedulerPermittedIdentifiers and UIApplicationExitsOnSuspend.

/** The keys of `text` (an XML plist) a forecast reads; throws an Error saying what is wrong with the file. */
export function readInfoPlist(text) {
  if (text.startsWith("bplist")) {
    throw new Error("this is a binary property list: convert it with `plutil -convert xml1 Info.plist` and pick it again");
  }
  const doc = new DOMParser().parseFromString(text, "application/xml");
  if (doc.querySelector("parsererror")) throw new Error("this file is not an XML property list");
  const dict = doc.querySelector("plist > dict");
  if (!dict) throw new Error("this property list has no top-level <dict>");
  const values = plistDict(dict);
  const found = {};
  if (typeof values.CFBundleIdentifier === "string" && !values.CFBundleIdentifier.includes("$(")) {
    found.bundleId = values.CFBundleIdentifier;   // a build variable such as $(PRODUCT_BUNDLE_IDENTIFIER) is not one
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
