import { emit } from "@tauri-apps/api/event";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, describe, expect, it } from "vitest";
import { LIVE_SESSIONS_EVENT, type Injection } from "../src/ipc";
import { mountInjections, renderInjections } from "../src/views/injections";
import { settle, snapshot } from "./fixtures";

afterEach(() => clearMocks());

function injection(overrides: Partial<Injection> = {}): Injection {
  return {
    id: 7,
    session_id: "0f1b393e-f41a-4e1e-9a85-60441f844f13",
    project: "/home/dev/toy",
    trigger: "clear",
    at: "2026-11-30T08:43:58.000Z",
    chain: ["f839b538-b1ae-45df-beaa-8b044d1f240c"],
    budget: 9500,
    size: 4210,
    verbatim: ["k3m9", "p2x8"],
    one_liners: ["a1b2"],
    left_out: 0,
    text: "## Throughline memory\nEarlier in this project…",
    ...overrides,
  };
}

describe("renderInjections", () => {
  it("dates entries that are not from today, and a compaction comes from the session's own turns", () => {
    const view = renderInjections(
      [injection({ id: 9, trigger: "compact", chain: ["0f1b393e-f41a-4e1e-9a85-60441f844f13"], at: "2025-01-02T10:00:00.000Z" })],
      null,
    );
    const summary = view.querySelector("summary")!.textContent!;
    expect(summary).toContain("2025");
    expect(summary).toContain("0f1b393e from its own recent turns");
    expect(summary).not.toContain("from 0f1b393e");
  });

  it("says who received what, why, how big, and shows the exact text", () => {
    const view = renderInjections([injection(), injection({ id: 8, trigger: "handoff", left_out: 3, chain: [] })], null);
    const rows = view.querySelectorAll("li.injection");
    expect(rows).toHaveLength(2);
    const summary = rows[0].querySelector("summary")!.textContent!;
    expect(summary).toContain("toy");
    expect(summary).toContain("after /clear");
    expect(summary).toContain("0f1b393e from f839b538");
    expect(rows[0].querySelector(".facts")!.textContent).toBe("4,210 of 9,500 characters, 2 turns verbatim, 1 as one-liners");
    expect(rows[0].querySelector("pre")!.textContent).toContain("## Throughline memory");
    expect(rows[1].querySelector("summary")!.textContent).toContain("handoff");
    expect(rows[1].querySelector(".facts")!.textContent).toContain("3 left out");
    const single = renderInjections([injection({ verbatim: ["k3m9"] })], null).querySelector(".facts")!.textContent;
    expect(single).toContain("1 turn verbatim");
  });

  it("explains an empty log and shows problems instead of rows", () => {
    expect(renderInjections([], null).querySelector(".empty")!.textContent).toContain("Nothing injected yet");
    expect(renderInjections([], "No memory yet.").querySelector("[role=alert]")!.textContent).toBe("No memory yet.");
  });
});

/** The view mounted on a mocked app whose log is whatever `log` returns when asked. */
async function mounted(log: () => Injection[]): Promise<HTMLElement> {
  mockIPC(
    (cmd) => {
      if (cmd === "injections") return log();
    },
    { shouldMockEvents: true },
  );
  const into = document.createElement("div");
  mountInjections(into);
  await settle();
  return into;
}

/** What the app tells the window when a hook writes to the store. */
async function storeChanged(): Promise<void> {
  await emit(LIVE_SESSIONS_EVENT, snapshot([]));
  await settle();
}

describe("mountInjections", () => {
  it("shows what the memory cost and saved, read again only when a memory was handed on", async () => {
    let log = [injection()];
    let reads = 0;
    mockIPC(
      (cmd) => {
        if (cmd === "injections") return log;
        if (cmd === "memory_savings") {
          reads += 1;
          return {
            handed: [{ session_id: "b", project: "/home/dev/toy", trigger: "clear", at: "2026-11-30T08:43:58.000Z", injected: 1_000, before: 150_000, after: 21_000, requests: 3, saved: 387_000 }],
            injected: 1_000,
            saved: 387_000,
          };
        }
      },
      { shouldMockEvents: true },
    );
    const into = document.createElement("div");
    mountInjections(into);
    await settle();
    await settle();
    expect(into.querySelector("figure.savings figcaption")!.textContent).toContain("carried 387k fewer tokens");
    await storeChanged();
    expect(reads).toBe(1);
    log = [injection({ id: 9 }), ...log];
    await storeChanged();
    expect(reads).toBe(2);
    expect(into.querySelector("figure.savings")).not.toBeNull();
  });

  it("reads the log from the app and rereads it when the store changes", async () => {
    let log = [injection()];
    const into = await mounted(() => log);
    expect(into.querySelectorAll("li.injection")).toHaveLength(1);
    log = [injection({ id: 9 }), injection()];
    await storeChanged();
    expect(into.querySelectorAll("li.injection")).toHaveLength(2);
  });

  it("narrows the log to one project and keeps the choice when the log is reread", async () => {
    let log = [injection({ id: 1 }), injection({ id: 2, project: "/work/api" }), injection({ id: 3 })];
    const into = await mounted(() => log);
    document.body.append(into);
    const ids = () => [...into.querySelectorAll<HTMLElement>("li.injection")].map((row) => row.dataset.injection);
    expect(ids()).toEqual(["1", "2", "3"]);
    const choice = into.querySelector<HTMLSelectElement>("#injection-project")!;
    expect([...choice.options].map((o) => o.textContent)).toEqual(["All projects", "toy", "api"]);
    choice.value = "/work/api";
    choice.dispatchEvent(new Event("change"));
    expect(ids()).toEqual(["2"]);
    log = [injection({ id: 4, project: "/work/api" }), ...log];
    await storeChanged();
    expect(ids()).toEqual(["4", "2"]);
    expect(into.querySelector<HTMLSelectElement>("#injection-project")!.value).toBe("/work/api");
    into.remove();
  });

  it("keeps an opened entry open, as the same element, while hooks keep writing", async () => {
    let log = [injection({ id: 1 })];
    const into = await mounted(() => log);
    const opened = into.querySelector<HTMLElement>("li.injection")!;
    opened.querySelector("details")!.open = true;

    await storeChanged();
    log = [injection({ id: 2 }), ...log];
    await storeChanged();
    const rows = into.querySelectorAll<HTMLElement>("li.injection");
    expect([...rows].map((row) => row.dataset.injection)).toEqual(["2", "1"]);
    expect(rows[1]).toBe(opened);
    expect(rows[1].querySelector("details")!.open).toBe(true);
    expect(rows[0].querySelector("details")!.open).toBe(false);
  });

  it("turns a failure into advice", async () => {
    mockIPC(
      (cmd) => {
        if (cmd === "injections") throw new Error("database disk image is malformed");
      },
      { shouldMockEvents: true },
    );
    const into = document.createElement("div");
    mountInjections(into);
    await settle();
    expect(into.querySelector("[role=alert]")!.textContent).toContain("Could not read the injection log: database disk image is malformed");
  });
});
