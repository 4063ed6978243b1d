import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, describe, expect, it } from "vitest";
import type { Effective } from "../src/ipc";
import { mountSettings, renderSettings, type SettingsActions } from "../src/views/settings";
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

const noActions: SettingsActions = { onLaunchAtLogin: () => {}, onMemory: () => {} };

function effective(budgetFromEnv = false): Effective {
  return {
    config: { budget: 9500, inject_on_clear: true, inject_on_compact: true, inject_on_handoff: true, handoff_minutes: 60, verbatim_turns: 6 },
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

function toggle(into: HTMLElement): HTMLInputElement {
  return into.querySelector<HTMLInputElement>("#launch-at-login")!;
}

describe("renderSettings", () => {
  it("waits for the setting before it can be changed", () => {
    const view = renderSettings({ launchAtLogin: null, memory: null, problem: null }, noActions);
    expect(toggle(view).disabled).toBe(true);
  });

  it("reports the change the person makes", () => {
    const asked: boolean[] = [];
    const view = attached(
      renderSettings({ launchAtLogin: false, memory: null, problem: null }, { ...noActions, onLaunchAtLogin: (on) => asked.push(on) }),
    );
    toggle(view).click();
    expect(asked).toEqual([true]);
  });

  it("shows the memory settings in force and locks those set in the environment", () => {
    const view = renderSettings({ launchAtLogin: false, memory: effective(true), problem: null }, noActions);
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
    const view = attached(renderSettings({ launchAtLogin: false, memory: effective(), problem: null }, { ...noActions, onMemory: (c) => saved.push(c) }));
    const minutes = input(view, "handoff_minutes");
    minutes.value = "15";
    minutes.dispatchEvent(new Event("change"));
    minutes.value = "0";
    minutes.dispatchEvent(new Event("change"));
    expect(saved).toEqual([{ ...effective().config, handoff_minutes: 15 }]);
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
    const into = attached(document.createElement("div"));
    mountSettings(into);
    await settle();
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
    const into = attached(document.createElement("div"));
    mountSettings(into);
    await settle();
    const budget = input(into, "budget");
    budget.value = "4000";
    budget.dispatchEvent(new Event("change"));
    await settle();
    expect(calls).toContainEqual(["save_settings", { config: { ...effective().config, budget: 4000 } }]);
    expect(input(into, "budget").value).toBe("4000");
  });

  it("shows a failure in words and keeps the old value", async () => {
    mockIPC((cmd) => {
      if (cmd === "plugin:autostart|is_enabled") return false;
      if (cmd === "plugin:autostart|enable") throw new Error("cannot write ~/.config/autostart");
    });
    const into = attached(document.createElement("div"));
    mountSettings(into);
    await settle();
    toggle(into).click();
    await settle();
    expect(into.querySelector("[role=alert]")!.textContent).toContain("Could not turn on launch at login");
    expect(toggle(into).checked).toBe(false);
  });
});
