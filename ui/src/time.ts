// Times as a person reads them, in their own time zone: one way everywhere in the app.

/** `14:05`. */
export function clockTime(at: Date | string): string {
  return new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/**
 * `today 14:05`, `yesterday 14:05` or `tomorrow 14:05`; `Tue 14:05` within a week either way;
 * `28 Nov 2026 14:05` further off.
 */
export function dateTime(at: Date | string, now: Date = new Date()): string {
  const then = new Date(at);
  const day = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((day(now) - day(then)) / 86_400_000);
  const named: Record<number, string> = { 0: "today", 1: "yesterday", [-1]: "tomorrow" };
  const date =
    named[days] ??
    (Math.abs(days) < 7
      ? then.toLocaleDateString([], { weekday: "short" })
      : then.toLocaleDateString([], { day: "numeric", month: "short", year: "numeric" }));
  return `${date} ${clockTime(then)}`;
}
