// A tiny element builder, so views read as the markup they produce.
type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, value);
  for (const child of children) if (child) element.append(child);
  return element;
}

const SVG = "http://www.w3.org/2000/svg";

export function svg(tag: string, attrs: Record<string, string>, ...children: Element[]): SVGElement {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

/**
 * Renders a list whose views are redrawn on every reread: an item whose data did not change keeps
 * its element, so what the person did to it (an opened `<details>`, a button half-clicked) and
 * any reference to it survive the redraw. Items no longer listed are forgotten.
 */
export function keptRows<T>(key: (item: T) => string, render: (item: T) => HTMLElement): (items: T[]) => HTMLElement[] {
  let kept = new Map<string, { data: string; element: HTMLElement }>();
  return (items) => {
    const next = new Map<string, { data: string; element: HTMLElement }>();
    const elements = items.map((item) => {
      const [id, data] = [key(item), JSON.stringify(item)];
      const previous = kept.get(id);
      const row = previous?.data === data ? previous : { data, element: render(item) };
      next.set(id, row);
      return row.element;
    });
    kept = next;
    return elements;
  };
}
