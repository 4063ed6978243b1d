// Problems with something asked for outside the window (the tray menu), shown above every view.
import { h } from "./dom";
import { onProblem, pendingProblem } from "./ipc";

export function renderBanner(message: string, onDismiss: () => void): HTMLElement {
  const dismiss = h("button", { type: "button", class: "dismiss" }, "Dismiss");
  dismiss.addEventListener("click", onDismiss);
  return h("div", { class: "problem banner", role: "alert" }, h("span", {}, message), dismiss);
}

export function mountBanner(into: HTMLElement): void {
  const show = (message: string) => into.replaceChildren(renderBanner(message, () => into.replaceChildren()));
  onProblem(show);
  // A window opened for a problem (it was closed) asks for it: the event came before it loaded.
  pendingProblem()
    .then((message) => message && show(message))
    .catch(() => {});
}
