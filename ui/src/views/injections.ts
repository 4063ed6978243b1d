// Injection log: what memory each session received, when and why, and exactly the text sent.
import { h } from "../dom";
import { describeFailure, injections, onLiveSessions, type Injection } from "../ipc";
import { clockTime, projectName } from "./sessions";

const WHY: Record<Injection["trigger"], string> = {
  clear: "after /clear",
  handoff: "handoff",
  compact: "after compaction",
};

function shortId(id: string): string {
  return id.slice(0, 8);
}

function renderInjection(injection: Injection): HTMLElement {
  const from = injection.chain.length > 0 ? ` from ${injection.chain.map(shortId).join(" ← ")}` : "";
  const facts = [
    `${injection.size.toLocaleString()} of ${injection.budget.toLocaleString()} characters`,
    `${injection.verbatim.length} turns verbatim`,
    `${injection.one_liners.length} as one-liners`,
    injection.left_out > 0 ? `${injection.left_out} left out` : null,
  ].filter(Boolean);
  return h(
    "li",
    { class: "injection", "data-injection": String(injection.id) },
    h(
      "details",
      {},
      h(
        "summary",
        {},
        h("span", { class: "when" }, clockTime(injection.at)),
        " ",
        h("strong", {}, projectName(injection.project)),
        ` · ${WHY[injection.trigger]} · ${shortId(injection.session_id)}${from}`,
      ),
      h("p", { class: "facts" }, facts.join(", ")),
      h("pre", { class: "text" }, injection.text),
    ),
  );
}

export function renderInjections(log: Injection[], problem: string | null): HTMLElement {
  if (problem) return h("section", { class: "injections" }, h("p", { class: "problem", role: "alert" }, problem));
  if (log.length === 0) {
    return h(
      "section",
      { class: "injections" },
      h("p", { class: "empty" }, "Nothing injected yet. Memory is handed over after /clear, a handoff, or a compaction."),
    );
  }
  return h("section", { class: "injections" }, h("ul", {}, ...log.map(renderInjection)));
}

/** Lists the injection log and rereads it whenever the store changes. */
export function mountInjections(into: HTMLElement): () => void {
  const refresh = () =>
    injections()
      .then((log) => into.replaceChildren(renderInjections(log, null)))
      .catch((error) => into.replaceChildren(renderInjections([], describeFailure("read the injection log", error))));
  into.replaceChildren(h("p", { class: "loading" }, "Reading the injection log…"));
  refresh();
  const unlisten = onLiveSessions(refresh);
  return () => void unlisten.then((stop) => stop());
}
