// Settings: the app's own (launch at login) and Throughline's memory settings, which the
// library keeps; a value set in the environment is shown but cannot be changed here.
import { h } from "../dom";
import { describeFailure, launchesAtLogin, saveSettings, setLaunchAtLogin, settings, type Config, type Effective } from "../ipc";

export interface SettingsState {
  /** `null` while it is being read. */
  launchAtLogin: boolean | null;
  /** `null` while it is being read. */
  memory: Effective | null;
  problem: string | null;
}

export interface SettingsActions {
  onLaunchAtLogin(on: boolean): void;
  onMemory(config: Config): void;
}

type NumberKey = "budget" | "handoff_minutes" | "verbatim_turns";
type SwitchKey = "inject_on_clear" | "inject_on_compact" | "inject_on_handoff";

const NUMBERS: { key: NumberKey; label: string; hint: string; min: number; max: number }[] = [
  { key: "budget", label: "Memory per injection", hint: "Characters handed to a new chat; the agent drops anything over 10,000.", min: 500, max: 9500 },
  { key: "handoff_minutes", label: "Handoff lifetime", hint: "Minutes a handoff waits for the next new chat of its project.", min: 1, max: 1440 },
  { key: "verbatim_turns", label: "Turns word for word", hint: "The most recent turns handed over verbatim; older ones as one-liners.", min: 0, max: 50 },
];

const SWITCHES: { key: SwitchKey; label: string }[] = [
  { key: "inject_on_clear", label: "Hand the memory to the chat that follows /clear" },
  { key: "inject_on_handoff", label: "Honour handoffs (/tl and the Hand off button)" },
  { key: "inject_on_compact", label: "After a compaction, give back the recent turns verbatim" },
];

function envName(memory: Effective, key: string): string | null {
  const setting = memory.settings.find((s) => s.key === key);
  return setting?.source === "env" ? setting.env : null;
}

function hint(text: string, env: string | null): HTMLElement {
  return h("p", { class: "hint" }, env ? `${text} Set by ${env} in the environment.` : text);
}

function renderMemory(memory: Effective, actions: SettingsActions): HTMLElement {
  const change = (patch: Partial<Config>) => actions.onMemory({ ...memory.config, ...patch });
  const numbers = NUMBERS.map(({ key, label, hint: text, min, max }) => {
    const input = h("input", { type: "number", id: key, min: String(min), max: String(max) });
    input.value = String(memory.config[key]);
    const env = envName(memory, key);
    input.disabled = env !== null;
    input.addEventListener("change", () => {
      const value = Number(input.value);
      if (Number.isInteger(value) && value >= min && value <= max) change({ [key]: value });
      else input.setCustomValidity(`A whole number from ${min} to ${max}.`);
    });
    return h("div", { class: "setting" }, h("label", { for: key }, label), input, hint(text, env));
  });
  const switches = SWITCHES.map(({ key, label }) => {
    const input = h("input", { type: "checkbox", id: key });
    input.checked = memory.config[key];
    const env = envName(memory, key);
    input.disabled = env !== null;
    input.addEventListener("change", () => change({ [key]: input.checked }));
    return h("div", { class: "setting" }, input, h("label", { for: key }, label), env ? hint("", env) : null);
  });
  return h(
    "fieldset",
    { class: "memory" },
    h("legend", {}, "Memory"),
    ...memory.problems.map((p) => h("p", { class: "problem", role: "alert" }, p)),
    ...numbers,
    ...switches,
    h("p", { class: "hint" }, `Saved in ${memory.file}.`),
  );
}

export function renderSettings(state: SettingsState, actions: SettingsActions): HTMLElement {
  const toggle = h("input", { type: "checkbox", id: "launch-at-login" });
  toggle.checked = state.launchAtLogin === true;
  toggle.disabled = state.launchAtLogin === null;
  toggle.addEventListener("change", () => actions.onLaunchAtLogin(toggle.checked));
  return h(
    "section",
    { class: "settings" },
    state.problem ? h("p", { class: "problem", role: "alert" }, state.problem) : null,
    h(
      "fieldset",
      { class: "app" },
      h("legend", {}, "App"),
      h(
        "div",
        { class: "setting" },
        toggle,
        h("label", { for: "launch-at-login" }, "Launch at login"),
        h("p", { class: "hint" }, "Starts Throughline in the tray when you log in, without opening this window."),
      ),
    ),
    state.memory ? renderMemory(state.memory, actions) : null,
  );
}

export function mountSettings(into: HTMLElement): () => void {
  let state: SettingsState = { launchAtLogin: null, memory: null, problem: null };
  const show = (patch: Partial<SettingsState>) => {
    state = { ...state, ...patch };
    into.replaceChildren(renderSettings(state, actions));
  };
  const actions: SettingsActions = {
    onLaunchAtLogin(on) {
      show({ launchAtLogin: null, problem: null });
      setLaunchAtLogin(on)
        .then(() => launchesAtLogin())
        .then((now) => show({ launchAtLogin: now }))
        .catch((error) =>
          show({ launchAtLogin: !on, problem: describeFailure(on ? "turn on launch at login" : "turn off launch at login", error) }),
        );
    },
    onMemory(config) {
      saveSettings(config)
        .then((memory) => show({ memory, problem: null }))
        .catch((error) => show({ problem: describeFailure("save the settings", error) }));
    },
  };
  show({});
  launchesAtLogin()
    .then((on) => show({ launchAtLogin: on }))
    .catch((error) => show({ launchAtLogin: false, problem: describeFailure("read the launch-at-login setting", error) }));
  settings()
    .then((memory) => show({ memory }))
    .catch((error) => show({ problem: describeFailure("read the settings", error) }));
  return () => {};
}
