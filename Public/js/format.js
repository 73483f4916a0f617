// Small text formats shared by the feed, the lanes and the controls.

/** A virtual instant (RFC 3339) as `YYYY-MM-DD hh:mm:ss.sss`. */
export function formatVirtual(at) {
  if (!at) return "";
  return at.replace("T", " ").replace("Z", "");
}

/**
 * A long identifier shortened in the middle to at most `max` characters (`org.whisper…extension`): the start says
 * whose it is, the end which one. The tail keeps the last dot-separated part when it fits in half the room.
 */
export function shortId(id, max = 24) {
  if (typeof id !== "string" || id.length <= max) return id;
  const room = max - 1;
  const last = id.slice(id.lastIndexOf(".") + 1);
  const tailLength = last.length > 0 && last.length <= Math.ceil(room / 2) ? last.length : Math.floor(room / 2);
  return `${id.slice(0, room - tailLength)}…${id.slice(id.length - tailLength)}`;
}

/**
 * The end of a device's id that tells it apart from the other devices of `devices` that share its name: its last
 * four characters, or more while another of them ends the same. An empty string when no other device has its name.
 */
export function idSuffix(device, devices) {
  const id = String(device.id);
  const others = devices.filter((d) => d.id !== device.id && d.name === device.name).map((d) => String(d.id));
  if (!others.length) return "";
  let n = Math.min(4, id.length);
  while (n < id.length && others.some((o) => o.endsWith(id.slice(-n)))) n++;
  return id.slice(-n);
}

/** A device's name, followed by `· …` and the end of its id when another device of `devices` has the same name. */
export function deviceLabel(device, devices) {
  const suffix = idSuffix(device, devices);
  return suffix ? `${device.name} · …${suffix}` : device.name;
}

/** The device view's title: the device's label (see deviceLabel) and its iOS version. */
export function deviceTitle(device, devices) {
  return `${deviceLabel(device, devices)} · iOS ${device.osVersion}`;
}
