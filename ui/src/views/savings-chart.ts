// What the memory cost and what it saved, as a picture: for each memory handed on in the last
// week, the context of the request before it beside the first request after it, the memory's
// own part marked. Plain SVG from the library's numbers; the caption says the same in words.
import { h, svg } from "../dom";
import type { HandedOn, Savings } from "../ipc";
import { tokens } from "./context-chart";

const HEIGHT = 100;
/** Width of one memory's pair of bars, and the gap after it. */
const PAIR = 24;
const GAP = 12;
/** Pairs drawn at most: the latest. */
const SHOWN = 20;

function rect(cls: string, x: number, height: number, title: string): SVGElement {
  const bar = svg("rect", { class: cls, x: x.toFixed(1), y: (HEIGHT - height).toFixed(1), width: String(PAIR / 2 - 2), height: height.toFixed(1) });
  const hover = svg("title", {});
  hover.textContent = title;
  bar.append(hover);
  return bar;
}

/** The chart and its caption; `null` before any memory was handed on with a request on each side. */
export function renderSavings(savings: Savings): HTMLElement | null {
  const measured = savings.handed.filter((m): m is HandedOn & { before: number; after: number } => m.before !== null && m.after !== null).slice(-SHOWN);
  if (measured.length === 0) return null;
  const top = Math.max(...measured.map((m) => Math.max(m.before, m.after)), 1);
  const y = (t: number) => (t / top) * HEIGHT;
  const bars = measured.flatMap((m, i) => {
    const x = i * (PAIR + GAP);
    const memory = Math.min(m.injected, m.after);
    return [
      rect("before", x, y(m.before), `${m.at}: ${tokens(m.before)} in the last request before`),
      rect("after", x + PAIR / 2, y(m.after), `${tokens(m.after)} in the first request after, ${tokens(memory)} of it the memory`),
      rect("memory", x + PAIR / 2, y(memory), `the memory: ${tokens(memory)}`),
    ];
  });
  const width = measured.length * (PAIR + GAP) - GAP;
  const n = savings.handed.length;
  const caption =
    `Last 7 days: ${n} ${n === 1 ? "memory" : "memories"} handed on, ${tokens(savings.injected)} tokens of memory; ` +
    `the requests after them carried ${tokens(savings.saved)} fewer tokens than they would have with the context before. ` +
    "Each pair: the last request before (grey), the first after (the memory in it darker).";
  const chart = svg("svg", { class: "savings-chart", viewBox: `0 0 ${width} ${HEIGHT}`, role: "img", "aria-label": caption, style: `max-width: ${width * 1.5}px` }, ...bars);
  return h("figure", { class: "savings" }, chart, h("figcaption", {}, caption));
}
