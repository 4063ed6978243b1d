import { describe, expect, it } from "vitest";
import type { PlanOutlook } from "../src/ipc";
import { outlookCaption, renderOutlook, renderPlanHistory } from "../src/views/plan-chart";
import { dateTime } from "../src/time";

const HOUR = 3600;
/** A five-hour window that began at T0; "now" is three hours in. */
const T0 = 1_764_000_000;
const NOW = (T0 + 3 * HOUR) * 1000;
/** `at` (seconds since the epoch) as the app says it, seen at NOW. */
const when = (at: number) => dateTime(new Date(at * 1000), new Date(NOW));

function outlook(overrides: Partial<PlanOutlook> = {}): PlanOutlook {
  return {
    name: "5-hour",
    starts_at: T0,
    resets_at: T0 + 5 * HOUR,
    used: 50,
    pace: 60,
    points: [
      [T0 + HOUR, 10],
      [T0 + 2 * HOUR, 20],
      [T0 + 3 * HOUR, 50],
    ],
    burn_per_hour: 30,
    full_at: T0 + 3 * HOUR + 6000,
    ...overrides,
  };
}

describe("renderOutlook", () => {
  it("draws use as steps over the window's time, the even pace and the projection to the limit", () => {
    const figure = renderOutlook(outlook(), NOW);
    const steps = figure.querySelector("polyline.used")!.getAttribute("points")!.split(" ");
    // 600 wide for five hours, 60 high for 100%: a report every hour, holding until the next.
    expect(steps).toEqual(["120.0,54.0", "240.0,54.0", "240.0,48.0", "360.0,48.0", "360.0,30.0"]);
    const pace = figure.querySelector("line.pace")!;
    expect([pace.getAttribute("x1"), pace.getAttribute("y1"), pace.getAttribute("x2"), pace.getAttribute("y2")]).toEqual(["0", "60", "600", "0"]);
    const projection = figure.querySelector("line.projection")!;
    // From 50% now to 100% at 1h40m from now.
    expect([projection.getAttribute("x1"), projection.getAttribute("y1"), projection.getAttribute("x2"), projection.getAttribute("y2")]).toEqual([
      "360.0",
      "30.0",
      "560.0",
      "0.0",
    ]);
    expect(figure.querySelector("line.now")!.getAttribute("x1")).toBe("360.0");
    expect(figure.dataset.window).toBe("5-hour");
  });

  it("projects to where the window resets when the rate lasts, and not at all without use", () => {
    const lasting = renderOutlook(outlook({ used: 25, burn_per_hour: 5, full_at: null }), NOW);
    const projection = lasting.querySelector("line.projection")!;
    // Two hours left at 5% an hour: 35% when it resets.
    expect([projection.getAttribute("x2"), projection.getAttribute("y2")]).toEqual(["600.0", "39.0"]);
    const idle = renderOutlook(outlook({ burn_per_hour: null, full_at: null }), NOW);
    expect(idle.querySelector("line.projection")).toBeNull();
  });
});

describe("outlookCaption", () => {
  it("says how far it is against an even pace and when the limit is reached", () => {
    expect(outlookCaption(outlook(), NOW)).toBe(
      `5-hour: 50% used, behind an even pace (60% by now). At the last hour's rate (30% an hour) the limit is reached ${when(T0 + 3 * HOUR + 6000)}, 20m before it resets.`,
    );
    expect(outlookCaption(outlook({ name: "7-day", used: 70, pace: 40, burn_per_hour: 2.5, full_at: null }), NOW)).toBe(
      `7-day: 70% used, ahead of an even pace (40% by now). At the last day's rate (2.5% an hour) it lasts until it resets ${when(T0 + 5 * HOUR)}.`,
    );
    expect(outlookCaption(outlook({ used: 59, burn_per_hour: null, full_at: null }), NOW)).toBe(
      `5-hour: 59% used, on an even pace. No use in the last hour; it resets ${when(T0 + 5 * HOUR)}.`,
    );
  });
});

describe("renderPlanHistory", () => {
  it("shows each window's chart and the limits reached before, newest first", () => {
    const view = renderPlanHistory(
      {
        outlooks: [outlook(), outlook({ name: "7-day", starts_at: T0 - 6 * 86_400, resets_at: T0 + 86_400 })],
        limit_hits: [
          { name: "5-hour", at: T0 - 2 * HOUR, resets_at: T0 },
          { name: "7-day", at: T0 - 3 * 86_400, resets_at: null },
        ],
      },
      NOW,
    )!;
    expect([...view.querySelectorAll("figure")].map((f) => (f as HTMLElement).dataset.window)).toEqual(["5-hour", "7-day"]);
    const hits = [...view.querySelectorAll(".limit-hits li")].map((li) => li.textContent);
    expect(hits).toEqual([`5-hour limit reached ${when(T0 - 2 * HOUR)}, 2h 00m before it reset`, `7-day limit reached ${when(T0 - 3 * 86_400)}`]);
  });

  it("says when no limit was reached, and draws nothing before any report", () => {
    const view = renderPlanHistory({ outlooks: [outlook()], limit_hits: [] }, NOW)!;
    expect(view.querySelector("p.limit-hits")!.textContent).toBe("No limit reached in the last eight days.");
    expect(view.querySelector(".plan-legend")!.textContent).toContain("the dashed one an even pace");
    expect(view.querySelector("line.limit")!.getAttribute("y1")).toBe("0");
    expect(renderPlanHistory({ outlooks: [], limit_hits: [] }, NOW)).toBeNull();
  });
});
