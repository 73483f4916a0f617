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
