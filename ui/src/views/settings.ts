// Settings that the app owns itself. Settings kept by the library (auto-compact threshold,
// injection budget, handoff lifetime, capture per project) join this view once it exposes them.
import { h } from "../dom";
import { describeFailure, launchesAtLogin, setLaunchAtLogin } from "../ipc";

export interface SettingsState {
  /** `null` while it is being read. */
  launchAtLogin: boolean | null;
  problem: string | null;
}

export interface SettingsActions {
  onLaunchAtLogin(on: boolean): void;
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
      "div",
      { class: "setting" },
      toggle,
      h("label", { for: "launch-at-login" }, "Launch at login"),
      h("p", { class: "hint" }, "Starts Throughline in the tray when you log in, without opening this window."),
    ),
  );
}

export function mountSettings(into: HTMLElement): () => void {
  let state: SettingsState = { launchAtLogin: null, problem: null };
  const show = (next: SettingsState) => {
    state = next;
    into.replaceChildren(renderSettings(state, { onLaunchAtLogin: change }));
  };
  const change = (on: boolean) => {
    show({ launchAtLogin: null, problem: null });
    setLaunchAtLogin(on)
      .then(() => launchesAtLogin())
      .then((now) => show({ launchAtLogin: now, problem: null }))
      .catch((error) =>
        show({ launchAtLogin: !on, problem: describeFailure(on ? "turn on launch at login" : "turn off launch at login", error) }),
      );
  };
  show(state);
  launchesAtLogin()
    .then((on) => show({ launchAtLogin: on, problem: null }))
    .catch((error) => show({ launchAtLogin: false, problem: describeFailure("read the launch-at-login setting", error) }));
  return () => {};
}
