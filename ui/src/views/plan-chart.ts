// The plan windows over time, as pictures: each window's use since it began against the even
// pace that lasts exactly until it resets, where the recent burn rate takes it, and the limits
// reached before. Plain SVG from the library's numbers; each caption says the same in words.
import { h, svg } from "../dom";
import type { LimitHit, PlanHistory, PlanOutlook } from "../ipc";
import { dateTime } from "../time";

const WIDTH = 600;
const HEIGHT = 60;

/** When `at` (seconds since the epoch) is, as the rest of the app says a time. */
function when(at: number, now: number): string {
  return dateTime(new Date(at * 1000), new Date(now));
}

/** `2h 05m`, `3d 4h`, `now` until `resetsAt` (seconds since the epoch). */
export function countdown(resetsAt: number, now: number = Date.now()): string {
  const secs = Math.max(0, Math.round(resetsAt - now / 1000));
  if (secs === 0) return "now";
  if (secs < 3600) return `${Math.ceil(secs / 60)}m`;
  if (secs < 86_400) return `${Math.floor(secs / 3600)}h ${String(Math.floor((secs % 3600) / 60)).padStart(2, "0")}m`;
  return `${Math.floor(secs / 86_400)}d ${Math.floor((secs % 86_400) / 3600)}h`;
}

/** What the window's numbers say, in one sentence or two. */
export function outlookCaption(o: PlanOutlook, now: number = Date.now()): string {
  const used = Math.round(o.used);
  const pace = Math.round(o.pace);
  const against = used > pace + 2 ? `ahead of an even pace (${pace}% by now)` : used < pace - 2 ? `behind an even pace (${pace}% by now)` : "on an even pace";
  const recent = o.name === "5-hour" ? "the last hour" : "the last day";
  let outlook: string;
  if (o.burn_per_hour !== null) {
    const rate = `At ${recent}'s rate (${o.burn_per_hour.toFixed(o.burn_per_hour < 10 ? 1 : 0)}% an hour)`;
    outlook =
      o.full_at !== null
        ? `${rate} the limit is reached ${when(o.full_at, now)}, ${countdown(o.resets_at, o.full_at * 1000)} before it resets.`
        : `${rate} it lasts until it resets ${when(o.resets_at, now)}.`;
  } else {
    outlook = `No use in ${recent}; it resets ${when(o.resets_at, now)}.`;
  }
  return `${o.name}: ${used}% used, ${against}. ${outlook}`;
}

/** One window's chart: use over the window's time, the even pace dashed, the projection dotted. */
export function renderOutlook(o: PlanOutlook, now: number = Date.now()): HTMLElement {
  const length = Math.max(1, o.resets_at - o.starts_at);
  const x = (t: number) => (Math.min(Math.max(t - o.starts_at, 0), length) / length) * WIDTH;
  const y = (percent: number) => HEIGHT - (Math.min(Math.max(percent, 0), 100) / 100) * HEIGHT;
  const at = (t: number, p: number) => `${x(t).toFixed(1)},${y(p).toFixed(1)}`;
  // Use steps up at each report: it held its last value until the next one.
  const steps: string[] = [];
  o.points.forEach(([t, p], i) => {
    if (i > 0) steps.push(at(t, o.points[i - 1][1]));
    steps.push(at(t, p));
  });
  const caption = outlookCaption(o, now);
  const nowAt = Math.min(now / 1000, o.resets_at);
  const lines = [
    svg("line", { class: "limit", x1: "0", y1: "0", x2: String(WIDTH), y2: "0", "vector-effect": "non-scaling-stroke" }),
    svg("line", { class: "pace", x1: "0", y1: String(HEIGHT), x2: String(WIDTH), y2: "0", "vector-effect": "non-scaling-stroke" }),
    svg("line", { class: "now", x1: x(nowAt).toFixed(1), x2: x(nowAt).toFixed(1), y1: "0", y2: String(HEIGHT), "vector-effect": "non-scaling-stroke" }),
  ];
  if (o.burn_per_hour !== null) {
    // To the limit when the rate reaches it first, else to where the window resets.
    const end = o.full_at ?? o.resets_at;
    const reached = o.full_at !== null ? 100 : o.used + (o.burn_per_hour * (o.resets_at - nowAt)) / 3600;
    lines.push(svg("line", { class: "projection", x1: x(nowAt).toFixed(1), y1: y(o.used).toFixed(1), x2: x(end).toFixed(1), y2: y(reached).toFixed(1), "vector-effect": "non-scaling-stroke" }));
  }
  const chart = svg(
    "svg",
    { class: "plan-chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, preserveAspectRatio: "none", role: "img", "aria-label": caption },
    ...lines,
    svg("polyline", { class: "used", points: steps.join(" "), "vector-effect": "non-scaling-stroke" }),
  );
  return h("figure", { class: "plan-outlook", "data-window": o.name }, chart, h("figcaption", {}, caption));
}

function hitLine(hit: LimitHit, now: number): string {
  const wait = hit.resets_at !== null && hit.resets_at > hit.at ? `, ${countdown(hit.resets_at, hit.at * 1000)} before it reset` : "";
  return `${hit.name} limit reached ${when(hit.at, now)}${wait}`;
}

/** Every window's chart and the limits reached before; `null` with nothing recorded. */
export function renderPlanHistory(history: PlanHistory, now: number = Date.now()): HTMLElement | null {
  if (history.outlooks.length === 0 && history.limit_hits.length === 0) return null;
  const hits = history.limit_hits.slice(0, 5);
  const legend = history.outlooks.length
    ? h("p", { class: "hint plan-legend" }, "Each window from its start to its reset: the solid line is its use, the dashed one an even pace, the dotted one the recent rate; the top is the limit.")
    : null;
  return h(
    "div",
    { class: "plan-history" },
    ...history.outlooks.map((o) => renderOutlook(o, now)),
    legend,
    hits.length
      ? h("ul", { class: "limit-hits" }, ...hits.map((hit) => h("li", {}, hitLine(hit, now))))
      : h("p", { class: "hint limit-hits" }, "No limit reached in the last eight days."),
  );
}
