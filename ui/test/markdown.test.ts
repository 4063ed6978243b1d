import { describe, expect, it } from "vitest";
import { markdown } from "../src/markdown";

describe("an agent's answer", () => {
  it("reads as headings, lists, code, tables and emphasis instead of marks", () => {
    const md = markdown(
      [
        "## Root cause",
        "The test fails because **created_at** was local time, not `UTC`.",
        "",
        "1. Store UTC",
        "2. Convert on display",
        "",
        "- keep *one* clock",
        "",
        "```rust",
        "let at = Utc::now(); // **not bold**",
        "```",
        "",
        "| file | change |",
        "|---|---|",
        "| `db.rs` | UTC |",
        "",
        "> quoted line",
        "See [the docs](https://example.com/x).",
      ].join("\n"),
    );
    expect(md.querySelector("h5")?.textContent).toBe("Root cause");
    expect(md.querySelector("p strong")?.textContent).toBe("created_at");
    expect(md.querySelector("p code")?.textContent).toBe("UTC");
    expect([...md.querySelectorAll("ol li")].map((li) => li.textContent)).toEqual(["Store UTC", "Convert on display"]);
    expect(md.querySelector("ul li em")?.textContent).toBe("one");
    expect(md.querySelector("pre.code code")?.textContent).toBe("let at = Utc::now(); // **not bold**");
    expect([...md.querySelectorAll("th")].map((th) => th.textContent)).toEqual(["file", "change"]);
    expect(md.querySelector("td code")?.textContent).toBe("db.rs");
    expect(md.querySelector("blockquote")?.textContent).toBe("quoted line");
    expect(md.querySelector(".link")?.getAttribute("title")).toBe("https://example.com/x");
    const prose = md.cloneNode(true) as HTMLElement;
    prose.querySelectorAll("pre").forEach((pre) => pre.remove());
    expect(prose.textContent).not.toContain("**");
    expect(prose.textContent).not.toContain("##");
  });

  it("never turns its text into markup, and keeps names with underscores as written", () => {
    const md = markdown('<img src=x onerror="alert(1)"> and __init__ in snake_case_name');
    expect(md.querySelector("img")).toBeNull();
    expect(md.textContent).toBe('<img src=x onerror="alert(1)"> and __init__ in snake_case_name');
  });

  it("keeps a paragraph's line breaks and ends an unclosed code block at the end", () => {
    const md = markdown("first line\nsecond line\n```\nunclosed");
    expect(md.querySelectorAll("p br").length).toBe(1);
    expect(md.querySelector("pre.code")?.textContent).toBe("unclosed");
  });
});
