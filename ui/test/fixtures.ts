import type { SessionMeter, Snapshot } from "../src/ipc";

export function meter(overrides: Partial<SessionMeter> = {}): SessionMeter {
  return {
    session_id: "f839b538-b1ae-45df-beaa-8b044d1f240c",
    host: "Claude Code",
    project: "/home/dev/toy",
    title: "Fix the flaky build in CI",
    model: "claude-opus-4-8",
    used: 52_300,
    window: 200_000,
    usable: 167_000,
    compact_at: 84,
    compacts_by: "client",
    usage: "52k/167k",
    measured: true,
    percent: 31,
    level: "calm",
    turns: 5,
    stops_compaction: true,
    started_at: "2026-11-30T08:40:00.000Z",
    last_activity: "2026-11-30T08:43:56.543Z",
    handoff_until: null,
    ...overrides,
  };
}

export function snapshot(sessions: SessionMeter[], problem: string | null = null, paused = false, first_run = false): Snapshot {
  return { sessions, problem, first_run, paused, plan: null, plan_warn_percent: 80, fresh_instead_of_compact: false };
}

/** Lets pending promise callbacks (mocked IPC answers) run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

// Installer

import type { Change, Check, Installation, Registration, Report } from "../src/ipc";

const BUNDLED = "/usr/lib/Throughline/throughline";
const EVENTS = ["SessionStart", "UserPromptSubmit", "Stop", "PreCompact", "SessionEnd"];

/** Claude Code's user settings with Throughline registered to run `binary`. */
export function registration(binary: string = BUNDLED, overrides: Partial<Registration> = {}): Registration {
  return {
    settings: "/home/dev/.claude/settings.json",
    hooks: EVENTS.map((event) => ({ event, command: `${binary} hook claude`, binary })),
    missing: [],
    slash_command: "/home/dev/.claude/commands/tl.md",
    mcp_server: binary,
    own_statusline: null,
    ...overrides,
  };
}

export const NOT_REGISTERED: Registration = {
  settings: "/home/dev/.claude/settings.json",
  hooks: [],
  missing: EVENTS,
  slash_command: null,
  mcp_server: null,
  own_statusline: null,
};

export function installationOf(reg: Registration | null, overrides: Partial<Installation> = {}): Installation {
  const hooksOk = reg !== null && reg.hooks.length > 0 && reg.missing.length === 0 && reg.hooks.every((h) => h.binary === BUNDLED);
  const checks: Check[] = [
    hooksOk
      ? { name: "hooks", status: "ok", message: `${reg!.hooks.length} hooks in ${reg!.settings} run this binary`, fix: null }
      : { name: "hooks", status: "problem", message: "Throughline is not registered in /home/dev/.claude/settings.json", fix: "Press Install." },
    { name: "database", status: "ok", message: "/home/dev/.local/share/throughline/throughline.db (schema v9, intact, writable)", fix: null },
  ];
  return {
    binary: BUNDLED,
    binary_problem: null,
    registration: reg,
    hooks_elsewhere: reg?.hooks.map((h) => h.binary!).filter((b, i, all) => b !== BUNDLED && all.indexOf(b) === i) ?? [],
    checks,
    healthy: hooksOk,
    person_home: "/home/dev",
    ...overrides,
  };
}

export function report(action: Change["action"], details: string[] = []): Report {
  return {
    host: "claude",
    changes: [
      { path: "/home/dev/.claude/settings.json", action, details, backup: action === "updated" ? "/home/dev/.claude/settings.json.throughline-backup" : null },
      { path: "/home/dev/.claude.json", action: "unchanged", details: [], backup: null },
    ],
  };
}
