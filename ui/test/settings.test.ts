import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, describe, expect, it } from "vitest";
import { mountSettings, renderSettings } from "../src/views/settings";
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

function toggle(into: HTMLElement): HTMLInputElement {
  return into.querySelector<HTMLInputElement>("#launch-at-login")!;
}

describe("renderSettings", () => {
  it("waits for the setting before it can be changed", () => {
    const view = renderSettings({ launchAtLogin: null, problem: null }, { onLaunchAtLogin: () => {} });
    expect(toggle(view).disabled).toBe(true);
  });

  it("reports the change the person makes", () => {
    const asked: boolean[] = [];
    const view = attached(renderSettings({ launchAtLogin: false, problem: null }, { onLaunchAtLogin: (on) => asked.push(on) }));
    toggle(view).click();
    expect(asked).toEqual([true]);
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
