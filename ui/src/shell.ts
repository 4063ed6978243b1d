// The tab shell. A view is a title and a mount function; adding a view is one entry in main.ts.
import { h } from "./dom";

export interface View {
  id: string;
  title: string;
  /** Renders into the panel and returns what to undo when another tab is chosen. */
  mount(into: HTMLElement): () => void;
}

export function mountShell(root: HTMLElement, views: View[]): void {
  const panel = h("main", { id: "panel" });
  const tabs = views.map((view) => {
    const tab = h("button", { type: "button", role: "tab", "data-view": view.id }, view.title);
    tab.addEventListener("click", () => select(view));
    return tab;
  });
  let unmount = () => {};
  const select = (view: View) => {
    unmount();
    for (const tab of tabs) tab.setAttribute("aria-selected", String(tab.dataset.view === view.id));
    unmount = view.mount(panel);
  };
  root.replaceChildren(h("nav", { role: "tablist" }, ...tabs), panel);
  if (views.length > 0) select(views[0]);
}
