import { describe, expect, it } from "vitest";
import { clockTime, dateTime } from "../src/time";

describe("dateTime", () => {
  const now = new Date(2026, 11, 3, 14, 5);
  const at = (days: number) => new Date(2026, 11, 3 + days, 9, 30);
  const clock = clockTime(at(0));

  it("names the days next to today and gives the clock", () => {
    expect(dateTime(at(0), now)).toBe(`today ${clock}`);
    expect(dateTime(at(-1), now)).toBe(`yesterday ${clock}`);
    expect(dateTime(at(1), now)).toBe(`tomorrow ${clock}`);
  });

  it("names a weekday within a week either way, and the date further off", () => {
    expect(dateTime(at(-3), now)).toMatch(new RegExp(`^[^\\d\\s]+ ${clock}$`));
    expect(dateTime(at(4), now)).toMatch(new RegExp(`^[^\\d\\s]+ ${clock}$`));
    expect(dateTime(at(-20), now)).toMatch(new RegExp(`2026 ${clock}$`));
    expect(dateTime(at(-20).toISOString(), now)).toBe(dateTime(at(-20), now));
  });
});
