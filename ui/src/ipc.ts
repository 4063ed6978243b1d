// The only module that talks to Tauri: views get plain data and callbacks. Its interfaces are
// held against what the commands really send by the app's tests (tests/support/ui_types.rs).
import { invoke } from "@tauri-apps/api/core";
import { listen, type UnlistenFn } from "@tauri-apps/api/event";
import { disable, enable, isEnabled } from "@tauri-apps/plugin-autostart";

/** One live session's gauge, as the library's `gauge` module computes it. */
export interface SessionMeter {
  session_id: string;
  /** The agent the session runs in, as people know it (`Claude Code`, `Codex`, ...). */
  host: string;
  project: string | null;
  /** The session's first prompt, cut to a line: which chat this is. */
  title: string | null;
  model: string | null;
  used: number;
  window: number;
  /** The window up to the auto-compact threshold: where compaction starts. */
  usable: number;
  /** Where the usable window ends, percent of the window; `null`: the whole window counts. */
  compact_at: number | null;
  /** What puts the end there: the person's threshold, the client's own rule, or none known. */
  compacts_by: "threshold" | "client" | "window";
  /** `used/usable` as people say it, e.g. `52k/140k`; `not reported` when not `measured`. */
  usage: string;
  /** False when the host reports no token counts (Cursor, Grok): `percent` and `usage` say nothing. */
  measured: boolean;
  /** Percent of the usable window: 100 is where compaction starts. */
  percent: number;
  /** How close compaction is; the gauge's colour. */
  level: "calm" | "filling" | "full";
  turns: number;
  /** A hook of its host can stop the client's own compaction (Claude Code). */
  stops_compaction: boolean;
  started_at: string | null;
  last_activity: string | null;
  /** Set while this session's memory waits for the next new chat of its project. */
  handoff_until: string | null;
}

/** A handoff waiting for the next new chat of its project. */
export interface Handoff {
  session_id: string;
  project: string;
  created_at: string;
  expires_at: string;
}

/** The live sessions, or a problem in words a person can act on. */
export interface Snapshot {
  sessions: SessionMeter[];
  problem: string | null;
  /** Nothing recorded yet: a first run, not a problem. */
  first_run: boolean;
  /** Capture is paused: hooks store nothing until it resumes. */
  paused: boolean;
  /** The plan limits Claude Code reported last, for subscribers; `null` before any. */
  plan: PlanUsage | null;
  /** Percent of a plan window at which a notification warns (0: never). */
  plan_warn_percent: number;
  /** The client's own compaction is stopped where a hook can; `/clear` goes on instead. */
  fresh_instead_of_compact: boolean;
}

/** One limit window of a subscriber's plan. */
export interface PlanWindow {
  used_percentage: number;
  /** Seconds since the Unix epoch. */
  resets_at: number | null;
}

export interface PlanUsage {
  five_hour: PlanWindow | null;
  seven_day: PlanWindow | null;
}

/** One plan window as it went so far (seconds since the epoch, percents 0–100). */
export interface PlanOutlook {
  name: "5-hour" | "7-day";
  starts_at: number;
  resets_at: number;
  used: number;
  /** Percent an even pace would have used by now. */
  pace: number;
  /** Percent used at each report of this window, oldest first: [seconds, percent]. */
  points: [number, number][];
  /** Percent per hour over the recent past, when use grew. */
  burn_per_hour: number | null;
  /** When the limit is reached at that rate, if before the window resets. */
  full_at: number | null;
}

/** A window that reached its limit, when it was first reported full. */
export interface LimitHit {
  name: "5-hour" | "7-day";
  at: number;
  resets_at: number | null;
}

export interface PlanHistory {
  outlooks: PlanOutlook[];
  limit_hits: LimitHit[];
}

export function planHistory(): Promise<PlanHistory> {
  return invoke<PlanHistory>("plan_history");
}

/** One session's part of the plan's current five-hour window. */
export interface SessionUse {
  session_id: string;
  title: string | null;
  /** What its requests would cost at API prices (millionths of a dollar). */
  weight: number;
}

/** One project's part of the window, its sessions largest first. */
export interface ProjectUse {
  project: string | null;
  /** Percent of everything the window's sessions used. */
  share: number;
  sessions: SessionUse[];
}

export function planWindowUse(): Promise<ProjectUse[]> {
  return invoke<ProjectUse[]>("plan_window_use");
}

/** One memory Throughline handed to a session (a row of the injection log). */
export interface Injection {
  id: number;
  session_id: string;
  project: string | null;
  trigger: "clear" | "handoff" | "compact";
  at: string;
  /** Host session ids of the predecessors, nearest first. */
  chain: string[];
  budget: number;
  size: number;
  verbatim: string[];
  one_liners: string[];
  left_out: number;
  text: string;
}

/** Throughline's settings, as the library keeps them in `config.json`. */
export interface Config {
  budget: number;
  inject_on_clear: boolean;
  inject_on_compact: boolean;
  /** Claude Code's own compaction is stopped; `/clear` goes on from the memory. */
  fresh_instead_of_compact: boolean;
  inject_on_handoff: boolean;
  handoff_minutes: number;
  verbatim_turns: number;
  /** Hooks store nothing new; what sessions say meanwhile is skipped for good. */
  pause_capture: boolean;
  /** Project folders Throughline leaves alone. */
  capture_off: string[];
  /** Percent of a plan window at which the app notifies (0: never). */
  plan_warn_percent: number;
}

/** A project in the store (or a folder with capture off) and whether hooks capture it. */
export interface ProjectCapture {
  project: string;
  sessions: number;
  /** The folder with capture off that holds the project (itself or a folder it is in); `null` while captured. */
  off_by: string | null;
}

/** Claude Code's auto-compact threshold (`env.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`). */
export interface AutoCompact {
  settings: string;
  /** Percent of the context window; `null` when the client's default applies. */
  percent: number | null;
  /** A value in the file the client ignores. */
  ignored: string | null;
  /** `autoCompactWindow`, the window the threshold applies to; without it some clients ignore the threshold. */
  window: unknown;
}

/** The settings in force and where each value comes from. */
export interface Effective {
  config: Config;
  file: string;
  settings: { key: string; value: string; source: "default" | "file" | "env"; env: string }[];
  problems: string[];
}

export const LIVE_SESSIONS_EVENT = "live-sessions";
/** A failure of something asked for outside the window (the tray menu). */
export const PROBLEM_EVENT = "problem";

export function liveSessions(): Promise<Snapshot> {
  return invoke<Snapshot>("live_sessions");
}

export function onLiveSessions(update: (snapshot: Snapshot) => void): Promise<UnlistenFn> {
  return listen<Snapshot>(LIVE_SESSIONS_EVENT, (event) => update(event.payload));
}

/** One-click baton handoff: what `/tl` does in the session. */
export function offerHandoff(sessionId: string): Promise<Handoff> {
  return invoke<Handoff>("offer_handoff", { sessionId });
}

/** Withdraws the handoff waiting in the session's project: what `/tl cancel` does. */
export function cancelHandoff(sessionId: string): Promise<void> {
  return invoke<void>("cancel_handoff", { sessionId });
}

export function injections(): Promise<Injection[]> {
  return invoke<Injection[]>("injections");
}

/** One memory handed on, and the context of the requests around it (tokens). */
export interface HandedOn {
  session_id: string;
  project: string | null;
  trigger: "clear" | "handoff" | "compact";
  at: string;
  injected: number;
  /** The last request before it, when known. */
  before: number | null;
  /** The first request after it, memory included. */
  after: number | null;
  /** Requests after it that stayed below the context before it, and what they did not carry. */
  requests: number;
  saved: number;
}

/** What the memories handed on in the last week cost and saved. */
export interface Savings {
  handed: HandedOn[];
  injected: number;
  saved: number;
}

export function memorySavings(): Promise<Savings> {
  return invoke<Savings>("memory_savings");
}

/** A problem reported from the tray while the window was closed; shown once. */
export function pendingProblem(): Promise<string | null> {
  return invoke<string | null>("pending_problem");
}

export function onProblem(show: (message: string) => void): Promise<UnlistenFn> {
  return listen<string>(PROBLEM_EVENT, (event) => show(event.payload));
}

export function settings(): Promise<Effective> {
  return invoke<Effective>("settings");
}

export function saveSettings(config: Config): Promise<Effective> {
  return invoke<Effective>("save_settings", { config });
}

export function projects(): Promise<ProjectCapture[]> {
  return invoke<ProjectCapture[]>("projects");
}

export function autocompact(): Promise<AutoCompact> {
  return invoke<AutoCompact>("autocompact");
}

/** Writes the threshold into Claude Code's settings; `null` gives it back to the client's default. */
export function setAutocompact(percent: number | null): Promise<AutoCompact> {
  return invoke<AutoCompact>("set_autocompact", { percent });
}

export function launchesAtLogin(): Promise<boolean> {
  return isEnabled();
}

export function setLaunchAtLogin(on: boolean): Promise<void> {
  return on ? enable() : disable();
}

/**
 * An IPC failure in words. The app's own messages already say what to do; only a bare one
 * (from outside the app's commands) gets a pointer to the doctor.
 */
export function describeFailure(what: string, error: unknown): string {
  const detail = (error instanceof Error ? error.message : String(error)).trim().replace(/\.+$/, "");
  const saysWhatToDo = /`throughline |Press |Install|Settings|try again|close that/i.test(detail);
  return saysWhatToDo
    ? `Could not ${what}: ${detail}.`
    : `Could not ${what}: ${detail}. \`throughline doctor\` says what is wrong and how to fix it.`;
}

// Installer: registering Throughline with Claude Code, run with the CLI bundled with the app.

/** One hook in Claude Code's settings that runs Throughline. */
export interface RegisteredHook {
  event: string;
  command: string;
  /** The program the command runs, when it can be read. */
  binary: string | null;
}

/** What Claude Code's user settings hold of Throughline. */
export interface Registration {
  settings: string;
  hooks: RegisteredHook[];
  /** Events Throughline needs that have no Throughline hook. */
  missing: string[];
  slash_command: string | null;
  mcp_server: string | null;
  /** A statusLine of the person's own, which Install keeps or, when they choose, wraps. */
  own_statusline: OwnStatusline | null;
}

/** The person's own statusLine in Claude Code's settings. */
export interface OwnStatusline {
  /** Their command, as they wrote it. */
  command: string;
  /** Whether Throughline's statusline runs around it, recording the plan usage Claude Code
   *  gives only to the statusline; Uninstall puts theirs back. */
  wrapped: boolean;
}

/** One finding of the doctor, with its fix when it is a problem. */
export interface Check {
  name: string;
  status: "ok" | "note" | "problem";
  message: string;
  fix: string | null;
}

export interface Installation {
  /** The bundled CLI the hooks should run. */
  binary: string;
  /** Why the bundled CLI cannot be registered, when it cannot. */
  binary_problem: string | null;
  /** `null` when Claude Code's settings cannot be read (the first check says why). */
  registration: Registration | null;
  /** Programs other than the bundled CLI that registered hooks run. */
  hooks_elsewhere: string[];
  checks: Check[];
  healthy: boolean;
  /** The person's home folder: paths under it are shown as `~/…`. */
  person_home: string | null;
}

/** What an install or uninstall did to one file. */
export interface Change {
  path: string;
  action: "unchanged" | "created" | "updated" | "removed" | "kept";
  details: string[];
  /** The file as it was before, when it was changed. */
  backup: string | null;
}

export interface Report {
  host: string;
  changes: Change[];
}

export function installation(): Promise<Installation> {
  return invoke<Installation>("installation");
}

/** Install and Repair: the same idempotent registration of the bundled CLI; with
 *  `wrapStatusline`, the person's own statusline runs inside Throughline's. */
export function installHooks(wrapStatusline: boolean): Promise<Report> {
  return invoke<Report>("install_hooks", { wrapStatusline });
}

export function uninstallHooks(): Promise<Report> {
  return invoke<Report>("uninstall_hooks");
}

// Memory: every stored session, search, a turn in full, and what a handoff would give.

/** One stored session, as the Memory view lists it. */
export interface StoredSession {
  session_id: string;
  host: string;
  project: string | null;
  /** The first prompt: which chat this was. */
  title: string | null;
  started_at: string | null;
  last_activity: string | null;
  ended_at: string | null;
  turns: number;
}

export interface Message {
  role: "user" | "assistant";
  text: string;
  at: string | null;
}

/** One turn: the prompt and every assistant text, verbatim, with a line of detail. */
export interface Turn {
  code: string;
  session_id: string;
  seq: number;
  started_at: string | null;
  messages: Message[];
  /** L3 at a glance, e.g. `Read ×2, Bash ×3, thinking`. */
  detail_summary: string;
}

/** One L3 entry: a tool call, its output, thinking, a host entry. */
export interface Detail {
  index: number;
  kind: string;
  name: string | null;
  tool_use_id: string | null;
  body: string;
  is_error: boolean;
  at: string | null;
}

/** One thing done in a turn: a tool call with its result, or an entry of its own. */
export interface Step {
  /** What it did: `Read: src/app.rs, lines 10–29`, `Grep: fn main (3 hits)`. */
  title: string;
  tool: number | null;
  item: number;
  /** A call's input as names and values, or (an edit) as a diff. */
  input: string | null;
  /** The input is a diff: `-` starts a removed line, `+` an added one. */
  diff: boolean;
  /** An entry stored as JSON, as names and values. */
  readable: string | null;
  result: number | null;
  failed: boolean;
  unanswered: boolean;
  lines: number;
  chars: number;
}

export interface TurnDetail extends Turn {
  details: Detail[];
  steps: Step[];
}

/** The lines of a stored entry where the words meet, verbatim. */
export interface Excerpt {
  line: number;
  column: number;
  text: string;
  more: boolean;
  matches: [number, number][];
}

/** One search hit, a turn once: where its best entry is (the turn opens it), its lines, and
 * what else of the turn holds the words, said by the library ("and 3 more lines in this turn"). */
export interface Hit {
  turn: string;
  session_id: string;
  project: string | null;
  at: string | null;
  layer: "l2" | "l3";
  role: string;
  tool: string | null;
  excerpts: Excerpt[];
  copies: number;
  more_lines: number;
  more: string | null;
}

export function storedSessions(): Promise<StoredSession[]> {
  return invoke<StoredSession[]>("stored_sessions");
}

export function sessionTurns(sessionId: string): Promise<Turn[]> {
  return invoke<Turn[]>("session_turns", { sessionId });
}

/** One request of a session (or the largest of a run of them) and the context it held. */
export interface ContextPoint {
  turn: string | null;
  at: string | null;
  tokens: number;
}

/** Something that happened to a session's context: the client compacted it, it was handed on,
 *  or the person ran `/clear` and a new session started in its window. */
export interface ContextMark {
  kind: "compact" | "handoff" | "clear";
  at: string;
  /** The first point at or after it (the number of points when it came after the last). */
  before_point: number;
}

/** A session's context over its requests, against where its client compacts it. */
export interface ContextHistory {
  points: ContextPoint[];
  marks: ContextMark[];
  measured: boolean;
  window: number;
  compacts_at: number;
  compacts_by: "threshold" | "client" | "window";
}

export function sessionContext(sessionId: string): Promise<ContextHistory | null> {
  return invoke<ContextHistory | null>("session_context", { sessionId });
}

export function turnDetail(code: string): Promise<TurnDetail> {
  return invoke<TurnDetail>("turn_detail", { code });
}

export function search(query: string, project: string | null = null): Promise<Hit[]> {
  return invoke<Hit[]>("search", { query, project });
}

/** Exactly what the next new chat would receive if the session were handed off now. */
export function handoffPreview(sessionId: string): Promise<string | null> {
  return invoke<string | null>("handoff_preview", { sessionId });
}

/** A turn (by code), a session (by id) or a project (by folder) to forget. */
export type Forget = { kind: "turn" | "session" | "project"; id: string };

/** What forgetting would remove. */
export interface ForgetPreview {
  sessions: number;
  turns: number;
  messages: number;
  details: number;
  text_bytes: number;
  injections: number;
  projects: string[];
  earliest: string | null;
  latest: string | null;
}

export function forgetPreview(what: Forget): Promise<ForgetPreview> {
  return invoke<ForgetPreview>("forget_preview", { what });
}

/** Removes it from the store and the search index, as `throughline forget` does. */
export function forget(what: Forget): Promise<unknown> {
  return invoke<unknown>("forget", { what });
}

/** How far an import of past sessions is. */
export interface ImportProgress {
  transcripts_done: number;
  transcripts: number;
  bytes_done: number;
  bytes: number;
}

export interface Imported {
  transcripts: number;
  left_alone: number;
  bytes_read: number;
  records: number;
  problems: string[];
}

export const IMPORT_PROGRESS_EVENT = "import-progress";

/** Reads every past session on disk into the memory, as `throughline import` does. */
export function importPastSessions(): Promise<Imported> {
  return invoke<Imported>("import_past_sessions");
}

export function onImportProgress(update: (at: ImportProgress) => void): Promise<UnlistenFn> {
  return listen<ImportProgress>(IMPORT_PROGRESS_EVENT, (event) => update(event.payload));
}
