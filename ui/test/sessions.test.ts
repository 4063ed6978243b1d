import { emit } from "@tauri-apps/api/event";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SessionActions } from "../src/views/sessions";
import { LIVE_SESSIONS_EVENT } from "../src/ipc";
import { CLOCK_REDRAW_MS, mountSessions, renderPlan, renderSessions } from "../src/views/sessions";
import { clockTime } from "../src/time";
import { meter, settle, snapshot } from "./fixtures";

afterEach(() => {
  clearMocks();
  document.body.replaceChildren();
});

const noActions: SessionActions = { onHandoff: () => {}, onCancelHandoff: () => {} };

/** Attached to the page, as in the app. */
function attached<T extends HTMLElement>(element: T): T {
  document.body.append(element);
  return element;
}

function buttonLabelled(into: HTMLElement, label: string): HTMLButtonElement {
  const found = [...into.querySelectorAll("button")].find((b) => b.textContent === label);
  if (!found) throw new Error(`no button ${label} in ${into.innerHTML}`);
  return found;
}

describe("renderSessions", () => {
  it("draws a gauge with the project, model, usage and turns of each live session", () => {
    const view = renderSessions(
      snapshot([
        meter(),
        meter({ session_id: "b", host: "Codex", model: "gpt-5.5", project: "/work/api", percent: 85, level: "full", usage: "170k/258k", turns: 1 }),
      ]),
      noActions,
    );
    const sessions = view.querySelectorAll("li.session");
    expect(sessions).toHaveLength(2);
    const first = sessions[0];
    expect(first.querySelector("h2")!.textContent).toBe("toy");
    expect(first.querySelector("h2")!.getAttribute("title")).toBe("/home/dev/toy");
    expect(first.querySelector(".model")!.textContent).toMatch(/^Claude Code · claude-opus-4-8 · last active /);
    expect(sessions[1].querySelector(".model")!.textContent).toMatch(/^Codex · gpt-5.5 · /);
    expect(first.querySelector(".usage")!.textContent).toBe(
      "52k/167k tokens before Claude Code compacts by itself, at about 84% of the window (no threshold set)",
    );
    expect(first.querySelector(".turns")!.textContent).toBe("5 turns in memory");
    expect(first.querySelector("svg.gauge text")!.textContent).toBe("31%");
    expect(sessions[1].querySelector("svg.gauge")!.getAttribute("class")).toBe("gauge full");
    expect(sessions[1].querySelector(".turns")!.textContent).toBe("1 turn in memory");
  });

  it("says a host that reports no token use is not measured, instead of showing it empty", () => {
    const view = renderSessions(snapshot([meter({ host: "Cursor", model: null, measured: false, usage: "not reported", percent: 0 })]), noActions);
    const session = view.querySelector("li.session")!;
    expect(session.querySelector(".usage")!.textContent).toBe("Cursor does not report how much of the context window is in use");
    expect(session.querySelector("svg.gauge text")!.textContent).toBe("?");
    expect(session.querySelector("svg.gauge")!.getAttribute("aria-label")).toBe("context use not reported");
  });

  it("fills the gauge in proportion to the context used", () => {
    const arc = (percent: number) => {
      const view = renderSessions(snapshot([meter({ percent })]), noActions);
      const [filled, whole] = view.querySelector("circle.fill")!.getAttribute("stroke-dasharray")!.split(" ").map(Number);
      return filled / whole;
    };
    expect(arc(0)).toBe(0);
    expect(arc(26)).toBeCloseTo(0.26, 3);
    expect(arc(100)).toBeCloseTo(1, 3);
  });

  it("keeps the widest percent clear of the ring, in any font", () => {
    const label = (percent: number) => {
      const view = renderSessions(snapshot([meter({ percent })]), noActions);
      const ring = view.querySelector("circle.fill")!;
      const text = view.querySelector("svg.gauge text")!;
      const number = (element: Element, name: string) => Number(element.getAttribute(name));
      const inside = number(ring, "r") - number(ring, "stroke-width") / 2;
      return { text, inside, size: number(text, "font-size"), width: number(text, "textLength"), middle: number(ring, "cy") };
    };
    for (const percent of [100, 99]) {
      const { text, inside, size, width } = label(percent);
      expect(text.textContent).toBe(`${percent}%`);
      // Drawn to this width whatever the font, no narrower than a narrow font draws it (its
      // glyphs would be squeezed); its box, a whole em high, stays 4 units inside the ring.
      expect(text.getAttribute("lengthAdjust")).toBe("spacingAndGlyphs");
      expect(width).toBeGreaterThanOrEqual(size * (percent === 100 ? 2.5 : 1.9));
      expect(Math.hypot(width / 2, size / 2)).toBeLessThanOrEqual(inside - 4);
    }
    // A shorter label is narrower, and a digit's middle (0.36 em above the baseline) is the
    // ring's.
    expect(label(5).width).toBeLessThan(label(99).width);
    const { text, middle, size } = label(100);
    expect(Number(text.getAttribute("y")) - size * 0.36).toBeCloseTo(middle, 1);
  });

  it("shows a problem with the store as one, with what to do", () => {
    const view = renderSessions(snapshot([], "The memory store is damaged (file is not a database). `throughline doctor` gives the exact commands."), noActions);
    expect(view.querySelector("[role=alert]")!.textContent).toContain("throughline doctor");
    expect(view.querySelector("li")).toBeNull();
  });

  it("shows both plan windows with their reset countdowns", () => {
    const now = Date.UTC(2026, 10, 30, 8, 0, 0);
    const plan = { five_hour: { used_percentage: 42.4, resets_at: now / 1000 + 2 * 3600 + 5 * 60 }, seven_day: { used_percentage: 93, resets_at: now / 1000 + 3 * 86_400 + 4 * 3600 } };
    const view = renderPlan(plan, 80, now)!;
    const five = view.querySelector("[data-window=five_hour]")!;
    expect(five.querySelector(".value")!.textContent).toBe("42% · resets in 2h 05m");
    expect(five.querySelector("[role=meter]")!.getAttribute("aria-valuenow")).toBe("42");
    const week = view.querySelector("[data-window=seven_day]")!;
    expect(week.querySelector(".value")!.textContent).toBe("93% · resets in 3d 4h");
    expect(week.querySelector(".bar")!.getAttribute("class")).toBe("bar full");
    expect(renderPlan(null, 80)).toBeNull();
    expect(renderSessions({ ...snapshot([]), plan }, noActions).querySelector(".plan")).not.toBeNull();
  });

  it("after a window's reset shows when it reset, not the old window's figure", () => {
    const now = Date.UTC(2026, 10, 30, 8, 0, 0);
    const plan = { five_hour: { used_percentage: 97, resets_at: now / 1000 - 600 }, seven_day: { used_percentage: 40, resets_at: now / 1000 + 86_400 } };
    const view = renderPlan(plan, 80, now)!;
    const five = view.querySelector("[data-window=five_hour]")!;
    expect(five.getAttribute("class")).toBe("plan-window stale");
    expect(five.querySelector(".value")!.textContent).toBe(`reset at ${clockTime(new Date(now - 600_000))}`);
    expect(five.querySelector("[role=meter]")!.hasAttribute("aria-valuenow")).toBe(false);
    expect(five.querySelector(".bar span")).toBeNull();
    expect(view.querySelector("[data-window=seven_day] .value")!.textContent).toBe("40% · resets in 1d 0h");
  });

  it("marks where an even pace through the window stands now on each bar", () => {
    const now = Date.UTC(2026, 10, 30, 8, 0, 0) / 1000;
    const plan = { five_hour: { used_percentage: 30, resets_at: now + 3600 }, seven_day: null };
    const outlook = { name: "5-hour" as const, starts_at: now - 4 * 3600, resets_at: now + 3600, used: 30, pace: 80, points: [], burn_per_hour: 0, full_at: null };
    const pace = renderPlan(plan, 80, now * 1000, { outlooks: [outlook], limit_hits: [] })!.querySelector<HTMLElement>("[data-window=five_hour] .bar .pace")!;
    expect(pace.style.left).toBe("80.0%");
    expect(pace.getAttribute("title")).toBe("An even pace would be at 80% by now");
    expect(renderPlan(plan, 80, now * 1000)!.querySelector(".pace")).toBeNull();
  });

  it("redraws an open view as the clock moves, so countdowns do not stand still", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    try {
      vi.setSystemTime(Date.UTC(2026, 10, 30, 8, 0, 0));
      const resets = Date.UTC(2026, 10, 30, 10, 0, 0) / 1000;
      mockIPC(async (cmd) => {
        if (cmd === "live_sessions") return { ...snapshot([meter()]), plan: { five_hour: { used_percentage: 10, resets_at: resets }, seven_day: null } };
        if (cmd === "plan_history") return { outlooks: [], limit_hits: [] };
        if (cmd === "plan_window_use") return [];
      }, { shouldMockEvents: true });
      const into = attached(document.createElement("div"));
      const unmount = mountSessions(into);
      await settle();
      const value = () => into.querySelector("[data-window=five_hour] .value")!.textContent;
      expect(value()).toBe("10% · resets in 2h 00m");
      vi.advanceTimersByTime(CLOCK_REDRAW_MS * 4);
      expect(value()).toBe("10% · resets in 1h 58m");
      unmount();
      vi.advanceTimersByTime(CLOCK_REDRAW_MS * 4);
      expect(value()).toBe("10% · resets in 1h 58m");
    } finally {
      vi.useRealTimers();
    }
  });

  it("colours the plan windows by the percent the person is warned at, and says it", () => {
    const now = Date.UTC(2026, 10, 30, 8, 0, 0);
    const plan = { five_hour: { used_percentage: 52, resets_at: null }, seven_day: { used_percentage: 31, resets_at: null } };
    const at50 = renderPlan(plan, 50, now)!;
    expect(at50.querySelector("[data-window=five_hour] .bar")!.getAttribute("class")).toBe("bar full");
    expect(at50.querySelector("[data-window=seven_day] .bar")!.getAttribute("class")).toBe("bar filling");
    expect(at50.querySelector(".plan-warning")!.textContent).toBe("A notification warns when a window reaches 50% (Settings).");
    const never = renderPlan(plan, 0, now)!;
    expect(never.querySelector("[data-window=five_hour] .bar")!.getAttribute("class")).toBe("bar calm");
    expect(never.querySelector(".plan-warning")!.textContent).toBe("No notification as the limits fill (Settings).");
  });

  it("reads the plan's history when the client reports a change, and draws each window over time", async () => {
    const now = Math.round(Date.now() / 1000);
    const reported = (used: number) => ({ five_hour: { used_percentage: used, resets_at: now + 2 * 3600 }, seven_day: null });
    const reads: string[] = [];
    mockIPC(
      async (cmd) => {
        if (cmd === "live_sessions") return { ...snapshot([meter()]), plan: reported(40) };
        if (cmd === "plan_window_use") {
          return [
            { project: "/work/toy", share: 70.4, sessions: [{ session_id: "a1b2c3d4e5", title: "add the retry", weight: 7 }] },
            { project: "/work/api", share: 29.6, sessions: [{ session_id: "b", title: null, weight: 2 }, { session_id: "c", title: "notes", weight: 1 }] },
          ];
        }
        if (cmd === "plan_history") {
          reads.push(cmd);
          return {
            outlooks: [{ name: "5-hour", starts_at: now - 3 * 3600, resets_at: now + 2 * 3600, used: 40, pace: 60, points: [[now - 3600, 20], [now, 40]], burn_per_hour: 20, full_at: null }],
            limit_hits: [],
          };
        }
      },
      { shouldMockEvents: true },
    );
    const into = attached(document.createElement("div"));
    mountSessions(into);
    await settle();
    await settle();
    expect(into.querySelector(".plan figure.plan-outlook[data-window='5-hour'] polyline.used")).not.toBeNull();
    // The bars come before the sessions, the charts after them.
    expect([...into.querySelector("section.sessions")!.children].map((e) => e.className || e.tagName)).toEqual(["plan", "UL", "plan plan-details"]);
    expect(into.querySelector(".plan figcaption")!.textContent).toContain("5-hour: 40% used, behind an even pace (60% by now).");
    const used = [...into.querySelectorAll(".plan .window-use li")];
    expect(used.map((li) => li.textContent)).toEqual(["toy70%1 session", "api30%2 sessions"]);
    expect(used[1].getAttribute("title")).toBe("/work/api\n67% b\n33% notes");
    // The same report again: the history is not read again; a new one: it is.
    await emit(LIVE_SESSIONS_EVENT, { ...snapshot([meter()]), plan: reported(40) });
    await settle();
    expect(reads).toHaveLength(1);
    await emit(LIVE_SESSIONS_EVENT, { ...snapshot([meter()]), plan: reported(41) });
    await settle();
    expect(reads).toHaveLength(2);
    expect(into.querySelector(".plan figure.plan-outlook")).not.toBeNull();
  });

  it("imports past sessions from a first run, showing how far it is", async () => {
    let first = true;
    mockIPC(
      async (cmd) => {
        if (cmd === "live_sessions") return first ? snapshot([], null, false, true) : snapshot([meter()]);
        if (cmd === "import_past_sessions") {
          await emit("import-progress", { transcripts_done: 1, transcripts: 2, bytes_done: 1_500_000, bytes: 3_000_000 });
          await settle();
          first = false;
          return { transcripts: 2, left_alone: 0, bytes_read: 3_000_000, records: 40, problems: [] };
        }
      },
      { shouldMockEvents: true },
    );
    const into = document.createElement("div");
    mountSessions(into);
    await settle();
    const seen: string[] = [];
    const observer = new MutationObserver(() => {
      const status = into.querySelector(".importing");
      if (status) seen.push(status.textContent!);
    });
    observer.observe(into, { childList: true, subtree: true });
    [...into.querySelectorAll("button")].find((b) => b.textContent === "Import past sessions")!.click();
    await settle();
    await settle();
    observer.disconnect();
    expect(seen).toContain("Importing past sessions: 1 of 2 transcripts, 1.5 of 3.0 MB");
    expect(into.querySelector("li.session")).not.toBeNull();
    expect(into.querySelector("[role=alert]")).toBeNull();
  });

  it("greets a first run with what to do, and no alarm", () => {
    const view = renderSessions(snapshot([], null, false, true), noActions);
    expect(view.querySelector("[role=alert]")).toBeNull();
    expect(view.querySelector(".first-run h2")!.textContent).toBe("Nothing recorded yet");
    expect(view.textContent).toContain("Import past sessions");
  });

  it("says truly when a session shows, and where the stored ones are", () => {
    const hint = renderSessions(snapshot([]), noActions).querySelector(".empty")!.textContent!;
    expect(hint).toContain("until it ends, or until it has been quiet for 30 minutes");
    expect(hint).not.toContain("for 30 minutes after");
    expect(hint).toContain("Memory tab");
  });

  it("tells two sessions of one project apart by their first prompt and last activity", () => {
    const view = renderSessions(
      snapshot([
        meter(),
        meter({ session_id: "0f1b393e-f41a", title: null, last_activity: "2026-11-29T10:00:00.000Z" }),
      ]),
      noActions,
    );
    const [a, b] = [...view.querySelectorAll("li.session")];
    expect(a.querySelector(".title")!.textContent).toBe("Fix the flaky build in CI");
    expect(b.querySelector(".title")!.textContent).toBe("Session 0f1b393e (no prompt yet)");
    expect(a.querySelector(".model")!.textContent).not.toBe(b.querySelector(".model")!.textContent);
  });

  it("measures against the window up to the auto-compact threshold", () => {
    const view = renderSessions(snapshot([meter({ usable: 140_000, compact_at: 70, compacts_by: "threshold", usage: "52k/140k", percent: 37 })]), noActions);
    expect(view.querySelector(".usage")!.textContent).toBe("52k/140k tokens of the 70% of the window before auto-compact");
  });

  it("measures against the whole window when the client's own rule is not known", () => {
    const codex = meter({ host: "Codex", window: 272_000, usable: 272_000, compact_at: null, compacts_by: "window", usage: "52k/272k" });
    expect(renderSessions(snapshot([codex]), noActions).querySelector(".usage")!.textContent).toBe(
      "52k/272k tokens of the context window",
    );
  });

  it("says while capture is paused, with or without live sessions", () => {
    for (const sessions of [[], [meter()]]) {
      const notice = renderSessions(snapshot(sessions, null, true), noActions).querySelector("[role=status]");
      expect(notice!.textContent).toContain("Capture is paused");
    }
    expect(renderSessions(snapshot([meter()]), noActions).querySelector("[role=status]")).toBeNull();
  });

  it("explains an empty list", () => {
    expect(renderSessions(snapshot([]), noActions).querySelector(".empty")!.textContent).toContain("No live sessions");
  });

  it("offers a one-click handoff, or its cancellation while one waits", () => {
    const asked: string[] = [];
    const actions: SessionActions = {
      onHandoff: (id) => asked.push(`handoff ${id}`),
      onCancelHandoff: (id) => asked.push(`cancel ${id}`),
    };
    const view = attached(
      renderSessions(snapshot([meter({ session_id: "a" }), meter({ session_id: "b", handoff_until: "2026-11-30T09:50:00.000Z" })]), actions),
    );
    const [first, second] = view.querySelectorAll<HTMLElement>("li.session");
    buttonLabelled(first, "Hand off to a new chat").click();
    expect(second.querySelector(".handoff.waiting")!.textContent).toContain("The next new chat in toy starts with this session's memory");
    buttonLabelled(second, "Cancel handoff").click();
    expect(asked).toEqual(["handoff a", "cancel b"]);
  });
});

/** Mounts the view on the mocked app and clicks the (only) session's handoff button. */
async function mountAndHandOff(): Promise<HTMLElement> {
  const into = attached(document.createElement("div"));
  mountSessions(into);
  await settle();
  buttonLabelled(into, "Hand off to a new chat").click();
  await settle();
  return into;
}

describe("mountSessions", () => {
  it("shows what the app reports and follows its updates", async () => {
    mockIPC(
      (cmd) => {
        if (cmd === "live_sessions") return snapshot([meter()]);
      },
      { shouldMockEvents: true },
    );
    const into = document.createElement("div");
    mountSessions(into);
    await settle();
    expect(into.querySelector("h2")!.textContent).toBe("toy");

    await emit(LIVE_SESSIONS_EVENT, snapshot([meter({ percent: 64, level: "filling" })]));
    await settle();
    expect(into.querySelector("svg.gauge")!.getAttribute("class")).toBe("gauge filling");
    expect(into.querySelector("svg.gauge text")!.textContent).toBe("64%");
  });

  it("redraws only the cards whose session changed", async () => {
    const quiet = meter({ session_id: "quiet" });
    mockIPC(
      (cmd) => {
        if (cmd === "live_sessions") return snapshot([meter({ session_id: "busy" }), quiet]);
      },
      { shouldMockEvents: true },
    );
    const into = document.createElement("div");
    mountSessions(into);
    await settle();
    const card = (id: string) => into.querySelector<HTMLElement>(`li.session[data-session='${id}']`)!;
    const [busy, unchanged] = [card("busy"), card("quiet")];

    await emit(LIVE_SESSIONS_EVENT, snapshot([meter({ session_id: "busy", turns: 6 }), quiet]));
    await settle();
    expect(card("quiet")).toBe(unchanged);
    expect(card("busy")).not.toBe(busy);
    expect(card("busy").querySelector(".turns")!.textContent).toBe("6 turns in memory");
  });

  it("hands a session off through the app and shows the waiting handoff", async () => {
    let waiting: string | null = null;
    const calls: unknown[] = [];
    mockIPC(
      (cmd, args) => {
        calls.push([cmd, args]);
        if (cmd === "live_sessions") return snapshot([meter({ handoff_until: waiting })]);
        if (cmd === "offer_handoff") {
          waiting = "2026-11-30T09:50:00.000Z";
          return { session_id: meter().session_id, project: "/home/dev/toy", created_at: "", expires_at: waiting };
        }
      },
      { shouldMockEvents: true },
    );
    const into = await mountAndHandOff();
    expect(calls).toContainEqual(["offer_handoff", { sessionId: meter().session_id }]);
    expect(into.querySelector(".handoff.waiting")).not.toBeNull();
  });

  it("keeps the sessions and says what failed when a handoff cannot be made", async () => {
    mockIPC(
      (cmd) => {
        if (cmd === "live_sessions") return snapshot([meter()]);
        if (cmd === "offer_handoff") throw new Error("database is locked");
      },
      { shouldMockEvents: true },
    );
    const into = await mountAndHandOff();
    expect(into.querySelector("[role=alert]")!.textContent).toContain("Could not hand off the session: database is locked");
    expect(into.querySelectorAll("li.session")).toHaveLength(1);
  });

  it("turns an IPC failure into advice", async () => {
    mockIPC(
      (cmd) => {
        if (cmd === "live_sessions") throw new Error("command live_sessions not found");
      },
      { shouldMockEvents: true },
    );
    const into = document.createElement("div");
    mountSessions(into);
    await settle();
    const alert = into.querySelector("[role=alert]")!.textContent!;
    expect(alert).toContain("Could not read the live sessions: command live_sessions not found.");
    expect(alert).toContain("throughline doctor");
    expect(alert).not.toContain("Restart");
  });
});
