import { emit } from "@tauri-apps/api/event";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, describe, expect, it } from "vitest";
import { LIVE_SESSIONS_EVENT } from "../src/ipc";
import { mountSessions, renderSessions } from "../src/views/sessions";
import { meter, settle, snapshot } from "./fixtures";

afterEach(() => clearMocks());

describe("renderSessions", () => {
  it("draws a gauge with the project, model, usage and turns of each live session", () => {
    const view = renderSessions(
      snapshot([meter(), meter({ session_id: "b", project: "/work/api", percent: 85, level: "full", usage: "170k/200k", turns: 1 })]),
    );
    const sessions = view.querySelectorAll("li.session");
    expect(sessions).toHaveLength(2);
    const first = sessions[0];
    expect(first.querySelector("h2")!.textContent).toBe("toy");
    expect(first.querySelector("h2")!.getAttribute("title")).toBe("/home/dev/toy");
    expect(first.querySelector(".model")!.textContent).toBe("claude-opus-4-8");
    expect(first.querySelector(".usage")!.textContent).toBe("52k/200k tokens of context");
    expect(first.querySelector(".turns")!.textContent).toBe("5 turns in memory");
    expect(first.querySelector("svg.gauge text")!.textContent).toBe("26%");
    expect(sessions[1].querySelector("svg.gauge")!.getAttribute("class")).toBe("gauge full");
    expect(sessions[1].querySelector(".turns")!.textContent).toBe("1 turn in memory");
  });

  it("fills the gauge in proportion to the context used", () => {
    const arc = (percent: number) => {
      const view = renderSessions(snapshot([meter({ percent })]));
      const [filled, whole] = view.querySelector("circle.fill")!.getAttribute("stroke-dasharray")!.split(" ").map(Number);
      return filled / whole;
    };
    expect(arc(0)).toBe(0);
    expect(arc(26)).toBeCloseTo(0.26, 3);
    expect(arc(100)).toBeCloseTo(1, 3);
  });

  it("says what to do when there is no store, instead of an empty list", () => {
    const view = renderSessions(snapshot([], "No memory yet: run `throughline import`."));
    expect(view.querySelector("[role=alert]")!.textContent).toContain("throughline import");
    expect(view.querySelector("li")).toBeNull();
  });

  it("explains an empty list", () => {
    expect(renderSessions(snapshot([])).querySelector(".empty")!.textContent).toContain("No live sessions");
  });
});

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
    expect(alert).toContain("Could not read the live sessions");
    expect(alert).toContain("throughline status");
  });
});
