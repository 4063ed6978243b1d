// Sessions: a gauge per live session, so a person sees which chat is close to auto-compaction.
import { h, svg } from "../dom";
import { describeFailure, liveSessions, onLiveSessions, type SessionMeter, type Snapshot } from "../ipc";

const RADIUS = 26;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

export function renderGauge(meter: SessionMeter): SVGElement {
  const filled = (Math.min(meter.percent, 100) / 100) * CIRCUMFERENCE;
  return svg(
    "svg",
    { class: `gauge ${meter.level}`, viewBox: "0 0 64 64", role: "img", "aria-label": `${meter.percent}% of the context window used` },
    svg("circle", { class: "track", cx: "32", cy: "32", r: String(RADIUS) }),
    svg("circle", {
      class: "fill",
      cx: "32",
      cy: "32",
      r: String(RADIUS),
      "stroke-dasharray": `${filled.toFixed(2)} ${CIRCUMFERENCE.toFixed(2)}`,
      transform: "rotate(-90 32 32)",
    }),
    svg("text", { x: "32", y: "37", "text-anchor": "middle" }),
  );
}

function projectName(project: string | null): string {
  return project?.split("/").filter(Boolean).pop() ?? "(unknown project)";
}

function renderSession(meter: SessionMeter): HTMLElement {
  const gauge = renderGauge(meter);
  gauge.querySelector("text")!.textContent = `${meter.percent}%`;
  return h(
    "li",
    { class: "session", "data-session": meter.session_id },
    gauge,
    h(
      "div",
      { class: "facts" },
      h("h2", { title: meter.project ?? "" }, projectName(meter.project)),
      h("p", { class: "model" }, meter.model ?? "unknown model"),
      h("p", { class: "usage" }, `${meter.usage} tokens of context`),
      h("p", { class: "turns" }, `${meter.turns} ${meter.turns === 1 ? "turn" : "turns"} in memory`),
    ),
  );
}

export function renderSessions(snapshot: Snapshot): HTMLElement {
  if (snapshot.problem) {
    return h("section", { class: "sessions" }, h("p", { class: "problem", role: "alert" }, snapshot.problem));
  }
  if (snapshot.sessions.length === 0) {
    return h(
      "section",
      { class: "sessions" },
      h("p", { class: "empty" }, "No live sessions. A session shows here while an agent works in it and for 30 minutes after."),
    );
  }
  return h("section", { class: "sessions" }, h("ul", {}, ...snapshot.sessions.map(renderSession)));
}

/** Shows the live sessions in `into` and keeps them current; returns the clean-up. */
export function mountSessions(into: HTMLElement): () => void {
  const show = (snapshot: Snapshot) => into.replaceChildren(renderSessions(snapshot));
  into.replaceChildren(h("p", { class: "loading" }, "Reading the memory store…"));
  liveSessions()
    .then(show)
    .catch((error) => show({ sessions: [], problem: describeFailure("read the live sessions", error) }));
  const unlisten = onLiveSessions(show);
  return () => void unlisten.then((stop) => stop());
}
