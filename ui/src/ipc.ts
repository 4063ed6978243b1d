// The only module that talks to Tauri: views get plain data and callbacks.
import { invoke } from "@tauri-apps/api/core";
import { listen, type UnlistenFn } from "@tauri-apps/api/event";
import { disable, enable, isEnabled } from "@tauri-apps/plugin-autostart";

/** One live session, as the app's `meter` module reports it. */
export interface SessionMeter {
  session_id: string;
  project: string | null;
  model: string | null;
  used: number;
  window: number;
  /** `used/window` as people say it, e.g. `52k/200k`. */
  usage: string;
  percent: number;
  /** How close auto-compaction is; the gauge's colour. */
  level: "calm" | "filling" | "full";
  turns: number;
  last_activity: string | null;
}

/** The live sessions, or a problem in words a person can act on. */
export interface Snapshot {
  sessions: SessionMeter[];
  problem: string | null;
}

export const LIVE_SESSIONS_EVENT = "live-sessions";

export function liveSessions(): Promise<Snapshot> {
  return invoke<Snapshot>("live_sessions");
}

export function onLiveSessions(update: (snapshot: Snapshot) => void): Promise<UnlistenFn> {
  return listen<Snapshot>(LIVE_SESSIONS_EVENT, (event) => update(event.payload));
}

export function launchesAtLogin(): Promise<boolean> {
  return isEnabled();
}

export function setLaunchAtLogin(on: boolean): Promise<void> {
  return on ? enable() : disable();
}

/** An IPC failure in words: what happened and what to try. */
export function describeFailure(what: string, error: unknown): string {
  const detail = error instanceof Error ? error.message : String(error);
  return `Could not ${what}: ${detail}. Restart Throughline; if it keeps happening, \`throughline status\` lists recent problems.`;
}
