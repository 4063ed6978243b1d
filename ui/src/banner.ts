// Problems with something asked for outside the window (the tray menu), shown above every view.
import { h } from "./dom";
import { onProblem } from "./ipc";

export function renderBanner(message: string, onDismiss: () => void): HTMLElement {
  const dismiss = h("button", { type: "button", class: "dismiss" }, "Dismiss");
  dismiss.addEventListener("click", onDismiss);
  return h("div", { class: "problem banner", role: "alert" }, h("span", {}, message), dismiss);
}

export function mountBanner(into: HTMLElement): void {
  onProblem((message) => into.replaceChildren(renderBanner(message, () => into.replaceChildren())));
}
