import { describe, expect, it } from "vitest";
// The stylesheet's text: `vite.config.ts` lets the tests read it (they get CSS as empty otherwise).
import css from "../src/style.css?raw";

/** The declarations of every rule whose selector holds `part`. */
function rulesWith(part: string): { selector: string; body: string }[] {
  return [...css.matchAll(/([^{}]+)\{([^{}]*)\}/g)].filter(([, selector]) => selector.includes(part)).map(([, selector, body]) => ({ selector: selector.trim(), body }));
}

describe("style.css", () => {
  it("marks keyboard focus on every kind of control with one rule in the accent colour", () => {
    const rules = rulesWith(":focus-visible");
    expect(rules).toHaveLength(1);
    for (const control of ["button", "a", "input", "summary"]) expect(rules[0].selector).toMatch(new RegExp(`[(,]\\s*${control}\\s*[,)]`));
    expect(rules[0].body).toMatch(/outline:\s*2px solid var\(--accent\)/);
  });

  it("gives the accent colour for light pages and for dark ones", () => {
    expect(rulesWith(":root")[0].body).toMatch(/--accent:/);
    const dark = css.slice(css.indexOf("@media (prefers-color-scheme: dark)"));
    expect(dark.slice(0, dark.indexOf("}"))).toMatch(/--accent:/);
  });
});
