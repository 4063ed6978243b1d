// Settings: the app's own (launch at login), Throughline's memory and capture settings, which
// the library keeps (a value set in the environment is shown but cannot be changed here), and
// Claude Code's auto-compact threshold in its own settings file.
import { h } from "../dom";
import {
  autocompact,
  describeFailure,
  launchesAtLogin,
  projects,
  saveSettings,
  setAutocompact,
  setLaunchAtLogin,
  settings,
  type AutoCompact,
  type Config,
  type Effective,
  type ProjectCapture,
} from "../ipc";

export interface SettingsState {
  /** `null` while it is being read. */
  launchAtLogin: boolean | null;
  /** `null` while it is being read. */
  memory: Effective | null;
  /** `null` while it is being read. */
  projects: ProjectCapture[] | null;
  /** `null` while it is being read. */
  autocompact: AutoCompact | null;
  problem: string | null;
}

export interface SettingsActions {
  onLaunchAtLogin(on: boolean): void;
  onMemory(config: Config): void;
  /** `null`: leave the threshold to the client. */
  onAutocompact(percent: number | null): void;
}

type NumberKey = "budget" | "handoff_minutes" | "verbatim_turns" | "plan_warn_percent";
type SwitchKey =
  | "inject_on_clear"
  | "inject_on_compact"
  | "fresh_instead_of_compact"
  | "inject_on_handoff";

interface NumberSetting {
  key: NumberKey;
  label: string;
  hint: string;
  min: number;
  max: number;
}

const NUMBERS: NumberSetting[] = [
  { key: "budget", label: "Memory per injection", hint: "Characters handed to a new chat; the agent drops anything over 10,000.", min: 500, max: 9500 },
  { key: "handoff_minutes", label: "Handoff lifetime", hint: "Minutes a handoff waits for the next new chat of its project.", min: 1, max: 1440 },
  { key: "verbatim_turns", label: "Turns word for word", hint: "The most recent turns handed over verbatim; older ones as one-liners.", min: 0, max: 50 },
];

const PLAN_WARNING: NumberSetting = {
  key: "plan_warn_percent",
  label: "Plan usage warning at %",
  hint: "A notification warns when Claude Code's five-hour or seven-day limit is this full (subscribers; 0: never).",
  min: 0,
  max: 100,
};

const SWITCHES: { key: SwitchKey; label: string }[] = [
  { key: "inject_on_clear", label: "Hand the memory to the chat that follows /clear" },
  { key: "inject_on_handoff", label: "Honour handoffs (/tl and the Hand off button)" },
  { key: "inject_on_compact", label: "After a compaction, give back the recent turns verbatim" },
  {
    key: "fresh_instead_of_compact",
    label:
      "Stop Claude Code's and Codex's automatic compaction: /clear goes on from the memory instead",
  },
];

function envName(memory: Effective, key: string): string | null {
  const setting = memory.settings.find((s) => s.key === key);
  return setting?.source === "env" ? setting.env : null;
}

function hint(text: string, env: string | null): HTMLElement {
  return h("p", { class: "hint" }, env ? `${text} Set by ${env} in the environment.` : text);
}

/**
 * What a number field holds: `null` when it is empty, `NaN` when it holds what is no number.
 * A number field reports typed letters as empty, with `validity.badInput` set.
 */
export function typedNumber(input: HTMLInputElement): number | null {
  if (input.validity?.badInput) return NaN;
  if (input.value.trim() === "") return null;
  return Number(input.value);
}

/** How the refused value reads in the message. */
function shown(input: HTMLInputElement): string {
  return input.validity?.badInput || input.value.trim() === "" ? "That" : JSON.stringify(input.value);
}

/** Says in view why `input`'s value was refused and puts the value in force back. */
function refuse(input: HTMLInputElement, refusal: HTMLElement, why: string, saved: string): void {
  refusal.textContent = why;
  refusal.removeAttribute("hidden");
  refusal.setAttribute("role", "alert");
  input.value = saved;
}

/** A whole-number setting: a value out of range or no number is refused in view, the saved one kept. */
function renderNumber(memory: Effective, { key, label, hint: text, min, max }: NumberSetting, change: (patch: Partial<Config>) => void): HTMLElement {
  const input = h("input", { type: "number", id: key, min: String(min), max: String(max) });
  input.value = String(memory.config[key]);
  const env = envName(memory, key);
  input.disabled = env !== null;
  const refusal = h("p", { class: "refused", hidden: "" });
  input.addEventListener("change", () => {
    const value = typedNumber(input);
    if (value !== null && Number.isInteger(value) && value >= min && value <= max) return change({ [key]: value });
    refuse(input, refusal, `${shown(input)} is not a whole number from ${min} to ${max}; ${label.toLowerCase()} stays ${memory.config[key]}.`, String(memory.config[key]));
  });
  return h("div", { class: "setting" }, h("label", { for: key }, label), input, hint(text, env), refusal);
}

function renderMemory(memory: Effective, actions: SettingsActions): HTMLElement {
  const change = (patch: Partial<Config>) => actions.onMemory({ ...memory.config, ...patch });
  const numbers = NUMBERS.map((setting) => renderNumber(memory, setting, change));
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

function renderCapture(memory: Effective, projects: ProjectCapture[], actions: SettingsActions): HTMLElement {
  const config = memory.config;
  const pause = h("input", { type: "checkbox", id: "pause_capture" });
  pause.checked = config.pause_capture;
  const pauseEnv = envName(memory, "pause_capture");
  pause.disabled = pauseEnv !== null;
  pause.addEventListener("change", () => actions.onMemory({ ...config, pause_capture: pause.checked }));
  const listEnv = envName(memory, "capture_off");
  const rows = projects.map((project, i) => {
    const id = `capture-${i}`;
    const input = h("input", { type: "checkbox", id, "data-project": project.project });
    input.checked = project.off_by === null;
    // Off because a folder it is in is off: switched with that folder, not here.
    const offWithFolder = project.off_by !== null && project.off_by !== project.project;
    input.disabled = listEnv !== null || offWithFolder;
    input.addEventListener("change", () => {
      const others = config.capture_off.filter((folder) => folder !== project.project);
      actions.onMemory({ ...config, capture_off: input.checked ? others : [...others, project.project] });
    });
    const count = project.sessions === 1 ? "1 session" : `${project.sessions} sessions`;
    return h(
      "li",
      { class: "setting" },
      input,
      h("label", { for: id, title: project.project }, project.project),
      h("span", { class: "count" }, ` ${count}`),
      offWithFolder ? h("p", { class: "hint" }, `Off with everything in ${project.off_by}.`) : null,
    );
  });
  return h(
    "fieldset",
    { class: "capture" },
    h("legend", {}, "Capture"),
    h(
      "div",
      { class: "setting" },
      pause,
      h("label", { for: "pause_capture" }, "Pause capture"),
      hint("Nothing sessions say is stored until you resume, not even afterwards; memory already stored is still handed over.", pauseEnv),
    ),
    h("p", { class: "hint" }, "Projects Throughline captures (untick one to leave it alone: nothing stored, nothing handed over):"),
    rows.length > 0 ? h("ul", { class: "projects" }, ...rows) : h("p", { class: "empty" }, "Projects show here once a session in them has been captured."),
    listEnv ? hint("", listEnv) : null,
  );
}

function renderPlanWarning(memory: Effective, actions: SettingsActions): HTMLElement {
  const change = (patch: Partial<Config>) => actions.onMemory({ ...memory.config, ...patch });
  return h("fieldset", { class: "plan" }, h("legend", {}, "Plan usage"), renderNumber(memory, PLAN_WARNING, change));
}

function renderAutocompact(threshold: AutoCompact, actions: SettingsActions): HTMLElement {
  const input = h("input", { type: "number", id: "autocompact", min: "1", max: "100", placeholder: "default" });
  input.value = threshold.percent === null ? "" : String(threshold.percent);
  const saved = threshold.percent === null ? "" : String(threshold.percent);
  const refusal = h("p", { class: "refused", hidden: "" });
  input.addEventListener("change", () => {
    const value = typedNumber(input);
    if (value === null) return actions.onAutocompact(null);
    if (Number.isInteger(value) && value >= 1 && value <= 100) return actions.onAutocompact(value);
    const stays = threshold.percent === null ? "the client's default stays" : `the threshold stays at ${threshold.percent}%`;
    refuse(input, refusal, `${shown(input)} is not a whole percent from 1 to 100 (empty: the client's default); ${stays}.`, saved);
  });
  const reset = h("button", { type: "button", id: "autocompact-default" }, "Use the client's default");
  reset.disabled = threshold.percent === null && threshold.ignored === null;
  reset.addEventListener("click", () => actions.onAutocompact(null));
  return h(
    "fieldset",
    { class: "claude" },
    h("legend", {}, "Claude Code"),
    threshold.ignored !== null
      ? h("p", { class: "problem", role: "alert" }, `Claude Code ignores the threshold in its settings (${JSON.stringify(threshold.ignored)}): it is not a percent from 1 to 100.`)
      : null,
    threshold.percent !== null && threshold.window === null
      ? h(
          "p",
          { class: "problem", role: "alert" },
          `Claude Code may ignore this threshold: ${threshold.settings} names no autoCompactWindow, and without one some versions never compact by themselves. Enter the value again to add it.`,
        )
      : null,
    h(
      "div",
      { class: "setting" },
      h("label", { for: "autocompact" }, "Auto-compact at % of the context window"),
      input,
      reset,
      refusal,
      h(
        "p",
        { class: "hint" },
        threshold.percent === null
          ? "Not set: Claude Code compacts by itself about 33k tokens before the end of the window (at 84% of a 200k one); the gauges and warnings count up to there."
          : `Claude Code compacts a session when its context reaches ${threshold.percent}% of the window.`,
      ),
      h(
        "p",
        { class: "hint" },
        `It can only bring compaction earlier: above about 92% (200k-token windows) or 98% (1M) it changes nothing, Claude Code's own threshold being lower. Written to env.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE in ${threshold.settings}, with autoCompactWindow (the model's whole window, unless you set one), for sessions started afterwards.`,
      ),
    ),
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
    state.memory && state.projects ? renderCapture(state.memory, state.projects, actions) : null,
    state.autocompact ? renderAutocompact(state.autocompact, actions) : null,
    state.memory ? renderPlanWarning(state.memory, actions) : null,
  );
}

export function mountSettings(into: HTMLElement): () => void {
  let state: SettingsState = { launchAtLogin: null, memory: null, projects: null, autocompact: null, problem: null };
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
        .then(() => projects())
        .then((list) => show({ projects: list }))
        .catch((error) => show({ problem: describeFailure("save the settings", error) }));
    },
    onAutocompact(percent) {
      setAutocompact(percent)
        .then((threshold) => show({ autocompact: threshold, problem: null }))
        .catch((error) => show({ problem: describeFailure("write the auto-compact threshold", error) }));
    },
  };
  show({});
  launchesAtLogin()
    .then((on) => show({ launchAtLogin: on }))
    .catch((error) => show({ launchAtLogin: false, problem: describeFailure("read the launch-at-login setting", error) }));
  settings()
    .then((memory) => show({ memory }))
    .catch((error) => show({ problem: describeFailure("read the settings", error) }));
  projects()
    .then((list) => show({ projects: list }))
    .catch((error) => show({ projects: [], problem: describeFailure("read the projects", error) }));
  autocompact()
    .then((threshold) => show({ autocompact: threshold }))
    .catch((error) => show({ problem: describeFailure("read Claude Code's auto-compact threshold", error) }));
  return () => {};
}
