// Where a session's tokens went, as a picture: the context of each request over the session,
// the line where its client compacts, and the moments it compacted, was handed on or cleared.
// Plain SVG drawn from the library's numbers; the caption says the same in words.
import { h, svg } from "../dom";
import type { ContextHistory, ContextMark } from "../ipc";

const WIDTH = 600;
const HEIGHT = 120;

/** What each mark says on hover, before its time. */
const MARK_NAMES: Record<ContextMark["kind"], string> = {
  compact: "Compacted",
  handoff: "Handed on",
  clear: "Cleared with /clear",
};

/** `367k`, `1M`, `1.2M`, `850`. */
export function tokens(n: number): string {
  if (n >= 1_000_000) return `${Number((n / 1_000_000).toFixed(1))}M`;
  if (n >= 1_000) return `${Math.round(n / 1_000)}k`;
  return String(n);
}

/** The chart, or `null` when there is nothing to draw (no usage reported, one request). */
export function renderContextChart(history: ContextHistory): HTMLElement | null {
  const { points, marks } = history;
  if (!history.measured || points.length < 2) return null;
  const peak = Math.max(...points.map((p) => p.tokens));
  // The scale reaches the compaction line, so a session far from it looks far from it.
  const top = Math.max(peak, history.compacts_at, 1);
  const x = (i: number) => (i / (points.length - 1)) * WIDTH;
  const y = (t: number) => HEIGHT - (t / top) * HEIGHT;
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.tokens).toFixed(1)}`).join(" ");
  const limit = y(history.compacts_at).toFixed(1);
  const compactions = marks.filter((m) => m.kind === "compact").length;
  const handedOn = marks.some((m) => m.kind === "handoff");
  const clears = marks.filter((m) => m.kind === "clear").length;
  const where =
    history.compacts_by === "threshold"
      ? "the auto-compact threshold"
      : history.compacts_by === "client"
        ? "where the client compacts by itself"
        : "the end of the window";
  const caption = [
    `Context per request: peak ${tokens(peak)} of ${tokens(history.window)}; the dashed line is ${where}, ${tokens(history.compacts_at)}`,
    compactions ? `${compactions} ${compactions === 1 ? "compaction" : "compactions"}` : null,
    handedOn ? "handed on to a new chat" : null,
    clears ? (clears === 1 ? "ended by /clear" : `cleared ${clears} times with /clear`) : null,
  ]
    .filter(Boolean)
    .join(" · ");
  const chart = svg(
    "svg",
    { class: "context-chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, preserveAspectRatio: "none", role: "img", "aria-label": caption },
    svg("line", { class: "limit", x1: "0", x2: String(WIDTH), y1: limit, y2: limit, "vector-effect": "non-scaling-stroke" }),
    ...marks.map((mark) => {
      const at = x(Math.min(mark.before_point, points.length - 1)).toFixed(1);
      // Named on hover.
      const title = svg("title", {});
      title.textContent = `${MARK_NAMES[mark.kind]} at ${mark.at}`;
      return svg("line", { class: `mark ${mark.kind}`, x1: at, x2: at, y1: "0", y2: String(HEIGHT), "vector-effect": "non-scaling-stroke" }, title);
    }),
    svg("polyline", { class: "used", points: line, "vector-effect": "non-scaling-stroke" }),
  );
  return h("figure", { class: "context" }, chart, h("figcaption", {}, caption));
}
