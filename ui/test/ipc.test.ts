import { describe, expect, it } from "vitest";
import { describeFailure } from "../src/ipc";

describe("describeFailure", () => {
  it("keeps the app's own advice, with one full stop and no blanket restart", () => {
    const said = describeFailure("read the live sessions", "The memory store is locked by another program. Throughline tries again in a few seconds; if this stays, close that program.");
    expect(said).toBe("Could not read the live sessions: The memory store is locked by another program. Throughline tries again in a few seconds; if this stays, close that program.");
    expect(said).not.toContain("..");
    expect(said).not.toContain("Restart");
  });

  it("points a bare failure at the doctor", () => {
    const said = describeFailure("hand off the session", new Error("IPC channel closed."));
    expect(said).toBe("Could not hand off the session: IPC channel closed. `throughline doctor` says what is wrong and how to fix it.");
  });
});
