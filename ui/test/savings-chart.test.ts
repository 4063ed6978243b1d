import { describe, expect, it } from "vitest";
import type { HandedOn } from "../src/ipc";
import { renderSavings } from "../src/views/savings-chart";

function handed(overrides: Partial<HandedOn> = {}): HandedOn {
  return {
    session_id: "b",
    project: "/work/toy",
    trigger: "clear",
    at: "2026-12-02T10:20:00Z",
    injected: 4_000,
    before: 150_000,
    after: 21_000,
    requests: 3,
    saved: 387_000,
    ...overrides,
  };
}

describe("renderSavings", () => {
  it("draws the request before and the first after each memory, the memory's part marked", () => {
    const figure = renderSavings({ handed: [handed(), handed({ before: 100_000, after: 30_000, injected: 9_000, saved: 70_000 })], injected: 13_000, saved: 457_000 })!;
    const heights = (cls: string) => [...figure.querySelectorAll(`rect.${cls}`)].map((r) => r.getAttribute("height"));
    // Scaled to the largest context, 150k, at 100 high.
    expect(heights("before")).toEqual(["100.0", "66.7"]);
    expect(heights("after")).toEqual(["14.0", "20.0"]);
    expect(heights("memory")).toEqual(["2.7", "6.0"]);
    expect([...figure.querySelectorAll("rect.before")].map((r) => r.getAttribute("x"))).toEqual(["0.0", "36.0"]);
    expect(figure.querySelector("rect.after title")!.textContent).toBe("21k in the first request after, 4k of it the memory");
    expect(figure.querySelector("figcaption")!.textContent).toBe(
      "Last 7 days: 2 memories handed on, 13k tokens of memory; the requests after them carried 457k fewer tokens than they would have with the context before. Each pair: the last request before (grey), the first after (the memory in it darker).",
    );
  });

  it("draws nothing until a memory has a request on each side", () => {
    expect(renderSavings({ handed: [], injected: 0, saved: 0 })).toBeNull();
    expect(renderSavings({ handed: [handed({ before: null }), handed({ after: null })], injected: 8_000, saved: 0 })).toBeNull();
  });
});
