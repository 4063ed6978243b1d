// Paths as a person reads them: under their home folder, from `~`.

/** `text` with every path under `home` written from `~` (`/home/ann/.claude` → `~/.claude`). */
export function homeRelative(text: string, home: string | null): string {
  const root = home?.replace(/\/+$/, "");
  if (!root) return text;
  // The home folder itself, or a path under it, where a path starts: not inside a longer name,
  // nor in quotes, where a shell would not expand `~` in a command to copy.
  const escaped = root.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return text.replace(new RegExp(`(^|[\\s(:=])${escaped}(?=/|$|[\\s),.:;])`, "g"), "$1~");
}
