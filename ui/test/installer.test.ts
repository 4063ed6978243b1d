import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, describe, expect, it } from "vitest";
import type { Installation } from "../src/ipc";
import { mountInstaller, renderInstaller, type InstallerActions, type InstallerState } from "../src/views/installer";
import { homeRelative } from "../src/paths";
import { installationOf, NOT_REGISTERED, registration, report, settle } from "./fixtures";

afterEach(() => {
  clearMocks();
  document.body.replaceChildren();
});

const noActions: InstallerActions = { onInstall: () => {}, onChooseWrap: () => {}, onUninstall: () => {}, onConfirmUninstall: () => {} };

function state(installation: Installation | null, patch: Partial<InstallerState> = {}): InstallerState {
  return { installation, done: null, confirmingUninstall: false, wrapStatusline: false, busy: false, problem: null, ...patch };
}

/** What the person runs as their statusline: long enough to be shortened in a sentence. */
const THEIRS = "bash -c 'input=$(cat); echo \"$(jq -r .model.display_name <<<\"$input\") in $(basename \"$PWD\")\"'";

function own(wrapped: boolean) {
  return { own_statusline: { command: THEIRS, wrapped } };
}

/** The actions, recording each Install-like press with its wrap choice. */
function recording(): { actions: InstallerActions; installs: [string, boolean][]; choices: boolean[] } {
  const installs: [string, boolean][] = [];
  const choices: boolean[] = [];
  const actions = { ...noActions, onInstall: (what: string, wrap: boolean) => installs.push([what, wrap]), onChooseWrap: (wrap: boolean) => choices.push(wrap) };
  return { actions, installs, choices };
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
      "Registered: 5 hooks in ~/.claude/settings.json run the bundled CLI.",
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
    expect(changes[0].textContent).toContain("updated ~/.claude/settings.json");
    expect(changes[0].textContent).toContain("added hooks: Stop, SessionEnd");
    expect(changes[0].textContent).toContain("previous version: ~/.claude/settings.json.throughline-backup");
  });

  it("names the person's own statusline, shortened, and offers to wrap it with Install", () => {
    const { actions, installs, choices } = recording();
    // Attached, as a tick's change event needs.
    const view = document.body.appendChild(renderInstaller(state(installationOf({ ...NOT_REGISTERED, ...own(false) })), actions));
    const said = view.querySelector(".statusline.own")!;
    expect(said.textContent).toContain("Claude Code gives the plan usage (5-hour and 7-day limits) only to the statusline");
    const command = said.querySelector("code")!;
    expect(command.textContent).toBe(`${THEIRS.slice(0, 59)}…`);
    expect(command.getAttribute("title")).toBe(THEIRS);
    // Theirs is kept unless the person ticks the choice.
    const choice = view.querySelector<HTMLInputElement>("#wrap-statusline")!;
    expect(choice.checked).toBe(false);
    expect(view.querySelector("label[for=wrap-statusline]")!.textContent).toContain("so the plan usage appears");
    click(view, "Install");
    choice.click();
    expect(choices).toEqual([true]);
    click(renderInstaller(state(installationOf({ ...NOT_REGISTERED, ...own(false) }), { wrapStatusline: true }), actions), "Install");
    expect(installs).toEqual([
      ["Install", false],
      ["Install", true],
    ]);
  });

  it("offers to wrap the statusline on its own once the rest is registered; Repair keeps it as it is", () => {
    const { actions, installs } = recording();
    const installed = installationOf(registration("/old/bin/throughline", own(false)));
    const view = renderInstaller(state(installed), actions);
    expect(view.querySelector("#wrap-statusline")).toBeNull();
    expect(buttons(view)).toEqual({ "Wrap my statusline": true, Install: false, Repair: true, Uninstall: true });
    click(view, "Wrap my statusline");
    click(view, "Repair");
    expect(installs).toEqual([
      ["Wrap my statusline", true],
      ["Repair", false],
    ]);
    expect(buttons(renderInstaller(state(installed, { busy: true }), actions))["Wrap my statusline"]).toBe(false);
  });

  it("shows a wrapped statusline as wrapped, and that Uninstall puts theirs back", () => {
    const view = renderInstaller(state(installationOf(registration(undefined, own(true)))), noActions);
    const said = view.querySelector(".statusline.wrapped")!.textContent!;
    expect(said).toContain("runs inside Throughline's: it shows as before, and the plan usage is recorded.");
    expect(said).toContain("Uninstall puts yours back as it was.");
    expect(view.querySelector(".statusline.own")).toBeNull();
    expect(buttons(view)).toEqual({ Install: false, Repair: false, Uninstall: true });
    const confirming = renderInstaller(state(installationOf(registration(undefined, own(true))), { confirmingUninstall: true }), noActions);
    expect(confirming.querySelector("[role=alertdialog]")!.textContent).toContain("Your own statusline goes back as it was.");
  });

  it("says nothing of a statusline when the person has none of their own", () => {
    const view = renderInstaller(state(installationOf(registration())), noActions);
    expect(view.querySelector(".statusline")).toBeNull();
    const confirming = renderInstaller(state(installationOf(registration()), { confirmingUninstall: true }), noActions);
    expect(confirming.querySelector("[role=alertdialog]")!.textContent).not.toContain("Your own statusline");
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
    mockIPC((cmd, args) => {
      calls.push(cmd);
      if (cmd === "installation") return current;
      if (cmd === "install_hooks") {
        expect(args).toEqual({ wrapStatusline: false });
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
    expect(into.querySelector(".report")!.textContent).toContain("created ~/.claude/settings.json");
    expect(buttons(into)).toEqual({ Install: false, Repair: false, Uninstall: true });
  });

  it("wraps the person's statusline when they tick it, and shows it wrapped afterwards", async () => {
    let current = installationOf({ ...NOT_REGISTERED, ...own(false) });
    const installs: unknown[] = [];
    mockIPC((cmd, args) => {
      if (cmd === "installation") return current;
      if (cmd === "install_hooks") {
        installs.push(args);
        current = installationOf(registration(undefined, own(true)));
        return report("updated", ["wrapped your own statusLine: it shows as before, and the plan usage Claude Code gives it is recorded"]);
      }
    });
    const into = document.body.appendChild(document.createElement("div"));
    mountInstaller(into);
    await settle();
    const choice = into.querySelector<HTMLInputElement>("#wrap-statusline")!;
    choice.focus();
    choice.click();
    // The redrawn view keeps the tick, and the keyboard on the box.
    const redrawn = into.querySelector<HTMLInputElement>("#wrap-statusline")!;
    expect(redrawn.checked).toBe(true);
    expect(document.activeElement).toBe(redrawn);
    click(into, "Install");
    await settle();
    expect(installs).toEqual([{ wrapStatusline: true }]);
    expect(into.querySelector(".statusline.wrapped")!.textContent).toContain("Uninstall puts yours back as it was.");
    expect(into.querySelector(".report")!.textContent).toContain("wrapped your own statusLine");
  });

  it("wraps the statusline of a registered setup with its own button", async () => {
    let current = installationOf(registration(undefined, own(false)));
    const installs: unknown[] = [];
    mockIPC((cmd, args) => {
      if (cmd === "installation") return current;
      if (cmd === "install_hooks") {
        installs.push(args);
        current = installationOf(registration(undefined, own(true)));
        return report("updated", ["wrapped your own statusLine"]);
      }
    });
    const into = document.createElement("div");
    mountInstaller(into);
    await settle();
    click(into, "Wrap my statusline");
    await settle();
    expect(installs).toEqual([{ wrapStatusline: true }]);
    expect(into.querySelector(".report p")!.textContent).toBe("Wrap my statusline changed:");
    expect(into.querySelector(".statusline.wrapped")).not.toBeNull();
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

describe("homeRelative", () => {
  it("writes paths under the home folder from ~, and nothing else", () => {
    const home = "/home/dev";
    expect(homeRelative("hooks in /home/dev/.claude/settings.json run /usr/bin/throughline", home)).toBe(
      "hooks in ~/.claude/settings.json run /usr/bin/throughline",
    );
    expect(homeRelative("(/home/dev) and /home/dev.", home)).toBe("(~) and ~.");
    // Another person's folder that only starts the same, and a path that merely contains it.
    expect(homeRelative("/home/developer/x /srv/home/dev/x", home)).toBe("/home/developer/x /srv/home/dev/x");
    expect(homeRelative("Fix: rm /home/dev/.claude/x", "/home/dev/")).toBe("Fix: rm ~/.claude/x");
    // In quotes a shell would not expand ~: a command to copy keeps the whole path.
    expect(homeRelative("Fix: rm '/home/dev/.claude/x'", home)).toBe("Fix: rm '/home/dev/.claude/x'");
    expect(homeRelative("/home/dev/x", null)).toBe("/home/dev/x");
  });
});
