// Installer: whether Claude Code runs Throughline's hooks with the CLI bundled with the app,
// the buttons that register, repair or remove them (the library's install code), the choice
// to wrap a statusline of the person's own, and the doctor's findings, each problem with its fix.
import { h } from "../dom";
import {
  describeFailure,
  installation,
  installHooks,
  uninstallHooks,
  type Check,
  type Installation,
  type OwnStatusline,
  type Report,
} from "../ipc";
import { homeRelative } from "../paths";

export interface InstallerState {
  /** `null` while it is being read. */
  installation: Installation | null;
  /** What the last button changed. */
  done: { what: string; report: Report } | null;
  /** Set while Uninstall waits for the person to confirm it. */
  confirmingUninstall: boolean;
  /** Whether Install wraps the person's own statusline: theirs to tick, off until they do. */
  wrapStatusline: boolean;
  busy: boolean;
  problem: string | null;
}

export interface InstallerActions {
  /** Install, Repair and, once registered, Wrap my statusline: the same idempotent
   *  registration, wrapping the person's statusline when `wrapStatusline`. */
  onInstall(what: "Install" | "Repair" | "Wrap my statusline", wrapStatusline: boolean): void;
  /** The person ticked or unticked wrapping their statusline, for Install. */
  onChooseWrap(wrap: boolean): void;
  onUninstall(): void;
  onConfirmUninstall(confirmed: boolean): void;
}

/** Something of Throughline is in Claude Code's settings. */
function registered(i: Installation): boolean {
  const r = i.registration;
  return r !== null && (r.hooks.length > 0 || r.slash_command !== null || r.mcp_server !== null);
}

/** The registration's findings (hooks, `/tl` and the MCP server) are all fine. */
function inPlace(i: Installation): boolean {
  return i.checks.filter((c) => c.name === "hooks" || c.name === "extras").every((c) => c.status === "ok");
}

/** The installation's text as shown: paths under the person's home from `~`. */
function shown(i: Installation, text: string): string {
  return homeRelative(text, i.person_home);
}

function statusLine(i: Installation): HTMLElement {
  const r = i.registration;
  if (r === null) return h("p", { class: "status unknown" }, "Claude Code's settings cannot be read: see the first finding below.");
  if (r.hooks.length === 0) {
    return h("p", { class: "status absent" }, shown(i, `Not registered: Claude Code does not run Throughline (${r.settings}), so new sessions are not kept.`));
  }
  if (i.hooks_elsewhere.length > 0) {
    return h(
      "p",
      { class: "status elsewhere" },
      shown(i, `Registered, but the hooks run ${i.hooks_elsewhere.join(", ")} instead of the bundled CLI. Repair points them at it.`),
    );
  }
  return h("p", { class: "status registered" }, shown(i, `Registered: ${r.hooks.length} hooks in ${r.settings} run the bundled CLI.`));
}

function details(i: Installation): HTMLElement | null {
  const r = i.registration;
  if (r === null || !registered(i)) return null;
  return h(
    "ul",
    { class: "parts" },
    r.missing.length > 0 ? h("li", { class: "missing" }, `Missing hooks: ${r.missing.join(", ")}`) : null,
    h("li", {}, r.slash_command ? shown(i, `/tl command: ${r.slash_command}`) : "/tl command: not in place"),
    h("li", {}, r.mcp_server ? shown(i, `MCP server: runs ${r.mcp_server}`) : "MCP server: not registered"),
  );
}

/** A command on one line, cut to a length a sentence can carry; the whole on hover. */
function shortened(command: string, max = 60): HTMLElement {
  const line = command.replace(/\s+/g, " ").trim();
  return h("code", { title: command }, line.length > max ? `${line.slice(0, max - 1)}…` : line);
}

/** The person's own statusline: wrapped, or why and how to wrap it. Claude Code gives the plan
 *  usage only to the statusline, so while theirs runs alone Throughline never sees it. */
function renderStatusline(state: InstallerState, i: Installation, own: OwnStatusline, actions: InstallerActions): HTMLElement {
  if (own.wrapped) {
    return h(
      "div",
      { class: "statusline wrapped" },
      h("p", {}, "Your statusline (", shortened(own.command), ") runs inside Throughline's: it shows as before, and the plan usage is recorded."),
      h("p", { class: "hint" }, "Uninstall puts yours back as it was."),
    );
  }
  const usable = !state.busy && i.binary_problem === null;
  const intro = h(
    "p",
    {},
    "Your own statusline runs (",
    shortened(own.command),
    "). Claude Code gives the plan usage (5-hour and 7-day limits) only to the statusline, so Throughline does not see it.",
  );
  const registeredAlready = (i.registration?.hooks.length ?? 0) > 0;
  if (registeredAlready) {
    return h(
      "div",
      { class: "statusline own" },
      intro,
      button("Wrap my statusline", usable, () => actions.onInstall("Wrap my statusline", true)),
      h("p", { class: "hint" }, "It shows as before, and the plan usage appears. Uninstall puts yours back as it was."),
    );
  }
  const choice = h("input", { type: "checkbox", id: "wrap-statusline" });
  choice.checked = state.wrapStatusline;
  choice.disabled = !usable;
  choice.addEventListener("change", () => actions.onChooseWrap(choice.checked));
  return h(
    "div",
    { class: "statusline own" },
    intro,
    h(
      "div",
      { class: "choice" },
      choice,
      h("label", { for: "wrap-statusline" }, "Wrap it with Install, so the plan usage appears: it shows as before, and Uninstall puts yours back."),
    ),
  );
}

function button(label: string, enabled: boolean, action: () => void): HTMLButtonElement {
  const element = h("button", { type: "button", id: label.toLowerCase().replaceAll(" ", "-") }, label);
  element.disabled = !enabled;
  element.addEventListener("click", action);
  return element;
}

function renderButtons(state: InstallerState, i: Installation, actions: InstallerActions): HTMLElement {
  const usable = !state.busy && i.binary_problem === null && i.registration !== null;
  if (state.confirmingUninstall) {
    return h(
      "div",
      { class: "confirm", role: "alertdialog" },
      h(
        "p",
        {},
        "Remove Throughline's hooks, the /tl command, the MCP server and its statusline from Claude Code? The stored memory stays.",
        i.registration?.own_statusline?.wrapped ? " Your own statusline goes back as it was." : null,
      ),
      button("Remove", !state.busy, () => actions.onConfirmUninstall(true)),
      button("Keep", !state.busy, () => actions.onConfirmUninstall(false)),
    );
  }
  const hooks = (i.registration?.hooks.length ?? 0) > 0;
  return h(
    "div",
    { class: "buttons" },
    button("Install", usable && !hooks, () => actions.onInstall("Install", state.wrapStatusline)),
    // Repair keeps the statusline as it is: wrapping is its own button once registered.
    button("Repair", usable && hooks && !inPlace(i), () => actions.onInstall("Repair", false)),
    button("Uninstall", !state.busy && registered(i), () => actions.onUninstall()),
  );
}

function renderReport(i: Installation, done: { what: string; report: Report }): HTMLElement {
  const listed = done.report.changes.filter((c) => c.action !== "unchanged");
  const changed = listed.some((c) => c.action !== "kept");
  return h(
    "div",
    { class: "report", role: "status" },
    h("p", {}, changed ? `${done.what} changed:` : `${done.what}: nothing needed changing.`),
    listed.length > 0 ? h("ul", {}, ...listed.map((change) => renderChange(i, change))) : null,
  );
}

function renderChange(i: Installation, change: Report["changes"][number]): HTMLElement {
  return h(
    "li",
    { class: `change ${change.action}` },
    h("strong", {}, change.action),
    ` ${shown(i, change.path)}`,
    ...change.details.map((d) => h("div", { class: "detail" }, shown(i, d))),
    change.backup ? h("div", { class: "detail" }, shown(i, `previous version: ${change.backup}`)) : null,
  );
}

function renderCheck(i: Installation, check: Check): HTMLElement {
  return h(
    "li",
    { class: `check ${check.status}`, "data-check": check.name },
    h("span", { class: "mark" }, check.status),
    h("strong", {}, check.name),
    h("span", { class: "message" }, shown(i, check.message)),
    check.fix ? h("div", { class: "fix" }, shown(i, `Fix: ${check.fix}`)) : null,
  );
}

export function renderInstaller(state: InstallerState, actions: InstallerActions): HTMLElement {
  const problem = state.problem ? h("p", { class: "problem", role: "alert" }, state.problem) : null;
  const i = state.installation;
  if (i === null) return h("section", { class: "installer" }, problem, h("p", { class: "loading" }, "Reading Claude Code's settings…"));
  return h(
    "section",
    { class: "installer" },
    problem,
    h(
      "fieldset",
      { class: "registration" },
      h("legend", {}, "Claude Code"),
      statusLine(i),
      details(i),
      i.registration?.own_statusline ? renderStatusline(state, i, i.registration.own_statusline, actions) : null,
      i.binary_problem ? h("p", { class: "problem", role: "alert" }, i.binary_problem) : null,
      renderButtons(state, i, actions),
      h("p", { class: "hint", title: i.binary }, shown(i, `Bundled CLI: ${i.binary}`)),
      state.done ? renderReport(i, state.done) : null,
    ),
    h(
      "fieldset",
      { class: "doctor" },
      h("legend", {}, i.healthy ? "Doctor: everything is in place" : "Doctor"),
      h("ul", {}, ...i.checks.map((check) => renderCheck(i, check))),
    ),
  );
}

/** The app's own messages say what to do; anything else gets the generic advice. */
function failure(what: string, error: unknown): string {
  return typeof error === "string" ? error : describeFailure(what, error);
}

export function mountInstaller(into: HTMLElement): () => void {
  let state: InstallerState = { installation: null, done: null, confirmingUninstall: false, wrapStatusline: false, busy: false, problem: null };
  const show = (patch: Partial<InstallerState>) => {
    state = { ...state, ...patch };
    into.replaceChildren(renderInstaller(state, actions));
  };
  const refresh = () =>
    installation()
      .then((now) => show({ installation: now, busy: false }))
      .catch((error) => show({ busy: false, problem: failure("read Claude Code's settings", error) }));
  const run = (what: string, call: () => Promise<Report>) => {
    show({ busy: true, confirmingUninstall: false, done: null, problem: null });
    call()
      .then((report) => {
        // A choice is asked again for the next Install, not remembered from the last.
        state = { ...state, done: { what, report }, wrapStatusline: false };
        return refresh();
      })
      .catch((error) => show({ busy: false, problem: failure(what.toLowerCase(), error) }));
  };
  const actions: InstallerActions = {
    onInstall: (what, wrapStatusline) => run(what, () => installHooks(wrapStatusline)),
    // Install reads the choice from the redrawn view; the keyboard stays on the box.
    onChooseWrap: (wrap) => {
      show({ wrapStatusline: wrap });
      into.querySelector<HTMLInputElement>("#wrap-statusline")?.focus();
    },
    onUninstall: () => show({ confirmingUninstall: true, done: null }),
    onConfirmUninstall: (confirmed) => (confirmed ? run("Uninstall", uninstallHooks) : show({ confirmingUninstall: false })),
  };
  show({});
  refresh();
  return () => {};
}
