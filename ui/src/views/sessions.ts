// Sessions: a gauge per live session, so a person sees which chat is close to auto-compaction,
// and a one-click handoff of its memory to the next new chat.
import { h, keptRows, svg } from "../dom";
import {
  cancelHandoff,
  describeFailure,
  liveSessions,
  offerHandoff,
  onLiveSessions,
  importPastSessions,
  onImportProgress,
  planHistory,
  planWindowUse,
  type ImportProgress,
  type PlanHistory,
  type PlanOutlook,
  type ProjectUse,
  type PlanUsage,
  type PlanWindow,
  type SessionMeter,
  type Snapshot,
} from "../ipc";
import { countdown, renderPlanHistory } from "./plan-chart";
import { clockTime, dateTime } from "../time";

/** The gauge's ring in its 64-unit box. */
const CENTRE = 32;
const RADIUS = 26;
const RING_WIDTH = 8;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

/** The percent in the ring's middle, sized so that the widest ("100%") keeps a clear space
 * from the ring's inside edge. */
const LABEL_SIZE = 12;

/** A label's width in ems, by character: about what system fonts give a semibold digit and a
 * percent sign. The label's glyphs are fitted to exactly this width, so that a wider font
 * (DejaVu Sans, common on Linux, draws "100%" about a fifth wider than Segoe UI) does not bring
 * it nearer the ring. */
const LABEL_EMS: Record<string, number> = { "%": 0.92, "?": 0.56 };
const DIGIT_EMS = 0.62;

/** A digit's height in ems: the label's middle is the ring's. */
const DIGIT_HEIGHT_EMS = 0.72;

function labelWidth(label: string): number {
  return [...label].reduce((width, char) => width + (LABEL_EMS[char] ?? DIGIT_EMS) * LABEL_SIZE, 0);
}

export interface SessionActions {
  onHandoff(sessionId: string): void;
  onCancelHandoff(sessionId: string): void;
  onImport?(): void;
}

/** `3 of 16 transcripts, 1.2 of 4.0 MB`. */
export function importProgress(at: ImportProgress): string {
  const mb = (bytes: number) => (bytes / 1_000_000).toFixed(1);
  return `Importing past sessions: ${at.transcripts_done} of ${at.transcripts} transcripts, ${mb(at.bytes_done)} of ${mb(at.bytes)} MB`;
}

export function renderGauge(meter: SessionMeter): SVGElement {
  const filled = (Math.min(meter.percent, 100) / 100) * CIRCUMFERENCE;
  const ring = { cx: String(CENTRE), cy: String(CENTRE), r: String(RADIUS), "stroke-width": String(RING_WIDTH) };
  const label = meter.measured ? `${meter.percent}%` : "?";
  const text = svg("text", {
    x: String(CENTRE),
    y: (CENTRE + (DIGIT_HEIGHT_EMS * LABEL_SIZE) / 2).toFixed(2),
    "text-anchor": "middle",
    "font-size": String(LABEL_SIZE),
    textLength: labelWidth(label).toFixed(2),
    lengthAdjust: "spacingAndGlyphs",
  });
  text.textContent = label;
  return svg(
    "svg",
    { class: `gauge ${meter.level}`, viewBox: "0 0 64 64", role: "img", "aria-label": meter.measured ? `${meter.percent}% of the context window used` : "context use not reported" },
    svg("circle", { class: "track", ...ring }),
    svg("circle", {
      class: "fill",
      ...ring,
      "stroke-dasharray": `${filled.toFixed(2)} ${CIRCUMFERENCE.toFixed(2)}`,
      transform: `rotate(-90 ${CENTRE} ${CENTRE})`,
    }),
    text,
  );
}

/** A project by its folder's name, whichever separator its path uses (Windows paths too). */
export function projectName(project: string | null): string {
  return project?.split(/[\\/]/).filter(Boolean).pop() ?? "(unknown project)";
}

/** A session's id as people tell sessions apart: its first 8 characters. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

function button(label: string, action: () => void): HTMLButtonElement {
  const element = h("button", { type: "button" }, label);
  element.addEventListener("click", action);
  return element;
}

function renderHandoff(meter: SessionMeter, actions: SessionActions): HTMLElement {
  if (meter.handoff_until) {
    return h(
      "div",
      { class: "handoff waiting" },
      h("p", {}, `The next new chat in ${projectName(meter.project)} starts with this session's memory (until ${clockTime(meter.handoff_until)}).`),
      button("Cancel handoff", () => actions.onCancelHandoff(meter.session_id)),
    );
  }
  return h("div", { class: "handoff" }, button("Hand off to a new chat", () => actions.onHandoff(meter.session_id)));
}

/** How full the usable window is, and where it ends. */
function usageLine(meter: SessionMeter): string {
  if (!meter.measured) return `${meter.host} does not report how much of the context window is in use`;
  const until =
    meter.compacts_by === "threshold"
      ? `of the ${meter.compact_at}% of the window before auto-compact`
      : meter.compacts_by === "client"
        ? `before ${meter.host} compacts by itself, at about ${meter.compact_at}% of the window (no threshold set)`
        : "of the context window";
  return `${meter.usage} tokens ${until}`;
}

function renderSession(meter: SessionMeter, actions: SessionActions): HTMLElement {
  const gauge = renderGauge(meter);
  const activity = meter.last_activity ?? meter.started_at;
  return h(
    "li",
    { class: "session", "data-session": meter.session_id },
    gauge,
    h(
      "div",
      { class: "facts" },
      h("h2", { title: meter.project ?? "" }, projectName(meter.project)),
      h("p", { class: "title", title: meter.session_id }, meter.title ?? `Session ${shortId(meter.session_id)} (no prompt yet)`),
      h("p", { class: "model" }, `${meter.host} · ${meter.model ?? "unknown model"}${activity ? ` · last active ${dateTime(activity)}` : ""}`),
      h("p", { class: "usage" }, usageLine(meter)),
      h("p", { class: "turns" }, `${meter.turns} ${meter.turns === 1 ? "turn" : "turns"} in memory`),
      renderHandoff(meter, actions),
    ),
  );
}

/** What a first run shows instead of a problem: nothing is wrong, nothing is recorded yet. */
function renderFirstRun(actions: SessionActions, importing: string | null): HTMLElement {
  return h(
    "div",
    { class: "first-run" },
    h("h2", {}, "Nothing recorded yet"),
    h(
      "p",
      {},
      "Throughline records each session of an agent as it runs, once its hooks are installed (the Installer tab installs them in every agent it finds). Sessions from before can be read in from their transcripts: Import past sessions.",
    ),
    importing
      ? h("p", { class: "importing", role: "status" }, importing)
      : actions.onImport
        ? button("Import past sessions", () => actions.onImport!())
        : null,
  );
}


/** A window's colour: red from the percent the person is warned at, amber 20 points before it. */
function planLevel(used: number, warnAt: number): string {
  const full = warnAt > 0 ? warnAt : 90;
  return used >= full ? "full" : used >= full - 20 ? "filling" : "calm";
}

function renderPlanWindow(id: string, name: string, window: PlanWindow, warnAt: number, now: number, outlook?: PlanOutlook): HTMLElement {
  // Claude Code reports the plan with its answers: past the reset, the last figure is the old
  // window's, so it is not shown as if it were the new one's.
  if (window.resets_at !== null && window.resets_at * 1000 <= now) {
    const reset = clockTime(new Date(window.resets_at * 1000));
    return h(
      "div",
      { class: "plan-window stale", "data-window": id, title: `The ${name} window reset at ${reset}; Claude Code reports the new figure with its next answer.` },
      h("span", { class: "name" }, name),
      h("div", { class: "bar", role: "meter", "aria-valuemin": "0", "aria-valuemax": "100", "aria-label": `${name} limit used: not reported since the reset` }),
      h("span", { class: "value" }, `reset at ${reset}`),
    );
  }
  const used = Math.min(100, Math.max(0, window.used_percentage));
  const bar = h("div", { class: `bar ${planLevel(used, warnAt)}`, role: "meter", "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": String(Math.round(used)), "aria-label": `${name} limit used` });
  bar.append(h("span", { style: `width: ${used.toFixed(1)}%` }));
  if (outlook && outlook.resets_at > outlook.starts_at) {
    // Where an even pace through the window stands now, on the bar itself.
    const pace = Math.min(100, Math.max(0, (100 * (now / 1000 - outlook.starts_at)) / (outlook.resets_at - outlook.starts_at)));
    bar.append(h("i", { class: "pace", style: `left: ${pace.toFixed(1)}%`, title: `An even pace would be at ${Math.round(pace)}% by now` }));
  }
  const resets = window.resets_at === null ? "" : ` · resets in ${countdown(window.resets_at, now)}`;
  return h("div", { class: "plan-window", "data-window": id }, h("span", { class: "name" }, name), bar, h("span", { class: "value" }, `${Math.round(used)}%${resets}`));
}

/**
 * The plan's five-hour and seven-day windows, as Claude Code last reported them, and when a
 * notification warns; `history`, once read, puts the pace on the bars.
 */
export function renderPlan(plan: PlanUsage | null, warnAt: number, now: number = Date.now(), history: PlanHistory | null = null): HTMLElement | null {
  if (!plan || (!plan.five_hour && !plan.seven_day)) return null;
  const outlook = (name: PlanOutlook["name"]) => history?.outlooks.find((o) => o.name === name);
  return h(
    "section",
    { class: "plan" },
    h("h2", {}, "Plan usage"),
    plan.five_hour ? renderPlanWindow("five_hour", "5-hour", plan.five_hour, warnAt, now, outlook("5-hour")) : null,
    plan.seven_day ? renderPlanWindow("seven_day", "7-day", plan.seven_day, warnAt, now, outlook("7-day")) : null,
    h(
      "p",
      { class: "hint plan-warning" },
      warnAt > 0 ? `A notification warns when a window reaches ${warnAt}% (Settings).` : "No notification as the limits fill (Settings).",
    ),
  );
}

/** Each plan window over time, and who used the current five-hour window: below the sessions. */
export function renderPlanDetails(history: PlanHistory | null, used: ProjectUse[], now: number = Date.now()): HTMLElement | null {
  if (!history && used.length === 0) return null;
  return h("section", { class: "plan plan-details" }, history ? renderPlanHistory(history, now) : null, renderWindowUse(used));
}

/** Which projects used the current five-hour window, and their sessions on hover. */
export function renderWindowUse(used: ProjectUse[]): HTMLElement | null {
  if (used.length === 0) return null;
  const shown = used.slice(0, 5);
  const rest = used.length - shown.length;
  return h(
    "div",
    { class: "window-use" },
    h("p", { class: "hint" }, "This 5-hour window went to (tokens weighted as each model prices them):"),
    h(
      "ul",
      {},
      ...shown.map((p) => {
        const sessions = p.sessions.length === 1 ? "1 session" : `${p.sessions.length} sessions`;
        const total = p.sessions.reduce((sum, s) => sum + s.weight, 0);
        const titles = p.sessions.map((s) => `${Math.round((100 * s.weight) / total)}% ${s.title ?? shortId(s.session_id)}`);
        return h(
          "li",
          { title: `${p.project ?? ""}\n${titles.join("\n")}` },
          h("span", { class: "name" }, projectName(p.project)),
          h("span", { class: "share" }, `${Math.round(p.share)}%`),
          h("span", { class: "sessions" }, sessions),
        );
      }),
      rest > 0 ? h("li", { class: "more" }, `and ${rest} more ${rest === 1 ? "project" : "projects"}`) : null,
    ),
  );
}

/** `rows` draws the cards; by default each is drawn afresh. */
export function renderSessions(
  snapshot: Snapshot,
  actions: SessionActions,
  rows: (meters: SessionMeter[]) => HTMLElement[] = (meters) => meters.map((m) => renderSession(m, actions)),
  importing: string | null = null,
  history: PlanHistory | null = null,
  used: ProjectUse[] = [],
): HTMLElement {
  const problem = snapshot.problem ? h("p", { class: "problem", role: "alert" }, snapshot.problem) : null;
  const paused = snapshot.paused
    ? h("p", { class: "paused", role: "status" }, "Capture is paused: what sessions say now is not stored. Resume it from the tray menu or in Settings.")
    : null;
  // The bars at the top, a glance; the plan's charts after the sessions, which come first.
  const now = Date.now();
  const plan = renderPlan(snapshot.plan ?? null, snapshot.plan_warn_percent ?? 0, now, history);
  const details = snapshot.plan ? renderPlanDetails(history, used, now) : null;
  if (snapshot.sessions.length === 0) {
    return h(
      "section",
      { class: "sessions" },
      paused,
      plan,
      problem ??
        (snapshot.first_run || importing
          ? renderFirstRun(actions, importing)
          : h(
              "p",
              { class: "empty" },
              "No live sessions. A session shows here from its start until it ends, or until it has been quiet for 30 minutes (an agent that crashed never says it ended). Every stored session is in the Memory tab.",
            )),
      details,
    );
  }
  return h("section", { class: "sessions" }, paused, problem, plan, h("ul", {}, ...rows(snapshot.sessions)), details);
}

/** Shows the live sessions in `into` and keeps them current; returns the clean-up. */
export function mountSessions(into: HTMLElement): () => void {
  let shown: Snapshot = {
    sessions: [],
    problem: null,
    first_run: false,
    paused: false,
    plan: null,
    plan_warn_percent: 0,
    fresh_instead_of_compact: false,
  };
  let importing: string | null = null;
  // The plan's history, and who used its window, are read again only when the client
  // reported something new.
  let history: PlanHistory | null = null;
  let used: ProjectUse[] = [];
  let historyOf = "null";
  const draw = () => into.replaceChildren(renderSessions(shown, actions, cards, importing, history, used));
  const show = (snapshot: Snapshot) => {
    shown = snapshot;
    draw();
    const plan = JSON.stringify(snapshot.plan ?? null);
    if (plan !== historyOf && snapshot.plan) {
      historyOf = plan;
      Promise.all([planHistory(), planWindowUse().catch(() => [])])
        .then(([read, window]) => {
          history = read;
          used = window;
          draw();
        })
        .catch(() => (history = null));
    }
  };
  const refresh = () =>
    liveSessions()
      .then(show)
      .catch((error) => show({ ...shown, problem: describeFailure("read the live sessions", error) }));
  const act = (what: string, call: Promise<unknown>) =>
    call.then(refresh).catch((error) => show({ ...shown, problem: describeFailure(what, error) }));
  const actions: SessionActions = {
    onHandoff: (id) => act("hand off the session", offerHandoff(id)),
    onCancelHandoff: (id) => act("cancel the handoff", cancelHandoff(id)),
    onImport: () => {
      importing = "Importing past sessions…";
      show(shown);
      const progress = onImportProgress((at) => {
        importing = importProgress(at);
        show(shown);
      });
      importPastSessions()
        .then(() => (importing = null))
        .catch((error) => {
          importing = null;
          shown = { ...shown, problem: describeFailure("import past sessions", error) };
        })
        .finally(() => {
          void progress.then((stop) => stop());
          refresh();
        });
    },
  };
  const cards = keptRows((m: SessionMeter) => m.session_id, (m) => renderSession(m, actions));
  into.replaceChildren(h("p", { class: "loading" }, "Reading the memory store…"));
  refresh();
  const unlisten = onLiveSessions(show);
  // Countdowns and the pace move with the clock, not only when a session reports.
  const ticking = setInterval(draw, CLOCK_REDRAW_MS);
  return () => {
    clearInterval(ticking);
    void unlisten.then((stop) => stop());
  };
}

/** How often an open view redraws for the clock alone: countdowns show minutes. */
export const CLOCK_REDRAW_MS = 30_000;
