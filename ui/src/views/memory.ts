// Memory: every stored session by project, the library's search (a hit opens its turn), a turn
// in full, and, before a handoff, exactly what the next chat will receive.
import { h } from "../dom";
import { markdown } from "../markdown";
import {
  describeFailure,
  forget,
  forgetPreview,
  handoffPreview,
  offerHandoff,
  onLiveSessions,
  search,
  sessionContext,
  sessionTurns,
  storedSessions,
  turnDetail,
  type Forget,
  type ContextHistory,
  type ForgetPreview,
  type Hit,
  type Step,
  type StoredSession,
  type Turn,
  type TurnDetail,
} from "../ipc";
import { renderContextChart } from "./context-chart";
import { projectName, shortId } from "./sessions";
import { dateTime } from "../time";

/** What is open beside the list: one thing at a time. */
export type Opened =
  | { kind: "turns"; session: StoredSession; turns: Turn[]; context: ContextHistory | null }
  | { kind: "turn"; detail: TurnDetail }
  | { kind: "preview"; session: StoredSession; text: string | null }
  | { kind: "forget"; what: Forget; label: string; preview: ForgetPreview }
  | null;

export interface MemoryState {
  sessions: StoredSession[] | null;
  query: string;
  /** `null`: no search made yet. */
  hits: Hit[] | null;
  /** A search is under way: the first one after an import indexes the backlog first. */
  searching: boolean;
  opened: Opened;
  /** Projects whose group of sessions the person folded: they stay folded when a live update
   * redraws the list. */
  folded: ReadonlySet<string>;
  /** The session whose row is the list's one tab stop, where the arrow keys or a press left it;
   * `null`: the open session's row, else the first. */
  tabStop: string | null;
  /** What the last action did, in words. */
  notice: string | null;
  problem: string | null;
}

export interface MemoryActions {
  onSearch(query: string): void;
  /** The words typed so far: kept when a live update redraws the view, not searched yet. */
  onType(query: string): void;
  /** A project's group was folded or unfolded: kept for the next redraw, none needed now. */
  onFold(project: string, folded: boolean): void;
  /** The keyboard moved to a session's row, or it was pressed: kept for the next redraw. */
  onTabStop(sessionId: string): void;
  onTurns(session: StoredSession): void;
  onTurn(code: string): void;
  onPreview(session: StoredSession): void;
  onHandoff(session: StoredSession): void;
  /** Asks first: shows what would go. */
  onForget(what: Forget, label: string): void;
  onConfirmForget(what: Forget, label: string): void;
  onKeep(): void;
}

function button(label: string, attrs: Record<string, string>, action: () => void): HTMLButtonElement {
  const element = h("button", { type: "button", ...attrs }, label);
  element.addEventListener("click", action);
  return element;
}

function firstLine(text: string, max = 120): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** The whole of a prompt for a hover: its own lines, without the blank runs around and inside. */
function wholePrompt(text: string): string {
  return text
    .trim()
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n");
}

function span(session: StoredSession): string {
  const from = session.started_at ? dateTime(session.started_at) : "?";
  const to = session.last_activity ?? session.ended_at;
  return to && to !== session.started_at ? `${from} – ${dateTime(to)}` : from;
}

/** What a session's row and its pane call it when asking before it is forgotten. */
function sessionLabel(session: StoredSession): string {
  return session.title ? `the session "${firstLine(session.title, 60)}"` : `session ${shortId(session.session_id)}`;
}

function sessionTitle(session: StoredSession): string {
  return session.title ? firstLine(session.title) : `Session ${shortId(session.session_id)}`;
}

/** The whole first prompt for a hover: a line shows only its start. */
function wholeTitle(session: StoredSession): string {
  return session.title ? wholePrompt(session.title) : session.session_id;
}

function facts(session: StoredSession, when: string): string {
  return `${when} · ${session.turns} ${session.turns === 1 ? "turn" : "turns"} · ${session.host}`;
}

/** The session whose things are open beside the list, if any: its row is the selected one. */
function selectedSession(state: MemoryState): StoredSession | null {
  const opened = state.opened;
  const find = (id: string) => state.sessions?.find((s) => s.session_id === id) ?? null;
  switch (opened?.kind) {
    case "turns":
    case "preview":
      return opened.session;
    case "turn":
      return find(opened.detail.session_id);
    case "forget":
      return opened.what.kind === "session" ? find(opened.what.id) : null;
    default:
      return null;
  }
}

/**
 * A session as one line of the list and one of facts: an option of its project's listbox. A
 * press, Enter or Space opens its turns beside the list; what else can be done with it is in
 * that pane's header. A session that stored no turn has nothing to open: it stays a quiet line,
 * an option the keyboard passes over.
 */
function renderStored(session: StoredSession, selected: boolean, actions: MemoryActions): HTMLElement {
  const last = session.last_activity ?? session.ended_at ?? session.started_at;
  const content = [
    h("span", { class: "title", title: wholeTitle(session) }, session.title ? sessionTitle(session) : `${sessionTitle(session)} (no prompt)`),
    h("span", { class: "facts", title: facts(session, span(session)) }, facts(session, last ? dateTime(last) : "?")),
  ];
  const quiet = session.turns === 0;
  const row = h("li", { class: quiet ? "stored no-turns" : "stored", "data-session": session.session_id, role: quiet ? "option" : "none", ...(quiet ? { "aria-disabled": "true" } : {}) });
  if (quiet) row.append(...content);
  else {
    const option = h("div", { class: "open-session", role: "option", tabindex: "-1", "aria-selected": "false", ...(selected ? { "aria-current": "true" } : {}) }, ...content);
    option.addEventListener("click", () => {
      actions.onTabStop(session.session_id);
      actions.onTurns(session);
    });
    row.append(option);
  }
  return row;
}

/** The rows the keyboard moves between, in order: those of sessions with turns, in groups not
 * folded. */
function reachableRows(list: HTMLElement): HTMLElement[] {
  return [...list.querySelectorAll<HTMLElement>(".project[open] [role=option]:not([aria-disabled=true])")];
}

function sessionOf(row: HTMLElement): string | undefined {
  return row.closest<HTMLElement>("li.stored")?.dataset.session;
}

/** Makes `row` the list's one tab stop and its selected option. */
function rove(list: HTMLElement, row: HTMLElement): void {
  for (const other of list.querySelectorAll<HTMLElement>("[role=option][tabindex]")) {
    other.tabIndex = -1;
    other.setAttribute("aria-selected", "false");
  }
  row.tabIndex = 0;
  row.setAttribute("aria-selected", "true");
}

/** Gives the list its tab stop: the row of the first of `sessions` the keyboard can reach, else
 * the first row it can. Tab then enters the list once, wherever it was left. */
function placeTabStop(list: HTMLElement, sessions: (string | null | undefined)[]): void {
  const rows = reachableRows(list);
  const row = sessions.map((id) => rows.find((r) => sessionOf(r) === id)).find((r) => r !== undefined) ?? rows[0];
  if (row) rove(list, row);
}

/** Up and Down move to the row before or after (across projects), Home and End to the first and
 * last; Enter and Space open the row's session. Keys elsewhere in the list are left alone. */
function onListKey(list: HTMLElement, event: KeyboardEvent, actions: MemoryActions): void {
  const row = event.target instanceof HTMLElement ? event.target.closest<HTMLElement>("[role=option]") : null;
  if (!row) return;
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    row.click();
    return;
  }
  const rows = reachableRows(list);
  const at = rows.indexOf(row);
  const moves: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: rows.length - 1 };
  if (!(event.key in moves)) return;
  event.preventDefault();
  const to = rows[Math.min(Math.max(moves[event.key], 0), rows.length - 1)];
  rove(list, to);
  to.focus();
  const session = sessionOf(to);
  if (session !== undefined) actions.onTabStop(session);
}

/** Sessions grouped by project, the most recently active project first: a listbox each, one list
 * for the keyboard. */
function renderProjects(sessions: StoredSession[], selected: StoredSession | null, state: Pick<MemoryState, "folded" | "tabStop">, actions: MemoryActions): HTMLElement {
  const groups = new Map<string, StoredSession[]>();
  for (const session of sessions) {
    const key = session.project ?? "";
    groups.set(key, [...(groups.get(key) ?? []), session]);
  }
  const list = h("div", { class: "projects" });
  list.append(
    ...[...groups].map(([project, members]) => {
      const group = h(
        "details",
        { class: "project", "data-project": project, ...(state.folded.has(project) ? {} : { open: "" }) },
        h("summary", { title: project }, h("strong", {}, projectName(project || null)), ` · ${members.length} ${members.length === 1 ? "session" : "sessions"}`),
        project ? button("Forget project…", { class: "forget-project" }, () => actions.onForget({ kind: "project", id: project }, `every session of ${project}`)) : null,
        h("ul", { role: "listbox", "aria-label": `Sessions of ${projectName(project || null)}` }, ...members.map((s) => renderStored(s, s.session_id === selected?.session_id, actions))),
      );
      group.addEventListener("toggle", () => {
        actions.onFold(project, !group.open);
        // A folded row cannot be the tab stop: the list would have none.
        const stop = list.querySelector<HTMLElement>("[role=option][tabindex='0']");
        placeTabStop(list, [stop ? sessionOf(stop) : null, selected?.session_id]);
      });
      return group;
    }),
  );
  list.addEventListener("keydown", (event) => onListKey(list, event, actions));
  placeTabStop(list, [state.tabStop, selected?.session_id]);
  return list;
}

/** A hit's lines, with the matches marked. */
function renderExcerpt(text: string, matches: [number, number][]): HTMLElement {
  const line = h("code", {});
  const chars = [...text];
  let at = 0;
  for (const [start, end] of matches) {
    line.append(chars.slice(at, start).join(""), h("mark", {}, chars.slice(start, end).join("")));
    at = end;
  }
  line.append(chars.slice(at).join(""));
  return line;
}

function renderHit(hit: Hit, opened: boolean, actions: MemoryActions): HTMLElement {
  const where = [projectName(hit.project), hit.at ? dateTime(hit.at) : null, hit.tool ?? hit.role].filter(Boolean).join(" · ");
  return h(
    "li",
    { class: "hit", "data-turn": hit.turn, ...(opened ? { "aria-current": "true" } : {}) },
    h("p", { class: "facts" }, where),
    ...hit.excerpts.map((e) => renderExcerpt(e.text, e.matches)),
    hit.more === null ? null : h("p", { class: "more" }, hit.more),
    button("Open turn", { class: "open-turn" }, () => actions.onTurn(hit.turn)),
  );
}

function renderSearch(state: MemoryState, actions: MemoryActions): HTMLElement {
  const input = h("input", { type: "search", id: "memory-search", placeholder: "Words from any prompt, answer, tool call or output" });
  input.value = state.query;
  input.addEventListener("input", () => actions.onType(input.value));
  // One search at a time; the button says that one runs.
  const submit = h("button", { type: "submit" }, state.searching ? "Searching…" : "Search");
  submit.disabled = state.searching;
  const form = h("form", { class: "search", "aria-busy": String(state.searching) }, input, submit);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    actions.onSearch(input.value);
  });
  return form;
}

/** A search's hits, at the top of the list: each opens its turn beside it, as a session does. */
function renderResults(state: MemoryState, actions: MemoryActions): HTMLElement | null {
  const hits = state.hits;
  if (hits === null) return null;
  const openTurn = state.opened?.kind === "turn" ? state.opened.detail.code : null;
  return h(
    "section",
    { class: "results" },
    h(
      "p",
      { class: hits.length === 0 ? "results-head empty" : "results-head" },
      hits.length === 0 ? `Nothing stored matches ${JSON.stringify(state.query)}. ` : `Found for ${JSON.stringify(state.query)}: `,
      button("Clear", { class: "clear-search" }, () => actions.onSearch("")),
    ),
    hits.length === 0 ? null : h("ul", { class: "hits" }, ...hits.map((hit) => renderHit(hit, hit.turn === openTurn, actions))),
  );
}

function renderTurn(detail: TurnDetail, actions: MemoryActions): HTMLElement {
  return h(
    "div",
    { class: "turn", "data-turn": detail.code },
    h("h3", {}, `Turn ${detail.code}${detail.started_at ? ` · ${dateTime(detail.started_at)}` : ""}`),
    button("Forget this turn…", { class: "forget" }, () => actions.onForget({ kind: "turn", id: detail.code }, `turn ${detail.code}`)),
    // The person's words as typed; the agent's answer as the markdown it wrote.
    ...detail.messages.map((m) =>
      h(
        "div",
        { class: `message ${m.role}` },
        h("strong", {}, m.role === "user" ? "Person" : "Agent"),
        m.role === "user" ? h("pre", {}, m.text) : markdown(m.text),
      ),
    ),
    detail.steps.length === 0
      ? h("p", { class: "empty" }, "No tool calls, output or thinking in this turn.")
      : h("ol", { class: "details" }, ...clientRuns(detail).map((run) => (run.length >= CLIENT_RUN ? renderClientRun(run, detail) : renderStep(run[0], detail)))),
  );
}

/** Entries the client writes for itself (its context, notes, meta lines), not the agent's work:
 * the kinds `DetailKind::is_clients_own` names in the library. */
const CLIENT_KINDS = ["attachment", "system", "meta"];

/** This many of them in a row fold into one row: a client writes a dozen at a turn's start. */
const CLIENT_RUN = 3;

/** How many of a folded run's names its row gives. */
const CLIENT_RUN_NAMES = 3;

/** The turn's steps, each alone, except runs of the client's own entries, kept together. */
function clientRuns(detail: TurnDetail): Step[][] {
  const own = (step: Step) => step.tool === null && CLIENT_KINDS.includes(detail.details.find((d) => d.index === step.item)?.kind ?? "");
  const runs: Step[][] = [];
  for (const step of detail.steps) {
    const last = runs[runs.length - 1];
    if (last && own(step) && own(last[0])) last.push(step);
    else runs.push([step]);
  }
  return runs.flatMap((run) => (run.length >= CLIENT_RUN ? [run] : run.map((step) => [step])));
}

/** A run of the client's own entries as one row naming them, each inside as usual. */
function renderClientRun(run: Step[], detail: TurnDetail): HTMLElement {
  // What they are, by their first few names: a client repeats some at every request.
  const kinds = [...new Set(run.map((step) => step.title.replace(/^[^:]*: /, "")))];
  const more = kinds.length - CLIENT_RUN_NAMES;
  const names = kinds.slice(0, CLIENT_RUN_NAMES).join(", ") + (more > 0 ? ` and ${more} more` : "");
  return h(
    "li",
    { class: "detail entry client-run" },
    h(
      "details",
      {},
      h("summary", {}, h("span", { class: "step-title" }, `Client context: ${names}`), h("span", { class: "facts" }, ` · ${run.length} entries`)),
      h("ol", { class: "details" }, ...run.map((step) => renderStep(step, detail))),
    ),
  );
}

/** An edit's diff, its removed and added lines marked. */
function renderDiff(diff: string): HTMLElement {
  const kinds: Record<string, string> = { "-": "del", "+": "ins", "@": "hunk" };
  const lines = (diff.endsWith("\n") ? diff.slice(0, -1) : diff).split("\n");
  return h("pre", { class: "input diff" }, ...lines.map((line) => h("span", { class: kinds[line[0]] ?? "same" }, `${line}\n`)));
}

/** A tool call with its output below it, or an entry of its own; each opens on a click. */
function renderStep(step: Step, detail: TurnDetail): HTMLElement {
  const entry = (n: number | null) => detail.details.find((d) => d.index === n) ?? null;
  const output = step.tool === null ? entry(step.item) : entry(step.result);
  // An entry the client stored as JSON reads as names and values, as `detail` shows it.
  const text = step.readable ?? output?.body;
  const size = step.lines === 0 ? "empty" : step.lines === 1 ? "1 line" : `${step.lines} lines`;
  const outcome = step.unanswered ? "no output recorded" : step.failed ? `failed · ${size}` : size;
  return h(
    "li",
    { class: `detail ${step.tool === null ? "entry" : "tool"}${step.failed ? " error" : ""}` },
    h(
      "details",
      {},
      h("summary", {}, h("span", { class: "step-title" }, step.title), h("span", { class: "facts" }, ` · ${outcome}`)),
      step.input ? (step.diff ? renderDiff(step.input) : h("pre", { class: "input" }, step.input)) : null,
      text ? h("pre", { class: "output" }, text) : null,
    ),
  );
}

/** The selected session above what is open of it, with what else can be done with it. */
function renderPaneHeader(session: StoredSession, showing: Opened, actions: MemoryActions): HTMLElement {
  const shows = (kind: "turns" | "preview") => String(showing?.kind === kind);
  return h(
    "header",
    { class: "pane-header", "data-session": session.session_id },
    h("div", { class: "heading" }, h("h2", { title: wholeTitle(session) }, sessionTitle(session)), h("p", { class: "facts" }, `${facts(session, span(session))} · ${projectName(session.project)}`)),
    h(
      "div",
      { class: "buttons" },
      button("Turns", { class: "turns", "aria-pressed": shows("turns") }, () => actions.onTurns(session)),
      button("Preview handoff", { class: "preview", "aria-pressed": shows("preview") }, () => actions.onPreview(session)),
      button("Forget…", { class: "forget" }, () => actions.onForget({ kind: "session", id: session.session_id }, sessionLabel(session))),
    ),
  );
}

/** The pane beside the list: the selected session's header over what is open. */
function renderPane(state: MemoryState, selected: StoredSession | null, actions: MemoryActions): HTMLElement {
  return h("div", { class: "opened" }, selected ? renderPaneHeader(selected, state.opened, actions) : null, renderOpened(state.opened, actions));
}

function renderOpened(opened: Opened, actions: MemoryActions): HTMLElement | null {
  if (opened === null) {
    return h("p", { class: "hint nothing-opened" }, "Choose a session in the list: what it holds opens here, as does a search hit's turn.");
  }
  switch (opened.kind) {
    case "turns":
      return h(
        "div",
        { class: "turns-of", "data-session": opened.session.session_id },
        opened.context ? renderContextChart(opened.context) : null,
        h(
          "ol",
          {},
          ...opened.turns
            .filter((t) => t.seq > 0)
            .map((t) =>
              h(
                "li",
                { "data-turn": t.code },
                button(firstLine(t.messages[0]?.text ?? "(no prompt)", 90), { class: "open-turn" }, () => actions.onTurn(t.code)),
                t.detail_summary ? h("span", { class: "facts" }, ` ${t.detail_summary}`) : null,
              ),
            ),
        ),
      );
    case "turn":
      return renderTurn(opened.detail, actions);
    case "forget":
      return renderForget(opened.what, opened.label, opened.preview, actions);
    case "preview":
      return h(
        "div",
        { class: "preview", "data-session": opened.session.session_id },
        h("h3", {}, "What the next new chat will receive"),
        opened.text === null
          ? h("p", { class: "empty" }, "Nothing: this session holds no turn to hand on.")
          : h("pre", { class: "text" }, opened.text),
        opened.text === null
          ? null
          : h(
              "p",
              {},
              button("Hand off this session", { id: "hand-off" }, () => actions.onHandoff(opened.session)),
              ` The next new chat in ${projectName(opened.session.project)} starts with exactly this.`,
            ),
      );
  }
}

function kib(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(bytes < 10_240 ? 1 : 0)} KiB`;
}

/** The question before forgetting: exactly what goes, and that it cannot be undone. */
function renderForget(what: Forget, label: string, preview: ForgetPreview, actions: MemoryActions): HTMLElement {
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const goes = [
    preview.sessions > 0 ? count(preview.sessions, "whole session", "whole sessions") : null,
    count(preview.turns, "turn", "turns"),
    count(preview.messages + preview.details, "stored entry", "stored entries"),
    `${kib(preview.text_bytes)} of text`,
    preview.injections > 0 ? count(preview.injections, "injection-log entry", "injection-log entries") : null,
  ].filter(Boolean);
  return h(
    "div",
    { class: "forget-confirm", role: "alertdialog", "data-kind": what.kind },
    h("h3", {}, `Forget ${label}?`),
    h("p", {}, `This removes ${goes.join(", ")} from the memory and from the search index, for good. The agents' own transcripts are not touched.`),
    h(
      "p",
      { class: "buttons" },
      button("Forget", { id: "forget-confirm" }, () => actions.onConfirmForget(what, label)),
      button("Keep", { id: "forget-cancel" }, () => actions.onKeep()),
    ),
  );
}

export function renderMemory(state: MemoryState, actions: MemoryActions): HTMLElement {
  const problem = state.problem ? h("p", { class: "problem", role: "alert" }, state.problem) : null;
  const notice = state.notice ? h("p", { class: "notice", role: "status" }, state.notice) : null;
  if (state.sessions === null) return h("section", { class: "memory-view" }, problem ?? h("p", { class: "loading" }, "Reading the memory store…"));
  if (state.sessions.length === 0) {
    return h(
      "section",
      { class: "memory-view" },
      problem,
      h("p", { class: "empty" }, "No session is stored yet. Sessions are recorded as they run once Throughline is installed (the Installer tab)."),
    );
  }
  const selected = selectedSession(state);
  return h(
    "section",
    { class: "memory-view" },
    problem,
    notice,
    renderSearch(state, actions),
    h("div", { class: "columns" }, h("div", { class: "list" }, renderResults(state, actions), renderProjects(state.sessions, selected, state, actions)), renderPane(state, selected, actions)),
  );
}

/**
 * How to find a control again once a redraw has replaced it: by its id, as its session's row or
 * its project's heading, or as the same button in the pane's header. Other controls lose the
 * focus.
 */
function refinder(control: HTMLElement): ((view: HTMLElement) => HTMLElement | null) | null {
  if (control.id) return (view) => view.querySelector<HTMLElement>(`[id="${control.id}"]`);
  const project = control.matches(".project > summary") ? control.closest<HTMLElement>(".project")?.dataset.project : undefined;
  if (project !== undefined) {
    return (view) => [...view.querySelectorAll<HTMLElement>(".project")].find((group) => group.dataset.project === project)?.querySelector<HTMLElement>(":scope > summary") ?? null;
  }
  const session = control.closest<HTMLElement>("li.stored")?.dataset.session;
  if (session !== undefined && control.matches(".open-session")) {
    return (view) => [...view.querySelectorAll<HTMLElement>("li.stored")].find((row) => row.dataset.session === session)?.querySelector<HTMLElement>(".open-session") ?? null;
  }
  const kind = control.matches(".pane-header button") ? control.classList[0] : undefined;
  return kind ? (view) => view.querySelector<HTMLElement>(`.pane-header .${kind}`) : null;
}

/** The projects folded in the Memory view, for as long as the app runs: the view is mounted
 * afresh each time its tab is chosen. */
const foldedThisRun = new Set<string>();

/** Lists the memory and keeps the list current as hooks write; returns the clean-up. */
export function mountMemory(into: HTMLElement, folded: Set<string> = foldedThisRun): () => void {
  let state: MemoryState = { sessions: null, query: "", hits: null, searching: false, opened: null, folded, tabStop: null, notice: null, problem: null };
  const show = (patch: Partial<MemoryState>) => {
    state = { ...state, ...patch };
    // A redraw keeps the focus where it was, and the cursor of words being typed.
    const focused = document.activeElement instanceof HTMLElement && into.contains(document.activeElement) ? document.activeElement : null;
    const findFocused = focused ? refinder(focused) : null;
    const [start, end] = focused instanceof HTMLInputElement ? [focused.selectionStart, focused.selectionEnd] : [null, null];
    const scrolled = (pane: string) => into.querySelector(pane)?.scrollTop ?? 0;
    const [listTop, paneTop] = [scrolled(".list"), scrolled(".opened")];
    into.replaceChildren(renderMemory(state, actions));
    const again = findFocused?.(into);
    again?.focus({ preventScroll: true });
    if (again instanceof HTMLInputElement) again.setSelectionRange(start, end);
    // Each pane stays where the person scrolled it; a new search's hits, or a newly opened
    // thing, shows from its top.
    const list = into.querySelector(".list");
    if (list && !("hits" in patch)) list.scrollTop = listTop;
    const pane = into.querySelector(".opened");
    if (pane && !("opened" in patch)) pane.scrollTop = paneTop;
    // What was just opened is brought into view: beside a long list, or below it in a narrow
    // window, it would otherwise open out of sight.
    if (patch.opened) into.querySelector<HTMLElement>(".opened")?.scrollIntoView?.({ block: "nearest" });
  };
  const failed = (what: string) => (error: unknown) => show({ problem: describeFailure(what, error) });
  const actions: MemoryActions = {
    onType: (query) => {
      state = { ...state, query };
    },
    onFold: (project, isFolded) => {
      if (isFolded) folded.add(project);
      else folded.delete(project);
    },
    onTabStop: (sessionId) => {
      state = { ...state, tabStop: sessionId };
    },
    onSearch: (query) => {
      if (query.trim() === "") return show({ query, hits: null });
      if (state.searching) return;
      show({ query, searching: true });
      search(query)
        .then((hits) => show({ query, hits, searching: false, problem: null }))
        .catch((error: unknown) => show({ searching: false, problem: describeFailure("search the memory", error) }));
    },
    onTurns: (session) =>
      Promise.all([sessionTurns(session.session_id), sessionContext(session.session_id)])
        .then(([turns, context]) => show({ opened: { kind: "turns", session, turns, context }, problem: null }))
        .catch(failed("read the session's turns")),
    onTurn: (code) =>
      turnDetail(code)
        .then((detail) => show({ opened: { kind: "turn", detail }, problem: null }))
        .catch(failed("open the turn")),
    onPreview: (session) =>
      handoffPreview(session.session_id)
        .then((text) => show({ opened: { kind: "preview", session, text }, problem: null }))
        .catch(failed("build the handoff preview")),
    onHandoff: (session) =>
      offerHandoff(session.session_id)
        .then(() => show({ notice: `Handed off: the next new chat in ${projectName(session.project)} starts with this session's memory.`, problem: null }))
        .catch(failed("hand off the session")),
    onForget: (what, label) =>
      forgetPreview(what)
        .then((preview) => show({ opened: { kind: "forget", what, label, preview }, problem: null }))
        .catch(failed("work out what would be forgotten")),
    onConfirmForget: (what, label) =>
      forget(what)
        .then(() => {
          show({ opened: null, hits: null, notice: `Forgotten: ${label}.`, problem: null });
          refresh();
        })
        .catch(failed("forget it")),
    onKeep: () => show({ opened: null }),
  };
  const refresh = () =>
    storedSessions()
      .then((sessions) => show({ sessions }))
      .catch(failed("read the stored sessions"));
  show({});
  refresh();
  const unlisten = onLiveSessions(refresh);
  return () => void unlisten.then((stop) => stop());
}
