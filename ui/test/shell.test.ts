import { describe, expect, it } from "vitest";
import { mountShell, type View } from "../src/shell";

function view(id: string, log: string[]): View {
  return {
    id,
    title: id.toUpperCase(),
    mount(into) {
      log.push(`mount ${id}`);
      into.textContent = `${id} view`;
      return () => log.push(`unmount ${id}`);
    },
  };
}

describe("mountShell", () => {
  it("opens the first view and swaps views by tab, undoing the one it leaves", () => {
    const log: string[] = [];
    const root = document.createElement("div");
    mountShell(root, [view("sessions", log), view("settings", log)]);
    const tabs = root.querySelectorAll<HTMLButtonElement>("[role=tab]");
    expect([...tabs].map((t) => t.textContent)).toEqual(["SESSIONS", "SETTINGS"]);
    expect(root.querySelector("main")!.textContent).toBe("sessions view");
    expect(tabs[0].getAttribute("aria-selected")).toBe("true");

    tabs[1].click();
    expect(root.querySelector("main")!.textContent).toBe("settings view");
    expect(tabs[1].getAttribute("aria-selected")).toBe("true");
    expect(tabs[0].getAttribute("aria-selected")).toBe("false");
    expect(log).toEqual(["mount sessions", "unmount sessions", "mount settings"]);
  });
});
