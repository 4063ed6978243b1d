import type { SessionMeter, Snapshot } from "../src/ipc";

export function meter(overrides: Partial<SessionMeter> = {}): SessionMeter {
  return {
    session_id: "f839b538-b1ae-45df-beaa-8b044d1f240c",
    project: "/home/dev/toy",
    model: "claude-opus-4-8",
    used: 52_300,
    window: 200_000,
    usage: "52k/200k",
    percent: 26,
    level: "calm",
    turns: 5,
    last_activity: "2026-11-30T08:43:56.543Z",
    handoff_until: null,
    ...overrides,
  };
}

export function snapshot(sessions: SessionMeter[], problem: string | null = null, paused = false): Snapshot {
  return { sessions, problem, paused };
}

/** Lets pending promise callbacks (mocked IPC answers) run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}
