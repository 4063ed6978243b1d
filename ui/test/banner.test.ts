import { emit } from "@tauri-apps/api/event";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, describe, expect, it } from "vitest";
import { mountBanner } from "../src/banner";
import { PROBLEM_EVENT } from "../src/ipc";
import { settle } from "./fixtures";

afterEach(() => {
  clearMocks();
  document.body.replaceChildren();
});

describe("mountBanner", () => {
  it("shows a problem reported from the tray until it is dismissed", async () => {
    mockIPC(() => {}, { shouldMockEvents: true });
    const into = document.createElement("div");
    document.body.append(into);
    mountBanner(into);
    await settle();
    await emit(PROBLEM_EVENT, "Cannot read the memory store: disk full.");
    await settle();
    expect(into.querySelector("[role=alert]")!.textContent).toContain("disk full");
    into.querySelector<HTMLButtonElement>("button.dismiss")!.click();
    expect(into.querySelector("[role=alert]")).toBeNull();
  });

  it("shows the problem that opened a closed window, once", async () => {
    let pending: string | null = "Cannot hand off: the session has no turns yet.";
    mockIPC(
      (cmd) => {
        if (cmd !== "pending_problem") return undefined;
        const message = pending;
        pending = null;
        return message;
      },
      { shouldMockEvents: true },
    );
    const into = document.createElement("div");
    document.body.append(into);
    mountBanner(into);
    await settle();
    expect(into.querySelector("[role=alert]")!.textContent).toContain("has no turns yet");
    into.replaceChildren();
    mountBanner(into);
    await settle();
    expect(into.querySelector("[role=alert]")).toBeNull();
  });
});
