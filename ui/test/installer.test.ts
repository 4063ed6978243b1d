import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, describe, expect, it } from "vitest";
import type { Installation } from "../src/ipc";
import { mountInstaller, renderInstaller, type InstallerActions, type InstallerState } from "../src/views/installer";
import { installationOf, NOT_REGISTERED, registration, report, settle } from "./fixtures";

afterEach(() => {
  clearMocks();
  document.body.replaceChildren();
});

const noActions: InstallerActions = { onInstall: () => {}, onUninstall: () => {}, onConfirmUninstall: () => {} };

function state(installation: Installation | null, patch: Partial<InstallerState> = {}): InstallerState {
  return { installation, done: null, confirmingUninstall: false, busy: false, problem: null, ...patch };
}

function buttons(view: HTMLElement): Record<string, boolean> {
  const enabled: Record<string, boolean> = {};
  for (const b of view.querySelectorAll<HTMLButtonElement>("button")) enabled[b.textContent!] = !b.disabled;
  return enabled;
}

function click(into: HTMLElement, label: string): void {
  const button = [...into.querySelectorAll<HTMLButtonElement>("button")].find((b) => b.textContent === label);
  if (!button) throw new Error(`no ${label} button in: ${into.textContent}`);
  button.click();
}

describe("renderInstaller", () => {
  it("offers Install only when nothing is registered", () => {
    const view = renderInstaller(state(installationOf(NOT_REGISTERED)), noActions);
    expect(view.querySelector(".status")!.textContent).toContain("Not registered");
    expect(buttons(view)).toEqual({ Install: true, Repair: false, Uninstall: false });
    const hooks = view.querySelector("[data-check=hooks]")!;
    expect(hooks.classList.contains("problem")).toBe(true);
    expect(hooks.querySelector(".fix")!.textContent).toBe("Fix: Press Install.");
  });

  it("shows hooks that run the bundled CLI, with nothing to repair", () => {
    const view = renderInstaller(state(installationOf(registration())), noActions);
    expect(view.querySelector(".status")!.textContent).toBe(
      "Registered: 5 hooks in /home/dev/.claude/settings.json run the bundled CLI.",
    );
    expect(buttons(view)).toEqual({ Install: false, Repair: false, Uninstall: true });
    expect(view.querySelector("legend")!.parentElement!.textContent).toContain("MCP server: runs /usr/lib/Throughline/throughline");
    expect(view.querySelector(".doctor legend")!.textContent).toBe("Doctor: everything is in place");
  });

  it("names hooks that run another binary and missing events, and offers Repair", () => {
    const elsewhere = registration("/old/bin/throughline", { missing: ["PreCompact"] });
    const view = renderInstaller(state(installationOf(elsewhere)), noActions);
    expect(view.querySelector(".status")!.textContent).toContain("the hooks run /old/bin/throughline instead of the bundled CLI");
    expect(view.querySelector(".missing")!.textContent).toBe("Missing hooks: PreCompact");
    expect(buttons(view)).toEqual({ Install: false, Repair: true, Uninstall: true });
  });

  it("refuses to register a bundled CLI that does not work, and says why", () => {
    const problem = "/usr/lib/Throughline/throughline is not a working throughline CLI (this app was built without it).";
    const view = renderInstaller(state(installationOf(NOT_REGISTERED, { binary_problem: problem })), noActions);
    expect(view.querySelector("[role=alert]")!.textContent).toBe(problem);
    expect(buttons(view)).toEqual({ Install: false, Repair: false, Uninstall: false });
  });

  it("disables every button while one runs", () => {
    const view = renderInstaller(state(installationOf(registration("/old/throughline")), { busy: true }), noActions);
    expect(buttons(view)).toEqual({ Install: false, Repair: false, Uninstall: false });
  });

  it("shows what the last button changed, file by file, with the backup", () => {
    const done = { what: "Install", report: report("updated", ["added hooks: Stop, SessionEnd"]) };
    const view = renderInstaller(state(installationOf(registration()), { done }), noActions);
    const shown = view.querySelector(".report")!;
    expect(shown.querySelector("p")!.textContent).toBe("Install changed:");
    const changes = shown.querySelectorAll("li.change");
    expect(changes).toHaveLength(1);
    expect(changes[0].textContent).toContain("updated /home/dev/.claude/settings.json");
    expect(changes[0].textContent).toContain("added hooks: Stop, SessionEnd");
    expect(changes[0].textContent).toContain("previous version: /home/dev/.claude/settings.json.throughline-backup");
  });

  it("says so when a button had nothing to change", () => {
    const done = { what: "Repair", report: report("unchanged") };
    const view = renderInstaller(state(installationOf(registration()), { done }), noActions);
    expect(view.querySelector(".report")!.textContent).toBe("Repair: nothing needed changing.");
  });
});

describe("mountInstaller", () => {
  it("installs through the library, then shows the report and the new state", async () => {
    let current = installationOf(NOT_REGISTERED);
    const calls: string[] = [];
    mockIPC((cmd) => {
      calls.push(cmd);
      if (cmd === "installation") return current;
      if (cmd === "install_hooks") {
        current = installationOf(registration());
        return report("created", ["added hooks: SessionStart, UserPromptSubmit, Stop, PreCompact, SessionEnd"]);
      }
    });
    const into = document.createElement("div");
    mountInstaller(into);
    await settle();
    click(into, "Install");
    await settle();
    expect(calls).toEqual(["installation", "install_hooks", "installation"]);
    expect(into.querySelector(".status")!.textContent).toContain("Registered: 5 hooks");
    expect(into.querySelector(".report")!.textContent).toContain("created /home/dev/.claude/settings.json");
    expect(buttons(into)).toEqual({ Install: false, Repair: false, Uninstall: true });
  });

  it("uninstalls only after the person confirms", async () => {
    let current = installationOf(registration());
    const calls: string[] = [];
    mockIPC((cmd) => {
      calls.push(cmd);
      if (cmd === "installation") return current;
      if (cmd === "uninstall_hooks") {
        current = installationOf(NOT_REGISTERED);
        return report("updated", ["removed hooks: SessionStart, UserPromptSubmit, Stop, PreCompact, SessionEnd"]);
      }
    });
    const into = document.createElement("div");
    mountInstaller(into);
    await settle();
    click(into, "Uninstall");
    await settle();
    expect(into.querySelector("[role=alertdialog]")!.textContent).toContain("The stored memory stays.");
    click(into, "Keep");
    await settle();
    expect(calls).toEqual(["installation"]);
    expect(into.querySelector("[role=alertdialog]")).toBeNull();

    click(into, "Uninstall");
    click(into, "Remove");
    await settle();
    expect(calls).toEqual(["installation", "uninstall_hooks", "installation"]);
    expect(into.querySelector(".status")!.textContent).toContain("Not registered");
    expect(into.querySelector(".report")!.textContent).toContain("removed hooks");
  });

  it("shows the app's own failure message as it is, and keeps the buttons usable", async () => {
    const refusal =
      "Throughline could not be registered: /home/dev/.claude/settings.json has comments (JSONC); Throughline only edits plain JSON, so nothing was changed.";
    mockIPC((cmd) => {
      if (cmd === "installation") return installationOf(NOT_REGISTERED);
      if (cmd === "install_hooks") throw refusal;
    });
    const into = document.createElement("div");
    mountInstaller(into);
    await settle();
    click(into, "Install");
    await settle();
    expect(into.querySelector("[role=alert]")!.textContent).toBe(refusal);
    expect(buttons(into).Install).toBe(true);
  });

  it("explains a failure to reach the app in words", async () => {
    mockIPC((cmd) => {
      if (cmd === "installation") throw new Error("IPC channel closed");
    });
    const into = document.createElement("div");
    mountInstaller(into);
    await settle();
    const alert = into.querySelector("[role=alert]")!.textContent!;
    expect(alert).toContain("Could not read Claude Code's settings: IPC channel closed.");
    expect(alert).toContain("throughline doctor");
  });
});
