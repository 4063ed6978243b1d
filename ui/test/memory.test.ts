import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { emit } from "@tauri-apps/api/event";
import { afterEach, describe, expect, it } from "vitest";
import { LIVE_SESSIONS_EVENT, type Hit, type StoredSession, type Turn, type TurnDetail } from "../src/ipc";
import { mountMemory, renderMemory, type MemoryActions, type MemoryState } from "../src/views/memory";
import { settle } from "./fixtures";

afterEach(() => {
  clearMocks();
  document.body.replaceChildren();
});

function stored(overrides: Partial<StoredSession> = {}): StoredSession {
  return {
    session_id: "f839b538-b1ae-45df-beaa-8b044d1f240c",
    host: "Claude Code",
    project: "/home/dev/toy",
    title: "Remember: the deploy key lives at vault path secret/deploy-7731.",
    started_at: "2026-11-30T08:40:00.000Z",
    last_activity: "2026-11-30T08:43:56.000Z",
    ended_at: null,
    turns: 3,
    ...overrides,
  };
}

const SESSIONS = [stored(), stored({ session_id: "0f1b393e-f41a", title: null, turns: 1 }), stored({ session_id: "c0de", project: "/work/api", host: "Codex", title: "add a route" })];

const TURN: Turn = { code: "k3m9x2a", session_id: SESSIONS[0].session_id, seq: 1, started_at: "2026-11-30T08:40:01.000Z", messages: [{ role: "user", text: "Remember: the deploy key", at: null }], detail_summary: "Bash ×1" };

const DETAIL: TurnDetail = {
  ...TURN,
  messages: [...TURN.messages, { role: "assistant", text: "Noted: secret/deploy-7731.", at: null }],
  details: [
    { index: 1, kind: "tool_use", name: "Bash", tool_use_id: "t1", body: '{"command":"ls"}', is_error: false, at: null },
    { index: 2, kind: "tool_result", name: "Bash", tool_use_id: "t1", body: "deploy.sh\nREADME.md", is_error: true, at: null },
    { index: 3, kind: "thinking", name: null, tool_use_id: null, body: "List it first.", is_error: false, at: null },
  ],
  steps: [
    { title: "Bash: ls", tool: 1, item: 1, input: "command: ls\n", diff: false, readable: null, result: 2, failed: true, unanswered: false, lines: 2, chars: 19 },
    { title: "thinking", tool: null, item: 3, input: null, diff: false, readable: null, result: null, failed: false, unanswered: false, lines: 1, chars: 14 },
  ],
};

const HIT: Hit = { turn: "k3m9x2a", session_id: SESSIONS[0].session_id, project: "/home/dev/toy", at: "2026-11-30T08:40:01.000Z", layer: "l2", role: "user", tool: null, excerpts: [{ line: 1, column: 0, text: "the deploy key lives at", more: true, matches: [[4, 10]] }], copies: 0, more_lines: 0, more: null };

const noActions: MemoryActions = { onSearch: () => {}, onType: () => {}, onFold: () => {}, onTabStop: () => {}, onTurns: () => {}, onTurn: () => {}, onPreview: () => {}, onHandoff: () => {}, onForget: () => {}, onConfirmForget: () => {}, onKeep: () => {} };

const FORGET_PREVIEW = { sessions: 1, turns: 3, messages: 6, details: 4, text_bytes: 20_480, injections: 1, projects: ["/home/dev/toy"], earliest: null, latest: null };

function state(patch: Partial<MemoryState> = {}): MemoryState {
  return { sessions: SESSIONS, query: "", hits: null, searching: false, opened: null, folded: new Set(), tabStop: null, notice: null, problem: null, ...patch };
}

describe("renderMemory", () => {
  it("lists every stored session by project with its first prompt, dates, turns and host", () => {
    const view = renderMemory(state(), noActions);
    const projects = [...view.querySelectorAll("details.project")];
    expect(projects.map((p) => p.getAttribute("data-project"))).toEqual(["/home/dev/toy", "/work/api"]);
    expect(projects[0].querySelector("summary")!.textContent).toBe("toy · 2 sessions");
    const first = view.querySelector("li.stored")!;
    expect(first.querySelector(".title")!.textContent).toContain("secret/deploy-7731");
    // One line of facts: when it was last active; from when to when on hover.
    const facts = first.querySelector(".facts")!;
    expect(facts.textContent).toMatch(/^[^–]* · 3 turns · Claude Code$/);
    expect(facts.getAttribute("title")).toMatch(/ – .* · 3 turns · Claude Code$/);
    expect(view.querySelector("[data-session='0f1b393e-f41a'] .title")!.textContent).toBe("Session 0f1b393e (no prompt)");
    expect(view.querySelector("[data-session=c0de] .facts")!.textContent).toContain("Codex");
    // Nothing opened yet: the pane beside the list says what will show there.
    expect(view.querySelector(".opened .nothing-opened")!.textContent).toContain("opens here");
  });

  it("shows the whole first prompt on hover, and short ids and folder names where there is none", () => {
    const prompt = "  Fix the flaky build.\n\n\n\nIt fails on CI only.   \n";
    const sessions = [
      stored({ title: prompt }),
      stored({ session_id: "0f1b393e-f41a-4e1e-9a85-60441f844f13", title: null, project: "C:\\Users\\dev\\shop" }),
    ];
    const asked: string[] = [];
    const view = renderMemory(state({ sessions, opened: { kind: "turns", session: sessions[1], turns: [], context: null } }), { ...noActions, onForget: (_, label) => asked.push(label) });
    const title = view.querySelector(`[data-session='${sessions[0].session_id}'] .title`)!;
    expect(title.textContent).toBe("Fix the flaky build.");
    expect(title.getAttribute("title")).toBe("Fix the flaky build.\n\nIt fails on CI only.");
    // A Windows path is named by its folder, a session without a prompt by its short id.
    expect(view.querySelector("[data-project='C:\\\\Users\\\\dev\\\\shop'] summary strong")!.textContent).toBe("shop");
    expect(view.querySelector(".pane-header h2")!.textContent).toBe("Session 0f1b393e");
    view.querySelector<HTMLButtonElement>(".pane-header[data-session='0f1b393e-f41a-4e1e-9a85-60441f844f13'] .forget")!.click();
    expect(asked).toEqual(["session 0f1b393e"]);
  });

  it("lists a session as one row to select, and one that stored no turn as a quiet line", () => {
    const empty = stored({ session_id: "bbbbbbbb-0000", title: null, turns: 0 });
    const opened: string[] = [];
    const view = renderMemory(state({ sessions: [stored(), empty] }), { ...noActions, onTurns: (s) => opened.push(s.session_id) });
    // A session with turns: its title and facts are one option of the list, nothing else to press.
    const row = view.querySelector(`li.stored[data-session='${SESSIONS[0].session_id}']`)!;
    const options = [...row.querySelectorAll<HTMLElement>("button, [role=option]")];
    expect(options.map((b) => b.className)).toEqual(["open-session"]);
    expect(options[0].querySelector(".title")!.textContent).toContain("secret/deploy-7731");
    expect(options[0].querySelector(".facts")).not.toBeNull();
    expect(options[0].hasAttribute("aria-current")).toBe(false);
    // A session that stored no turn has nothing to open: it cannot be selected.
    const quiet = view.querySelector("li.stored[data-session='bbbbbbbb-0000']")!;
    expect(quiet.querySelector(".title")!.textContent).toBe("Session bbbbbbbb (no prompt)");
    expect(quiet.querySelectorAll("button, [tabindex], [role=button]")).toHaveLength(0);
    expect([quiet.getAttribute("role"), quiet.getAttribute("aria-disabled"), quiet.hasAttribute("tabindex")]).toEqual(["option", "true", false]);
    expect(quiet.classList.contains("no-turns")).toBe(true);
    quiet.querySelector<HTMLElement>(".title")!.click();
    options[0].click();
    expect(opened).toEqual([SESSIONS[0].session_id]);
  });

  it("lists each project's sessions as a listbox, the whole list one tab stop: the open session's row, else the first", () => {
    const stops = (view: HTMLElement) => [...view.querySelectorAll<HTMLElement>(".projects [tabindex='0']")].map((row) => row.closest("li")!.getAttribute("data-session"));
    const view = renderMemory(state(), noActions);
    const listboxes = [...view.querySelectorAll(".projects ul")];
    expect(listboxes.map((list) => [list.getAttribute("role"), list.getAttribute("aria-label")])).toEqual([
      ["listbox", "Sessions of toy"],
      ["listbox", "Sessions of api"],
    ]);
    const options = [...view.querySelectorAll<HTMLElement>(".projects [role=option]")];
    expect(options).toHaveLength(3);
    for (const option of options) expect(option.parentElement!.getAttribute("role")).toBe("none");
    expect(stops(view)).toEqual([SESSIONS[0].session_id]);
    expect(view.querySelector("[aria-selected=true]")).toBe(options[0]);
    expect(options.slice(1).map((o) => [o.getAttribute("tabindex"), o.getAttribute("aria-selected")])).toEqual([
      ["-1", "false"],
      ["-1", "false"],
    ]);
    expect(stops(renderMemory(state({ opened: { kind: "turns", session: SESSIONS[2], turns: [], context: null } }), noActions))).toEqual(["c0de"]);
    // Where the keyboard was left comes first; a row in a folded group cannot be the stop.
    expect(stops(renderMemory(state({ tabStop: SESSIONS[1].session_id }), noActions))).toEqual([SESSIONS[1].session_id]);
    expect(stops(renderMemory(state({ tabStop: SESSIONS[1].session_id, folded: new Set(["/home/dev/toy"]) }), noActions))).toEqual(["c0de"]);
  });

  it("keeps a session's other actions out of the list, in the header of the pane beside it", () => {
    const view = renderMemory(state({ opened: { kind: "preview", session: SESSIONS[0], text: "memory" } }), noActions);
    expect(view.querySelectorAll("li.stored .preview, li.stored .forget, li.stored .turns")).toHaveLength(0);
    const header = view.querySelector(".opened .pane-header")!;
    expect(header.getAttribute("data-session")).toBe(SESSIONS[0].session_id);
    expect(header.querySelector("h2")!.getAttribute("title")).toBe(SESSIONS[0].title);
    expect([...header.querySelectorAll("button")].map((b) => [b.className, b.getAttribute("aria-pressed")])).toEqual([
      ["turns", "false"],
      ["preview", "true"],
      ["forget", null],
    ]);
    // The row of what is open is the selected one; nothing selected, no header.
    expect(view.querySelector("[aria-current=true]")!.closest("li")!.getAttribute("data-session")).toBe(SESSIONS[0].session_id);
    const none = renderMemory(state(), noActions);
    expect(none.querySelector(".pane-header, [aria-current]")).toBeNull();
  });

  it("marks the search's matches at the top of the list, and a hit opens its turn beside it", () => {
    const opened: string[] = [];
    const searched: string[] = [];
    const view = renderMemory(state({ query: "deploy", hits: [HIT] }), { ...noActions, onTurn: (code) => opened.push(code), onSearch: (q) => searched.push(q) });
    expect(view.querySelector(".list > .results + .projects")).not.toBeNull();
    expect(view.querySelector(".list .hit mark")!.textContent).toBe("deploy");
    expect(view.querySelector(".hit .facts")!.textContent).toContain("toy");
    view.querySelector<HTMLButtonElement>(".hit .open-turn")!.click();
    expect(opened).toEqual(["k3m9x2a"]);
    view.querySelector<HTMLButtonElement>(".results .clear-search")!.click();
    expect(searched).toEqual([""]);
    // The hit whose turn is open is marked, and so is its session's row.
    const turn = renderMemory(state({ query: "deploy", hits: [HIT], opened: { kind: "turn", detail: DETAIL } }), noActions);
    expect(turn.querySelector(".hit")!.getAttribute("aria-current")).toBe("true");
    expect(turn.querySelector(`li.stored[data-session='${SESSIONS[0].session_id}'] .open-session`)!.getAttribute("aria-current")).toBe("true");
    expect(renderMemory(state({ query: "nowhere", hits: [] }), noActions).querySelector(".list .empty")!.textContent).toContain('Nothing stored matches "nowhere"');
  });

  it("says what else of a hit's turn holds the words, in the library's words", () => {
    expect(renderMemory(state({ query: "deploy", hits: [HIT] }), noActions).querySelector(".hit .more")).toBeNull();
    const more = { ...HIT, more_lines: 3, more: "and 3 more lines in this turn" };
    const view = renderMemory(state({ query: "deploy", hits: [more] }), noActions);
    expect(view.querySelector(".hit .more")!.textContent).toBe("and 3 more lines in this turn");
    expect(view.querySelector(".hit .more + .open-turn")).not.toBeNull();
  });

  it("shows a turn in full: the conversation, each tool call and its output", () => {
    const view = renderMemory(state({ opened: { kind: "turn", detail: DETAIL } }), noActions);
    const turn = view.querySelector(".turn")!;
    expect(turn.querySelector(".message.assistant .md p")!.textContent).toBe("Noted: secret/deploy-7731.");
    const details = [...turn.querySelectorAll("li.detail")];
    expect(details.map((d) => d.querySelector("summary")!.textContent)).toEqual(["Bash: ls · failed · 2 lines", "thinking · 1 line"]);
    // The call's input as names and values, its output below it, paired for the reader.
    expect(details[0].querySelector("pre.input")!.textContent).toBe("command: ls\n");
    expect(details[0].querySelector("pre.output")!.textContent).toBe("deploy.sh\nREADME.md");
    expect(details[0].classList.contains("error")).toBe(true);
    expect(details[1].querySelector("pre.output")!.textContent).toBe("List it first.");
  });

  it("shows an edit as its file and a diff, its removed and added lines marked", () => {
    const detail: TurnDetail = {
      ...DETAIL,
      details: [
        { index: 1, kind: "tool_use", name: "Edit", tool_use_id: "e1", body: '{"file_path":"/home/dev/toy/app.py","old_string":"print(x)","new_string":"print(total)"}', is_error: false, at: null },
        { index: 2, kind: "tool_result", name: "Edit", tool_use_id: "e1", body: "The file /home/dev/toy/app.py has been updated successfully.", is_error: false, at: null },
      ],
      steps: [{ title: "Edit: /home/dev/toy/app.py", tool: 1, item: 1, input: "@@\n def main():\n-    print(x)\n+    print(total)\n", diff: true, readable: null, result: 2, failed: false, unanswered: false, lines: 1, chars: 61 }],
    };
    const step = renderMemory(state({ opened: { kind: "turn", detail } }), noActions).querySelector("li.detail")!;
    expect(step.querySelector("summary")!.textContent).toBe("Edit: /home/dev/toy/app.py · 1 line");
    const diff = step.querySelector("pre.input.diff")!;
    expect(diff.textContent).toBe("@@\n def main():\n-    print(x)\n+    print(total)\n");
    expect([...diff.querySelectorAll("span")].map((line) => line.className)).toEqual(["hunk", "same", "del", "ins"]);
    expect(step.textContent).not.toContain("{");
  });

  it("folds a run of the client's own entries into one row, and leaves a pair as it is", () => {
    const entry = (index: number, kind: string, name: string) => ({ index, kind, name, tool_use_id: null, body: `{"type":"${name}"}`, is_error: false, at: null });
    // The library gives each JSON entry's names and values.
    const step = (item: number, title: string) => ({ title, tool: null, item, input: null, diff: false, readable: `type: ${title.replace(/^[^:]*: /, "")}\n`, result: null, failed: false, unanswered: false, lines: 1, chars: 20 });
    const detail: TurnDetail = {
      ...DETAIL,
      details: [
        ...DETAIL.details,
        entry(4, "attachment", "environment"),
        entry(5, "attachment", "model"),
        entry(6, "system", "date"),
        entry(9, "attachment", "model"),
        entry(10, "attachment", "skills"),
        entry(7, "attachment", "todo"),
        entry(8, "meta", "caveat"),
      ],
      steps: [
        step(4, "attachment: environment"),
        step(5, "attachment: model"),
        step(6, "host note: date"),
        step(9, "attachment: model"),
        step(10, "attachment: skills"),
        DETAIL.steps[0],
        step(7, "attachment: todo"),
        step(8, "meta: caveat"),
        DETAIL.steps[1],
      ],
    };
    const turn = renderMemory(state({ opened: { kind: "turn", detail } }), noActions).querySelector(".turn")!;
    const rows = [...turn.querySelectorAll(":scope > ol.details > li")];
    expect(rows.map((row) => row.querySelector("summary")!.textContent)).toEqual([
      "Client context: environment, model, date and 1 more · 5 entries",
      "Bash: ls · failed · 2 lines",
      "attachment: todo · 1 line",
      "meta: caveat · 1 line",
      "thinking · 1 line",
    ]);
    // Each folded entry opens as it would alone, as names and values, not as JSON.
    const inside = [...rows[0].querySelectorAll("ol.details > li.detail")];
    expect(inside.map((row) => row.querySelector("pre.output")!.textContent)).toEqual(["type: environment\n", "type: model\n", "type: date\n", "type: model\n", "type: skills\n"]);
  });

  it("previews exactly the text a handoff gives, and hands off from there", () => {
    const handed: string[] = [];
    const text = "# Throughline memory\nsecret/deploy-7731";
    const view = renderMemory(state({ opened: { kind: "preview", session: SESSIONS[0], text } }), { ...noActions, onHandoff: (s) => handed.push(s.session_id) });
    expect(view.querySelector(".preview pre")!.textContent).toBe(text);
    view.querySelector<HTMLButtonElement>("#hand-off")!.click();
    expect(handed).toEqual([SESSIONS[0].session_id]);
    const nothing = renderMemory(state({ opened: { kind: "preview", session: SESSIONS[1], text: null } }), noActions);
    expect(nothing.querySelector("#hand-off")).toBeNull();
  });

  it("with nothing stored says so without alarm", () => {
    const view = renderMemory(state({ sessions: [] }), noActions);
    expect(view.querySelector("[role=alert]")).toBeNull();
    expect(view.textContent).toContain("No session is stored yet");
  });
});

describe("forget", () => {
  it("asks first with what goes, for a session, a project and a turn", () => {
    const asked: [string, string][] = [];
    const view = renderMemory(state({ opened: { kind: "turn", detail: DETAIL } }), { ...noActions, onForget: (what) => asked.push([what.kind, what.id]) });
    view.querySelector<HTMLButtonElement>(".pane-header .forget")!.click();
    view.querySelector<HTMLButtonElement>(".forget-project")!.click();
    view.querySelector<HTMLButtonElement>(".turn .forget")!.click();
    expect(asked).toEqual([
      ["session", SESSIONS[0].session_id],
      ["project", "/home/dev/toy"],
      ["turn", "k3m9x2a"],
    ]);
    const confirm = renderMemory(state({ opened: { kind: "forget", what: { kind: "session", id: "f839" }, label: "the session", preview: FORGET_PREVIEW } }), noActions);
    const question = confirm.querySelector("[role=alertdialog]")!.textContent!;
    expect(question).toContain("Forget the session?");
    expect(question).toContain("1 whole session, 3 turns, 10 stored entries, 20 KiB of text, 1 injection-log entry");
    expect(question).toContain("search index");
  });

  it("forgets only after the person confirms, then rereads the memory", async () => {
    const calls: string[] = [];
    let sessions = SESSIONS;
    mockIPC(
      (cmd) => {
        calls.push(cmd);
        if (cmd === "stored_sessions") return sessions;
        if (cmd === "session_turns") return [TURN];
        if (cmd === "session_context") return null;
        if (cmd === "forget_preview") return FORGET_PREVIEW;
        if (cmd === "forget") {
          sessions = SESSIONS.slice(1);
          return { removed: FORGET_PREVIEW, wal_emptied: true };
        }
      },
      { shouldMockEvents: true },
    );
    const into = document.createElement("div");
    document.body.append(into);
    mountMemory(into);
    await settle();
    into.querySelector<HTMLElement>("li.stored .open-session")!.click();
    await settle();
    into.querySelector<HTMLButtonElement>(".pane-header .forget")!.click();
    await settle();
    into.querySelector<HTMLButtonElement>("#forget-cancel")!.click();
    await settle();
    expect(calls).not.toContain("forget");
    into.querySelector<HTMLElement>("li.stored .open-session")!.click();
    await settle();
    into.querySelector<HTMLButtonElement>(".pane-header .forget")!.click();
    await settle();
    into.querySelector<HTMLButtonElement>("#forget-confirm")!.click();
    await settle();
    expect(calls.filter((c) => c === "forget")).toHaveLength(1);
    expect(into.querySelector("[role=status]")!.textContent).toContain("Forgotten");
    expect(into.querySelector(`[data-session='${SESSIONS[0].session_id}']`)).toBeNull();
  });
});

/** The Memory view mounted in the page over commands answered by `answers`; every call made. */
async function mounted(answers: Record<string, unknown>) {
  const calls: [string, unknown][] = [];
  mockIPC(
    (cmd, args) => {
      calls.push([cmd, args]);
      return answers[cmd];
    },
    { shouldMockEvents: true },
  );
  const into = document.createElement("div");
  document.body.append(into);
  // Its own folded projects: what one test folds stays out of the next.
  mountMemory(into, new Set());
  await settle();
  return { into, calls };
}

describe("mountMemory", () => {
  it("searches, opens a turn, previews and hands off through the app's commands", async () => {
    const { into, calls } = await mounted({
      stored_sessions: SESSIONS,
      search: [HIT],
      turn_detail: DETAIL,
      session_turns: [TURN],
      session_context: {
        points: [
          { turn: "k3m9x2a", at: "2026-12-02T10:00:00.000Z", tokens: 30_000 },
          { turn: "k3m9x2a", at: "2026-12-02T10:01:00.000Z", tokens: 52_000 },
        ],
        marks: [],
        measured: true,
        window: 200_000,
        compacts_at: 167_000,
        compacts_by: "client",
      },
      handoff_preview: "# Throughline memory\nsecret/deploy-7731",
      offer_handoff: { session_id: SESSIONS[0].session_id, project: "/home/dev/toy", created_at: "", expires_at: "" },
    });
    into.querySelector<HTMLInputElement>("#memory-search")!.value = "deploy key";
    into.querySelector("form")!.dispatchEvent(new Event("submit", { cancelable: true }));
    await settle();
    expect(calls).toContainEqual(["search", { query: "deploy key", project: null }]);
    // What opens is brought into view (a narrow window shows it below the list).
    const scrolled: Element[] = [];
    HTMLElement.prototype.scrollIntoView = function (this: HTMLElement) {
      scrolled.push(this);
    };
    into.querySelector<HTMLButtonElement>(".hit .open-turn")!.click();
    await settle();
    expect(into.querySelector(".turn h3")!.textContent).toContain("k3m9x2a");
    expect(scrolled.map((e) => e.className)).toEqual(["opened"]);
    delete (HTMLElement.prototype as { scrollIntoView?: unknown }).scrollIntoView;
    into.querySelector<HTMLElement>("li.stored .open-session")!.click();
    await settle();
    expect(calls).toContainEqual(["session_context", { sessionId: SESSIONS[0].session_id }]);
    expect(into.querySelector(".turns-of figure.context figcaption")!.textContent).toContain("peak 52k of 200k");
    into.querySelector<HTMLButtonElement>(".pane-header .preview")!.click();
    await settle();
    expect(into.querySelector(".preview pre")!.textContent).toContain("secret/deploy-7731");
    into.querySelector<HTMLButtonElement>("#hand-off")!.click();
    await settle();
    expect(calls).toContainEqual(["offer_handoff", { sessionId: SESSIONS[0].session_id }]);
    expect(into.querySelector("[role=status]")!.textContent).toContain("Handed off");
  });

  it("opens a session's turns when its row is pressed, marks the row selected and keeps the focus on it", async () => {
    const { into, calls } = await mounted({ stored_sessions: SESSIONS, session_turns: [TURN], session_context: null });
    const row = (id: string) => into.querySelector<HTMLElement>(`li.stored[data-session='${id}'] .open-session`)!;
    row("c0de").focus();
    row("c0de").click();
    await settle();
    expect(calls).toContainEqual(["session_turns", { sessionId: "c0de" }]);
    expect(into.querySelector(".opened .turns-of")!.getAttribute("data-session")).toBe("c0de");
    expect(into.querySelector(".opened .turns-of li .open-turn")!.textContent).toBe("Remember: the deploy key");
    expect(into.querySelector(".pane-header h2")!.textContent).toBe("add a route");
    expect(into.querySelector(".pane-header .turns")!.getAttribute("aria-pressed")).toBe("true");
    expect([...into.querySelectorAll("[aria-current=true]")]).toEqual([row("c0de")]);
    // The redraw replaced the row: the keyboard is still on it, to go on from there.
    expect(document.activeElement).toBe(row("c0de"));
    into.remove();
  });

  it("previews and forgets the selected session from the pane's header", async () => {
    const { into, calls } = await mounted({ stored_sessions: SESSIONS, session_turns: [TURN], session_context: null, handoff_preview: "# Throughline memory\nsecret/deploy-7731", forget_preview: FORGET_PREVIEW });
    into.querySelector<HTMLElement>("li.stored[data-session='c0de'] .open-session")!.click();
    await settle();
    into.querySelector<HTMLButtonElement>(".opened .pane-header .preview")!.click();
    await settle();
    expect(calls).toContainEqual(["handoff_preview", { sessionId: "c0de" }]);
    expect(into.querySelector(".opened .preview pre")!.textContent).toContain("secret/deploy-7731");
    // Still the selected session: its header stays over its preview.
    expect(into.querySelector(".pane-header")!.getAttribute("data-session")).toBe("c0de");
    expect(into.querySelector("li.stored[data-session='c0de'] .open-session")!.getAttribute("aria-current")).toBe("true");
    into.querySelector<HTMLButtonElement>(".opened .pane-header .forget")!.click();
    await settle();
    expect(calls).toContainEqual(["forget_preview", { what: { kind: "session", id: "c0de" } }]);
    expect(into.querySelector(".opened .forget-confirm h3")!.textContent).toBe('Forget the session "add a route"?');
    expect(into.querySelector(".pane-header")!.getAttribute("data-session")).toBe("c0de");
    into.remove();
  });

  it("keeps each pane where it was scrolled when a live update redraws it, and opens a new thing at its top", async () => {
    const { into } = await mounted({ stored_sessions: SESSIONS, session_turns: [TURN], session_context: null });
    into.querySelector<HTMLElement>("li.stored .open-session")!.click();
    await settle();
    into.querySelector(".list")!.scrollTop = 240;
    into.querySelector(".opened")!.scrollTop = 90;
    await emit(LIVE_SESSIONS_EVENT, { sessions: [], plan: null });
    await settle();
    expect([into.querySelector(".list")!.scrollTop, into.querySelector(".opened")!.scrollTop]).toEqual([240, 90]);
    into.querySelector<HTMLElement>("li.stored[data-session='c0de'] .open-session")!.click();
    await settle();
    expect([into.querySelector(".list")!.scrollTop, into.querySelector(".opened")!.scrollTop]).toEqual([240, 0]);
    into.remove();
  });

  it("keeps a folded project folded when a live update redraws the list, and when the tab is chosen again", async () => {
    mockIPC((cmd) => (cmd === "stored_sessions" ? SESSIONS : undefined), { shouldMockEvents: true });
    const folded = new Set<string>();
    const into = document.createElement("div");
    document.body.append(into);
    const unmount = mountMemory(into, folded);
    await settle();
    const group = (project: string) => into.querySelector<HTMLDetailsElement>(`details.project[data-project='${project}']`)!;
    expect([group("/home/dev/toy").open, group("/work/api").open]).toEqual([true, true]);
    const summary = group("/home/dev/toy").querySelector("summary")!;
    summary.focus();
    summary.click();
    await settle();
    expect(group("/home/dev/toy").open).toBe(false);
    // A hook wrote: the list is drawn again, the folded group still folded, the keyboard on it.
    await emit(LIVE_SESSIONS_EVENT, { sessions: [], plan: null });
    await settle();
    expect(group("/home/dev/toy")).not.toBe(summary.parentElement);
    expect([group("/home/dev/toy").open, group("/work/api").open]).toEqual([false, true]);
    expect(document.activeElement).toBe(group("/home/dev/toy").querySelector("summary"));
    // The view is mounted afresh when its tab is chosen again: still folded.
    unmount();
    into.replaceChildren();
    mountMemory(into, folded);
    await settle();
    expect(group("/home/dev/toy").open).toBe(false);
    // Unfolded, it stays open.
    group("/home/dev/toy").querySelector("summary")!.click();
    await settle();
    await emit(LIVE_SESSIONS_EVENT, { sessions: [], plan: null });
    await settle();
    expect(group("/home/dev/toy").open).toBe(true);
    expect(folded.size).toBe(0);
    into.remove();
  });

  it("moves through the list with the arrow keys, Home and End, and opens a row with Enter or Space", async () => {
    const quiet = stored({ session_id: "bbbbbbbb-0000", title: null, turns: 0 });
    const sessions = [SESSIONS[0], quiet, SESSIONS[1], SESSIONS[2]];
    const { into, calls } = await mounted({ stored_sessions: sessions, session_turns: [TURN], session_context: null });
    const row = (id: string) => into.querySelector<HTMLElement>(`li.stored[data-session='${id}'] .open-session`)!;
    const focused = () => (document.activeElement as HTMLElement).closest("li")?.getAttribute("data-session");
    const press = (key: string) => document.activeElement!.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
    const stop = () => [...into.querySelectorAll(".projects [tabindex='0']")].map((r) => r.closest("li")!.getAttribute("data-session"));
    row(SESSIONS[0].session_id).focus();
    // Down passes over the quiet row, and on into the next project's.
    press("ArrowDown");
    expect(focused()).toBe(SESSIONS[1].session_id);
    expect(row(SESSIONS[1].session_id).getAttribute("aria-selected")).toBe("true");
    expect(row(SESSIONS[0].session_id).getAttribute("aria-selected")).toBe("false");
    expect(stop()).toEqual([SESSIONS[1].session_id]);
    press("ArrowDown");
    expect(focused()).toBe("c0de");
    press("ArrowDown");
    expect(focused()).toBe("c0de");
    press("ArrowUp");
    expect(focused()).toBe(SESSIONS[1].session_id);
    press("Home");
    expect(focused()).toBe(SESSIONS[0].session_id);
    press("End");
    expect(focused()).toBe("c0de");
    expect(calls.filter(([cmd]) => cmd === "session_turns")).toHaveLength(0);
    // A live update redraws the list: the keyboard and the tab stop stay where they were left.
    await emit(LIVE_SESSIONS_EVENT, { sessions: [], plan: null });
    await settle();
    expect([focused(), ...stop()]).toEqual(["c0de", "c0de"]);
    press("Enter");
    await settle();
    expect(calls).toContainEqual(["session_turns", { sessionId: "c0de" }]);
    expect(into.querySelector(".pane-header")!.getAttribute("data-session")).toBe("c0de");
    expect(focused()).toBe("c0de");
    press("Home");
    press(" ");
    await settle();
    expect(calls).toContainEqual(["session_turns", { sessionId: SESSIONS[0].session_id }]);
    expect([focused(), ...stop()]).toEqual([SESSIONS[0].session_id, SESSIONS[0].session_id]);
    // Folding the group that holds the tab stop moves it to a row the keyboard can reach.
    into.querySelector<HTMLElement>("details.project[data-project='/home/dev/toy'] summary")!.click();
    await settle();
    expect(stop()).toEqual(["c0de"]);
    into.remove();
  });

  it("says a search is under way and runs one at a time", async () => {
    let answer: (hits: Hit[]) => void = () => {};
    const pending = new Promise<Hit[]>((resolve) => (answer = resolve));
    const { into, calls } = await mounted({ stored_sessions: SESSIONS, search: pending });
    into.querySelector<HTMLInputElement>("#memory-search")!.value = "deploy-7731";
    const submit = () => into.querySelector("form")!.dispatchEvent(new Event("submit", { cancelable: true }));
    submit();
    await settle();
    const button = into.querySelector<HTMLButtonElement>("form.search button[type=submit]")!;
    expect(button.textContent).toBe("Searching…");
    expect(button.disabled).toBe(true);
    submit();
    await settle();
    expect(calls.filter(([cmd]) => cmd === "search")).toHaveLength(1);
    answer([HIT]);
    await settle();
    expect(into.querySelector("form.search button[type=submit]")!.textContent).toBe("Search");
    expect(into.querySelectorAll(".hit")).toHaveLength(1);
    into.remove();
  });

  it("keeps the words being typed, the focus and the cursor when a live update redraws it", async () => {
    const { into, calls } = await mounted({ stored_sessions: SESSIONS, search: [HIT] });
    const typed = into.querySelector<HTMLInputElement>("#memory-search")!;
    typed.focus();
    typed.value = "deploy-77";
    typed.setSelectionRange(9, 9);
    typed.dispatchEvent(new Event("input"));
    // A hook wrote: the view is drawn again around the half-typed words.
    await emit(LIVE_SESSIONS_EVENT, { sessions: [], plan: null });
    await settle();
    const redrawn = into.querySelector<HTMLInputElement>("#memory-search")!;
    expect(redrawn).not.toBe(typed);
    expect(redrawn.value).toBe("deploy-77");
    expect(document.activeElement).toBe(redrawn);
    expect(redrawn.selectionStart).toBe(9);
    redrawn.value = "deploy-7731";
    into.querySelector("form")!.dispatchEvent(new Event("submit", { cancelable: true }));
    await settle();
    expect(calls).toContainEqual(["search", { query: "deploy-7731", project: null }]);
    into.remove();
  });

  it("says what went wrong when the store cannot be read", async () => {
    mockIPC(
      (cmd) => {
        if (cmd === "stored_sessions") throw "The memory store is damaged (file is not a database). `throughline doctor` gives the exact commands.";
      },
      { shouldMockEvents: true },
    );
    const into = document.createElement("div");
    mountMemory(into);
    await settle();
    expect(into.querySelector("[role=alert]")!.textContent).toContain("damaged");
  });
});
