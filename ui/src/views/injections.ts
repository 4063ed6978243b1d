// Injection log: what memory each session received, when and why, and exactly the text sent.
import { h, keptRows } from "../dom";
import { describeFailure, injections, memorySavings, onLiveSessions, type Injection, type Savings } from "../ipc";
import { renderSavings } from "./savings-chart";
import { projectName, shortId } from "./sessions";
import { dateTime } from "../time";

const WHY: Record<Injection["trigger"], string> = {
  clear: "after /clear",
  handoff: "handoff",
  compact: "after compaction",
};

/** Where the memory came from: the sessions before, or (a compaction) the session's own turns. */
function source(injection: Injection): string {
  const before = injection.chain.filter((id) => id !== injection.session_id);
  if (before.length > 0) return ` from ${before.map(shortId).join(" ← ")}`;
  return injection.chain.length > 0 ? " from its own recent turns" : "";
}

function renderInjection(injection: Injection): HTMLElement {
  const from = source(injection);
  const facts = [
    `${injection.size.toLocaleString()} of ${injection.budget.toLocaleString()} characters`,
    `${injection.verbatim.length} ${injection.verbatim.length === 1 ? "turn" : "turns"} verbatim`,
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
        h("span", { class: "when" }, dateTime(injection.at)),
        " ",
        h("strong", {}, projectName(injection.project)),
        ` · ${WHY[injection.trigger]} · ${shortId(injection.session_id)}${from}`,
      ),
      h("p", { class: "facts" }, facts.join(", ")),
      h("pre", { class: "text" }, injection.text),
    ),
  );
}

/** Every project in the log, in order of first appearance (the log is newest first). */
function projectsOf(log: Injection[]): string[] {
  return [...new Set(log.map((injection) => injection.project ?? ""))];
}

/** The log, narrowed to `project` when one is chosen (`null`: every project); `rows` draws its
 * entries, by default each afresh. */
export function renderInjections(
  log: Injection[],
  problem: string | null,
  project: string | null = null,
  onProject: (project: string | null) => void = () => {},
  rows: (shown: Injection[]) => HTMLElement[] = (shown) => shown.map(renderInjection),
  savings: Savings | null = null,
): HTMLElement {
  if (problem) return h("section", { class: "injections" }, h("p", { class: "problem", role: "alert" }, problem));
  if (log.length === 0) {
    return h(
      "section",
      { class: "injections" },
      h("p", { class: "empty" }, "Nothing injected yet. Memory is handed over after /clear, a handoff, or a compaction."),
    );
  }
  const choice = h("select", { id: "injection-project" }, h("option", { value: "" }, "All projects"));
  for (const folder of projectsOf(log)) {
    const option = h("option", { value: folder, title: folder }, projectName(folder || null));
    option.selected = folder === project;
    choice.append(option);
  }
  choice.addEventListener("change", () => onProject(choice.value === "" ? null : choice.value));
  const shown = project === null ? log : log.filter((injection) => (injection.project ?? "") === project);
  return h(
    "section",
    { class: "injections" },
    savings ? renderSavings(savings) : null,
    h("p", { class: "filter" }, h("label", { for: "injection-project" }, "Project "), choice),
    h("ul", {}, ...rows(shown)),
  );
}

/** Lists the injection log and rereads it whenever the store changes. */
export function mountInjections(into: HTMLElement): () => void {
  let log: Injection[] = [];
  let savings: Savings | null = null;
  let project: string | null = null;
  // An entry the person opened stays open while hooks keep writing.
  const entries = keptRows((injection: Injection) => String(injection.id), renderInjection);
  const show = (problem: string | null) =>
    into.replaceChildren(
      renderInjections(
        log,
        problem,
        project,
        (chosen) => {
          project = chosen;
          show(null);
        },
        entries,
        savings,
      ),
    );
  // The account is read again only when a memory was handed on since.
  let savingsOf = -1;
  const refresh = () =>
    injections()
      .then((latest) => {
        log = latest;
        show(null);
        const newest = latest[0]?.id ?? 0;
        if (newest !== savingsOf) {
          savingsOf = newest;
          memorySavings()
            .then((read) => {
              savings = read;
              show(null);
            })
            .catch(() => (savings = null));
        }
      })
      .catch((error) => show(describeFailure("read the injection log", error)));
  into.replaceChildren(h("p", { class: "loading" }, "Reading the injection log…"));
  refresh();
  const unlisten = onLiveSessions(refresh);
  return () => void unlisten.then((stop) => stop());
}
