import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, describe, expect, it } from "vitest";
import type { AutoCompact, Config, Effective, ProjectCapture } from "../src/ipc";
import { mountSettings, renderSettings, type SettingsActions, type SettingsState } from "../src/views/settings";
import { settle } from "./fixtures";

afterEach(() => {
  clearMocks();
  document.body.replaceChildren();
});

/** Attached to the page, as in the app: detached inputs get no change events. */
function attached<T extends HTMLElement>(element: T): T {
  document.body.append(element);
  return element;
}

const noActions: SettingsActions = { onLaunchAtLogin: () => {}, onMemory: () => {}, onAutocompact: () => {} };

const SETTINGS_JSON = "/home/dev/.claude/settings.json";

function threshold(percent: number | null, ignored: string | null = null, window: unknown = percent === null ? null : 1000000): AutoCompact {
  return { settings: SETTINGS_JSON, percent, ignored, window };
}

const PROJECTS: ProjectCapture[] = [
  { project: "/home/dev/toy", sessions: 2, off_by: null },
  { project: "/work/secret/api", sessions: 1, off_by: "/work/secret" },
];

function state(patch: Partial<SettingsState> = {}): SettingsState {
  return { launchAtLogin: false, memory: null, projects: null, autocompact: null, problem: null, ...patch };
}

function effective(budgetFromEnv = false): Effective {
  return {
    config: {
      budget: 9500,
      inject_on_clear: true,
      inject_on_compact: true,
      fresh_instead_of_compact: false,
      inject_on_handoff: true,
      handoff_minutes: 60,
      verbatim_turns: 6,
      pause_capture: false,
      capture_off: ["/work/secret"],
      plan_warn_percent: 80,
    },
    file: "/home/dev/.local/share/throughline/config.json",
    settings: [
      { key: "budget", value: "9500", source: budgetFromEnv ? "env" : "default", env: "THROUGHLINE_BUDGET" },
      { key: "handoff_minutes", value: "60", source: "file", env: "THROUGHLINE_HANDOFF_MINUTES" },
    ],
    problems: [],
  };
}

function input(into: HTMLElement, id: string): HTMLInputElement {
  return into.querySelector<HTMLInputElement>(`#${id}`)!;
}

/** The view mounted on the page, once the mocked IPC has answered. */
async function mounted(): Promise<HTMLElement> {
  const into = attached(document.createElement("div"));
  mountSettings(into);
  await settle();
  return into;
}

/** Types `value` into a field and lets the change go through the mocked IPC. */
async function enter(into: HTMLElement, id: string, value: string): Promise<void> {
  const field = input(into, id);
  field.value = value;
  field.dispatchEvent(new Event("change"));
  await settle();
}

function toggle(into: HTMLElement): HTMLInputElement {
  return into.querySelector<HTMLInputElement>("#launch-at-login")!;
}

describe("renderSettings", () => {
  it("waits for the setting before it can be changed", () => {
    const view = renderSettings(state({ launchAtLogin: null }), noActions);
    expect(toggle(view).disabled).toBe(true);
  });

  it("reports the change the person makes", () => {
    const asked: boolean[] = [];
    const view = attached(
      renderSettings(state(), { ...noActions, onLaunchAtLogin: (on) => asked.push(on) }),
    );
    toggle(view).click();
    expect(asked).toEqual([true]);
  });

  it("shows the memory settings in force and locks those set in the environment", () => {
    const view = renderSettings(state({ memory: effective(true) }), noActions);
    expect(input(view, "budget").value).toBe("9500");
    expect(input(view, "budget").disabled).toBe(true);
    expect(view.textContent).toContain("Set by THROUGHLINE_BUDGET in the environment.");
    expect(input(view, "handoff_minutes").value).toBe("60");
    expect(input(view, "handoff_minutes").disabled).toBe(false);
    expect(input(view, "inject_on_clear").checked).toBe(true);
    expect(view.textContent).toContain("Saved in /home/dev/.local/share/throughline/config.json.");
  });

  it("sends the whole configuration with the changed value, and refuses values out of range", () => {
    const saved: unknown[] = [];
    const view = attached(renderSettings(state({ memory: effective() }), { ...noActions, onMemory: (c) => saved.push(c) }));
    const minutes = input(view, "handoff_minutes");
    minutes.value = "15";
    minutes.dispatchEvent(new Event("change"));
    minutes.value = "0";
    minutes.dispatchEvent(new Event("change"));
    expect(saved).toEqual([{ ...effective().config, handoff_minutes: 15 }]);
  });

  it("pauses capture and switches it per project, leaving folders switched off as a whole alone", () => {
    const saved: unknown[] = [];
    const view = attached(
      renderSettings(state({ memory: effective(), projects: PROJECTS }), { ...noActions, onMemory: (c) => saved.push(c) }),
    );
    input(view, "pause_capture").click();
    const toy = view.querySelector<HTMLInputElement>('[data-project="/home/dev/toy"]')!;
    expect(toy.checked).toBe(true);
    toy.click();
    const secret = view.querySelector<HTMLInputElement>('[data-project="/work/secret/api"]')!;
    expect(secret.checked).toBe(false);
    expect(secret.disabled).toBe(true);
    expect(view.textContent).toContain("Off with everything in /work/secret.");
    expect(saved).toEqual([
      { ...effective().config, pause_capture: true },
      { ...effective().config, capture_off: ["/work/secret", "/home/dev/toy"] },
    ]);
  });

  it("turns capture back on for a project switched off by itself", () => {
    const saved: unknown[] = [];
    const memory = effective();
    memory.config.capture_off = ["/home/dev/toy"];
    const projects = [{ project: "/home/dev/toy", sessions: 2, off_by: "/home/dev/toy" }];
    const view = attached(renderSettings(state({ memory, projects }), { ...noActions, onMemory: (c) => saved.push(c) }));
    const toy = view.querySelector<HTMLInputElement>('[data-project="/home/dev/toy"]')!;
    expect(toy.disabled).toBe(false);
    toy.click();
    expect(saved).toEqual([{ ...memory.config, capture_off: [] }]);
  });

  it("shows the auto-compact threshold and where it is written, and sends only percents the client accepts", () => {
    const asked: (number | null)[] = [];
    const view = attached(renderSettings(state({ autocompact: threshold(70) }), { ...noActions, onAutocompact: (p) => asked.push(p) }));
    const percent = input(view, "autocompact");
    expect(percent.value).toBe("70");
    expect(view.textContent).toContain("reaches 70% of the window");
    expect(view.textContent).toContain(`env.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE in ${SETTINGS_JSON}`);
    expect(view.textContent).toContain("It can only bring compaction earlier");
    expect(view.querySelector("[role=alert]")).toBeNull();
    for (const value of ["55", "0", "101", "12.5", ""]) {
      percent.value = value;
      percent.dispatchEvent(new Event("change"));
    }
    view.querySelector<HTMLButtonElement>("#autocompact-default")!.click();
    expect(asked).toEqual([55, null, null]);
  });

  it("refuses what is no percent in view, keeps the threshold and shows it again", () => {
    const asked: (number | null)[] = [];
    const view = attached(renderSettings(state({ autocompact: threshold(70) }), { ...noActions, onAutocompact: (p) => asked.push(p) }));
    const percent = input(view, "autocompact");
    const refusal = () => view.querySelector<HTMLElement>(".claude .refused")!;
    expect(refusal().hasAttribute("hidden")).toBe(true);
    // Letters typed into a number field read as empty, with badInput set.
    percent.value = "";
    Object.defineProperty(percent, "validity", { value: { badInput: true }, configurable: true });
    percent.dispatchEvent(new Event("change"));
    expect(asked).toEqual([]);
    expect(refusal().hasAttribute("hidden")).toBe(false);
    expect(refusal().textContent).toContain("the threshold stays at 70%");
    expect(percent.value).toBe("70");
    Object.defineProperty(percent, "validity", { value: { badInput: false }, configurable: true });
    for (const value of ["0", "150", "70.5"]) {
      percent.value = value;
      percent.dispatchEvent(new Event("change"));
      expect(refusal().textContent).toContain(`"${value}" is not a whole percent`);
      expect(percent.value).toBe("70");
    }
    expect(asked).toEqual([]);
  });

  it("refuses a budget out of range in view and shows the one in force", () => {
    const saved: Config[] = [];
    const memory = effective();
    const view = attached(renderSettings(state({ memory }), { ...noActions, onMemory: (c) => saved.push(c) }));
    const budget = input(view, "budget");
    budget.value = "100";
    budget.dispatchEvent(new Event("change"));
    expect(saved).toEqual([]);
    expect(budget.value).toBe(String(memory.config.budget));
    expect(view.querySelector(".memory .refused:not([hidden])")!.textContent).toContain('"100" is not a whole number from 500 to 9500');
  });

  it("refuses a plan warning that is no whole percent in view and shows the one in force", () => {
    const saved: Config[] = [];
    const memory = effective();
    const view = attached(renderSettings(state({ memory }), { ...noActions, onMemory: (c) => saved.push(c) }));
    const warning = input(view, "plan_warn_percent");
    expect(warning.value).toBe("80");
    for (const value of ["150", "-1", "70.5"]) {
      warning.value = value;
      warning.dispatchEvent(new Event("change"));
      expect(warning.value).toBe("80");
      expect(view.querySelector(".plan .refused:not([hidden])")!.textContent).toBe(
        `"${value}" is not a whole number from 0 to 100; plan usage warning at % stays 80.`,
      );
    }
    // Letters: a number field reports them as empty with badInput set.
    Object.defineProperty(warning, "validity", { value: { badInput: true } });
    warning.value = "";
    warning.dispatchEvent(new Event("change"));
    expect(view.querySelector(".plan .refused:not([hidden])")!.textContent).toContain("That is not a whole number");
    expect(saved).toEqual([]);
  });

  it("says when the client ignores the threshold in its settings", () => {
    const view = renderSettings(state({ autocompact: threshold(null, "lots") }), noActions);
    expect(view.querySelector("[role=alert]")!.textContent).toContain('"lots"');
    expect(view.querySelector<HTMLButtonElement>("#autocompact-default")!.disabled).toBe(false);
    const unset = renderSettings(state({ autocompact: threshold(null) }), noActions);
    expect(unset.textContent).toContain("Not set: Claude Code compacts by itself about 33k tokens before the end of the window");
    expect(unset.querySelector<HTMLButtonElement>("#autocompact-default")!.disabled).toBe(true);
  });

  it("says when the threshold has no window and some clients ignore it", () => {
    const view = renderSettings(state({ autocompact: threshold(30, null, null) }), noActions);
    expect(view.querySelector("[role=alert]")!.textContent).toContain("names no autoCompactWindow");
  });
});

describe("mountSettings", () => {
  it("turns launch at login on through the autostart plugin", async () => {
    let enabled = false;
    const calls: string[] = [];
    mockIPC((cmd) => {
      calls.push(cmd);
      if (cmd === "plugin:autostart|is_enabled") return enabled;
      if (cmd === "plugin:autostart|enable") enabled = true;
      if (cmd === "plugin:autostart|disable") enabled = false;
    });
    const into = await mounted();
    expect(toggle(into).checked).toBe(false);
    toggle(into).click();
    await settle();
    expect(calls).toContain("plugin:autostart|enable");
    expect(toggle(into).checked).toBe(true);
  });

  it("saves a memory setting through the library and shows what is now in force", async () => {
    let stored = effective();
    const calls: unknown[] = [];
    mockIPC((cmd, args) => {
      calls.push([cmd, args]);
      if (cmd === "plugin:autostart|is_enabled") return false;
      if (cmd === "settings") return stored;
      if (cmd === "save_settings") {
        stored = { ...stored, config: (args as { config: Effective["config"] }).config };
        return stored;
      }
    });
    const into = await mounted();
    await enter(into, "budget", "4000");
    expect(calls).toContainEqual(["save_settings", { config: { ...effective().config, budget: 4000 } }]);
    expect(input(into, "budget").value).toBe("4000");
  });

  it("saves the plan warning through the library, 0 included (never warn)", async () => {
    let stored = effective();
    const calls: unknown[] = [];
    mockIPC((cmd, args) => {
      calls.push([cmd, args]);
      if (cmd === "plugin:autostart|is_enabled") return false;
      if (cmd === "settings") return stored;
      if (cmd === "save_settings") {
        stored = { ...stored, config: (args as { config: Effective["config"] }).config };
        return stored;
      }
    });
    const into = await mounted();
    await enter(into, "plan_warn_percent", "65");
    expect(calls).toContainEqual(["save_settings", { config: { ...effective().config, plan_warn_percent: 65 } }]);
    expect(input(into, "plan_warn_percent").value).toBe("65");
    await enter(into, "plan_warn_percent", "0");
    expect(input(into, "plan_warn_percent").value).toBe("0");
    expect(into.querySelector(".refused:not([hidden])")).toBeNull();
  });

  it("writes the auto-compact threshold through the library and shows the value now set", async () => {
    let current = threshold(null);
    const calls: unknown[] = [];
    mockIPC((cmd, args) => {
      calls.push([cmd, args]);
      if (cmd === "plugin:autostart|is_enabled") return false;
      if (cmd === "autocompact") return current;
      if (cmd === "set_autocompact") {
        current = threshold((args as { percent: number | null }).percent);
        return current;
      }
    });
    const into = await mounted();
    await enter(into, "autocompact", "60");
    expect(calls).toContainEqual(["set_autocompact", { percent: 60 }]);
    expect(input(into, "autocompact").value).toBe("60");
  });

  it("says why the threshold could not be written", async () => {
    mockIPC((cmd) => {
      if (cmd === "plugin:autostart|is_enabled") return false;
      if (cmd === "autocompact") return threshold(null);
      if (cmd === "set_autocompact") throw new Error("/home/dev/.claude/settings.json is read-only; nothing was changed");
    });
    const into = await mounted();
    await enter(into, "autocompact", "60");
    const alert = into.querySelector("[role=alert]")!.textContent!;
    expect(alert).toContain("Could not write the auto-compact threshold");
    expect(alert).toContain("read-only");
  });

  it("shows a failure in words and keeps the old value", async () => {
    mockIPC((cmd) => {
      if (cmd === "plugin:autostart|is_enabled") return false;
      if (cmd === "plugin:autostart|enable") throw new Error("cannot write ~/.config/autostart");
    });
    const into = await mounted();
    toggle(into).click();
    await settle();
    expect(into.querySelector("[role=alert]")!.textContent).toContain("Could not turn on launch at login");
    expect(toggle(into).checked).toBe(false);
  });
});
