import { describe, expect, it } from "vitest";
import type { ContextHistory } from "../src/ipc";
import { renderContextChart, tokens } from "../src/views/context-chart";

function history(overrides: Partial<ContextHistory> = {}): ContextHistory {
  return {
    points: [
      { turn: "a1", at: "2026-12-02T10:00:00.000Z", tokens: 20_000 },
      { turn: "a2", at: "2026-12-02T10:05:00.000Z", tokens: 180_000 },
      { turn: "a3", at: "2026-12-02T10:09:00.000Z", tokens: 367_000 },
      { turn: "a4", at: "2026-12-02T10:12:00.000Z", tokens: 40_000 },
    ],
    marks: [{ kind: "compact", at: "2026-12-02T10:10:00.000Z", before_point: 3 }],
    measured: true,
    window: 1_000_000,
    compacts_at: 367_000,
    compacts_by: "client",
    ...overrides,
  };
}

describe("renderContextChart", () => {
  it("draws each request's context against the compaction line, with the compactions marked", () => {
    const figure = renderContextChart(history())!;
    const points = figure.querySelector("polyline.used")!.getAttribute("points")!.split(" ");
    expect(points).toHaveLength(4);
    // The peak reaches the compaction line, at the top; the first request sits low.
    expect(points[2]).toBe("400.0,0.0");
    expect(points[0]).toBe("0.0,113.5");
    expect(figure.querySelector("line.limit")!.getAttribute("y1")).toBe("0.0");
    const mark = figure.querySelector("line.mark.compact")!;
    expect(mark.getAttribute("x1")).toBe("600.0");
    expect(mark.querySelector("title")!.textContent).toContain("Compacted at 2026-12-02T10:10");
    expect(figure.querySelector("figcaption")!.textContent).toBe(
      "Context per request: peak 367k of 1M; the dashed line is where the client compacts by itself, 367k · 1 compaction",
    );
  });

  it("marks the /clear that ended the session at its last request, named on hover and in the caption", () => {
    const cleared = { kind: "clear" as const, at: "2026-12-02T10:15:01.000Z", before_point: 4 };
    const figure = renderContextChart(history({ marks: [cleared] }))!;
    const mark = figure.querySelector("line.mark.clear")!;
    // After the last of the four requests: drawn where the line ends.
    expect([mark.getAttribute("x1"), mark.getAttribute("x2")]).toEqual(["600.0", "600.0"]);
    expect(mark.querySelector("title")!.textContent).toBe("Cleared with /clear at 2026-12-02T10:15:01.000Z");
    expect(figure.querySelector("line.mark.compact")).toBeNull();
    expect(figure.querySelector("figcaption")!.textContent).toBe(
      "Context per request: peak 367k of 1M; the dashed line is where the client compacts by itself, 367k · ended by /clear",
    );
    expect(figure.querySelector("svg")!.getAttribute("aria-label")).toContain("ended by /clear");
  });

  it("tells a compaction, a handoff and each /clear of a resumed session apart", () => {
    const marks = [
      { kind: "clear" as const, at: "2026-12-02T10:06:00.000Z", before_point: 2 },
      { kind: "compact" as const, at: "2026-12-02T10:10:00.000Z", before_point: 3 },
      { kind: "handoff" as const, at: "2026-12-02T10:13:00.000Z", before_point: 4 },
      { kind: "clear" as const, at: "2026-12-02T10:14:00.000Z", before_point: 4 },
    ];
    const figure = renderContextChart(history({ marks }))!;
    const drawn = [...figure.querySelectorAll("line.mark")].map((m) => [m.getAttribute("class"), m.getAttribute("x1"), m.querySelector("title")!.textContent]);
    expect(drawn).toEqual([
      ["mark clear", "400.0", "Cleared with /clear at 2026-12-02T10:06:00.000Z"],
      ["mark compact", "600.0", "Compacted at 2026-12-02T10:10:00.000Z"],
      ["mark handoff", "600.0", "Handed on at 2026-12-02T10:13:00.000Z"],
      ["mark clear", "600.0", "Cleared with /clear at 2026-12-02T10:14:00.000Z"],
    ]);
    expect(figure.querySelector("figcaption")!.textContent).toMatch(/ · 1 compaction · handed on to a new chat · cleared 2 times with \/clear$/);
  });

  it("scales to the threshold, so a session far from it looks far from it", () => {
    const figure = renderContextChart(history({ compacts_at: 734_000, compacts_by: "threshold", marks: [] }))!;
    expect(figure.querySelector("polyline.used")!.getAttribute("points")).toContain("400.0,60.0");
    expect(figure.querySelector("figcaption")!.textContent).toContain("the auto-compact threshold, 734k");
    expect(figure.querySelector("line.mark")).toBeNull();
  });

  it("draws nothing for one request or a host that reports no usage", () => {
    expect(renderContextChart(history({ points: history().points.slice(0, 1) }))).toBeNull();
    expect(renderContextChart(history({ measured: false }))).toBeNull();
  });

  it("writes token counts short", () => {
    expect([tokens(850), tokens(367_400), tokens(1_000_000), tokens(1_250_000)]).toEqual(["850", "367k", "1M", "1.3M"]);
  });
});
