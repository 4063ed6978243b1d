// The agent's answers are markdown: shown as the agent meant them to read (headings, lists,
// code, tables, emphasis), built as elements from text so nothing in an answer is ever run or
// loaded as HTML. Links show their text with the address beside it; the app opens nothing.
import { h } from "./dom";

type Inline = Node | string;

const FENCE = /^\s*(```|~~~)/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*(\d{1,3})[.)]\s+(.*)$/;
const QUOTE = /^\s*>\s?(.*)$/;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

/** `text` as markdown blocks. */
export function markdown(text: string): HTMLElement {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const blocks: HTMLElement[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const fence = FENCE.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i].trimStart().startsWith(fence[1])) body.push(lines[i++]);
      i++;
      blocks.push(h("pre", { class: "code" }, h("code", {}, body.join("\n"))));
      continue;
    }
    if (line.trim() === "") {
      i++;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      // Inside a turn the answer's own headings sit below the turn's: h4 and smaller.
      const level = Math.min(6, heading[1].length + 3);
      blocks.push(h(`h${level}` as "h4", {}, ...inline(heading[2])));
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push(h("hr"));
      i++;
      continue;
    }
    if (TABLE_ROW.test(line) && i + 1 < lines.length && TABLE_RULE.test(lines[i + 1])) {
      const rows: string[] = [line];
      i += 2;
      while (i < lines.length && TABLE_ROW.test(lines[i])) rows.push(lines[i++]);
      blocks.push(table(rows));
      continue;
    }
    if (BULLET.test(line) || NUMBERED.test(line)) {
      const numbered = !BULLET.test(line);
      const items: HTMLElement[] = [];
      const pattern = numbered ? NUMBERED : BULLET;
      while (i < lines.length) {
        const item = pattern.exec(lines[i]);
        if (!item) break;
        items.push(h("li", {}, ...inline(numbered ? item[2] : item[1])));
        i++;
      }
      const first = numbered ? NUMBERED.exec(line)?.[1] ?? "1" : "1";
      blocks.push(numbered ? h("ol", first === "1" ? {} : { start: first }, ...items) : h("ul", {}, ...items));
      continue;
    }
    if (QUOTE.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i])) quoted.push(QUOTE.exec(lines[i++])![1]);
      blocks.push(h("blockquote", {}, ...lineBroken(quoted)));
      continue;
    }
    const paragraph: string[] = [];
    while (i < lines.length && lines[i].trim() !== "" && !startsBlock(lines, i)) paragraph.push(lines[i++]);
    blocks.push(h("p", {}, ...lineBroken(paragraph)));
  }
  return h("div", { class: "md" }, ...blocks);
}

/** Whether line `i` opens a block other than a paragraph. */
function startsBlock(lines: string[], i: number): boolean {
  const line = lines[i];
  return (
    FENCE.test(line) ||
    HEADING.test(line) ||
    BULLET.test(line) ||
    NUMBERED.test(line) ||
    QUOTE.test(line) ||
    (TABLE_ROW.test(line) && i + 1 < lines.length && TABLE_RULE.test(lines[i + 1]))
  );
}

/** Lines of one paragraph, each on its own line as written. */
function lineBroken(lines: string[]): Inline[] {
  return lines.flatMap((line, n) => (n === 0 ? inline(line) : [h("br"), ...inline(line)]));
}

function cells(row: string): string[] {
  return row.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim());
}

function table(rows: string[]): HTMLElement {
  const [head, ...body] = rows.map(cells);
  return h(
    "table",
    {},
    h("thead", {}, h("tr", {}, ...head.map((c) => h("th", {}, ...inline(c))))),
    h("tbody", {}, ...body.map((row) => h("tr", {}, ...row.map((c) => h("td", {}, ...inline(c)))))),
  );
}

/**
 * Code spans first (nothing inside them is markup), then links, bold and italics. Underscores
 * are left as written: in answers about code they are names (`__init__`, `snake_case`).
 */
const INLINE = /`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)|\*\*(.+?)\*\*|\*([^*\s][^*]*?)\*/g;

export function inline(text: string): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    const at = m.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    const [, code, linkText, href, bold, italic] = m;
    if (code !== undefined) out.push(h("code", {}, code));
    else if (linkText !== undefined) out.push(h("span", { class: "link", title: href }, ...inline(linkText)), ` (${href})`);
    else if (bold !== undefined) out.push(h("strong", {}, ...inline(bold)));
    else out.push(h("em", {}, ...inline(italic)));
    last = at + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
