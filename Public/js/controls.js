// The tester's controls on the device shown: an app's launch, Home, force quit, the sample app, a refresh request
// and a background push; the clock's advance; the device's conditions. Each shows what the service answered.
import { APIError, enc } from "./api.js";
import { refreshApps } from "./device-panel.js";
import { $ } from "./dom.js";
import { formatVirtual } from "./format.js";
import { state } from "./state.js";
import { status } from "./views.js";

/** Runs one control's request, saying it is under way, then its answer or its problem. */
async function act(label, fn) {
  if (!state.deviceId) return;
  status(`${label}…`);
  try {
    const result = await fn();
    status(`${label}: ${result}`, "good");
  } catch (error) {
    status(`${label} failed: ${error.message}`, "bad");
  }
}

const devicePath = () => `/v1/devices/${enc(state.deviceId)}`;
const appPath = () => `${devicePath()}/apps/${enc($("app-select").value)}`;
const selectedApp = () => state.apps.find((a) => a.bundleId === $("app-select").value);

/** The app controls (`data-action`): what each button asks of the service. */
const ACTIONS = {
  launch: appLifecycle,
  background: appLifecycle,
  "force-quit": appLifecycle,
  "install-sample": installSample,
  "submit-refresh": submitRefresh,
  push: backgroundPush,
};

function appLifecycle(button) {
  const action = button.dataset.action;
  act(button.textContent, async () => {
    const app = await state.api.post(`${appPath()}/${action}`);
    refreshApps();
    return `${app.bundleId} is ${app.state}`;
  });
}

function installSample() {
  act("Install sample app", async () => {
    let bundleId = "com.example.sample";
    for (let n = 2; state.apps.some((a) => a.bundleId === bundleId); n++) bundleId = `com.example.sample${n}`;
    const app = await state.api.post(`${devicePath()}/apps`, {
      bundleId,
      displayName: "Sample",
      infoPlist: {
        UIBackgroundModes: ["fetch", "processing", "remote-notification"],
        BGTaskSchedulerPermittedIdentifiers: [`${bundleId}.refresh`, `${bundleId}.cleanup`],
      },
      behavior: {
        appRefresh: { completeAfter: 2, result: "success", resubmit: true, resubmitAfter: 900 },
        fetch: { completeAfter: 1, result: "newData" },
        remoteNotification: { completeAfter: 1, result: "newData" },
        onEnterBackground: { name: "save", endAfter: 3 },
      },
    });
    await refreshApps();
    $("app-select").value = app.bundleId;
    return `installed ${app.bundleId}`;
  });
}

function submitRefresh() {
  act("Submit refresh request", async () => {
    const app = selectedApp();
    const identifier = (app && app.infoPlist.BGTaskSchedulerPermittedIdentifiers[0]) || `${$("app-select").value}.refresh`;
    const request = await state.api.post(`${appPath()}/task-requests`, { kind: "appRefresh", identifier });
    refreshApps();
    return `pending ${request.identifier}`;
  });
}

function backgroundPush() {
  act("Background push", async () => {
    let answer;
    try {
      answer = await state.api.post(`${devicePath()}/push`, { aps: { "content-available": 1 } }, {
        headers: { "apns-topic": $("app-select").value, "apns-push-type": "background", "apns-priority": "5" },
      });
    } catch (error) {
      if (error instanceof APIError && error.problem && (error.status === 405 || (error.status === 404 && /no file matches/i.test(error.problem.detail || "")))) {
        error.message += " — this service has no push route yet.";
      }
      throw error;
    }
    return `${answer.outcome || "sent"}${answer.reason ? ` (${answer.reason})` : ""}${answer.apnsId ? ` apns-id ${answer.apnsId}` : ""}`;
  });
}

function patchConditions(body) {
  act("Conditions", async () => {
    const r = await state.api.patch(`${devicePath()}/conditions`, body);
    const c = r.conditions || r;
    return Object.keys(body).map((k) => `${k} ${c[k] ?? body[k]}`).join(", ");
  });
}

export function bindControls() {
  for (const button of document.querySelectorAll("[data-action]")) {
    const action = ACTIONS[button.dataset.action];
    if (action) button.addEventListener("click", () => action(button));
  }
  for (const button of document.querySelectorAll("[data-advance]")) {
    button.addEventListener("click", () => act(`Advance ${button.textContent}`, async () => {
      const r = await state.api.post(`${devicePath()}/clock/advance`, { seconds: Number(button.dataset.advance) });
      return `now ${formatVirtual(r.now)}, ${r.eventsEmitted} events`;
    }));
  }
  $("c-battery").addEventListener("input", () => { $("c-battery-out").textContent = $("c-battery").value; });
  $("c-battery").addEventListener("change", () => patchConditions({ batteryLevel: Number($("c-battery").value) }));
  $("c-charging").addEventListener("change", () => patchConditions({ charging: $("c-charging").checked }));
  $("c-lpm").addEventListener("change", () => patchConditions({ lowPowerMode: $("c-lpm").checked }));
  $("c-network").addEventListener("change", () => patchConditions({ network: $("c-network").value }));
  $("c-bar").addEventListener("change", () => patchConditions({ backgroundAppRefresh: $("c-bar").checked }));
}
