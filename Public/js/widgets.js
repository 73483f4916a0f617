// The page's four widgets, made once when the page loads: the event feed, the swimlanes (their model and their
// view) and the device list. app.js gives them their callbacks (`onSelect`, `onNearTop`, `onRange`, `onDelete`).
import { $ } from "./dom.js";
import { DeviceList } from "./devices.js";
import { Feed } from "./feed.js";
import { LaneModel } from "./lane-model.js";
import { LaneView } from "./lanes.js";

export const feed = new Feed($("feed"), $("feed-spacer"));
export const model = new LaneModel();
export const lanes = new LaneView($("lanes"), model, { note: $("lanes-note") });
export const deviceList = new DeviceList($("device-list"), $("device-search"));
