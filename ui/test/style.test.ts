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

  it("takes every space, font size and corner from one scale defined once, at the root", () => {
    const root = rulesWith(":root")[0].body;
    const defined = new Set([...css.matchAll(/(--[\w-]+):/g)].map(([, name]) => name));
    for (const step of ["--space-1", "--space-6", "--text-sm", "--text-base", "--text-lg", "--radius"]) expect(root).toContain(`${step}:`);
    expect([...css.matchAll(/(--(?:space|text|radius)[\w-]*):/g)].length).toBe([...root.matchAll(/--(?:space|text|radius)[\w-]*:/g)].length);
    const scaled = /^(margin|padding|gap|row-gap|column-gap|top|font-size|border-radius)(-|$)/;
    const literal: string[] = [];
    for (const { selector, body } of [...css.matchAll(/([^{}]+)\{([^{}]*)\}/g)].map(([, selector, body]) => ({ selector, body }))) {
      if (selector.includes(":root")) continue;
      for (const [, property, value] of body.matchAll(/([\w-]+)\s*:\s*([^;]+)/g)) {
        // A 1px hairline between rows is a line, not a space.
        if (scaled.test(property) && /\d(px|r?em)\b/.test(value.replace(/\b1px\b/g, ""))) literal.push(`${selector.trim()} { ${property}: ${value.trim()} }`);
        for (const [, used] of value.matchAll(/var\((--[\w-]+)\)/g)) expect(defined, `${used} in ${selector.trim()}`).toContain(used);
      }
    }
    expect(literal).toEqual([]);
  });

  it("gives the accent colour for light pages and for dark ones", () => {
    expect(rulesWith(":root")[0].body).toMatch(/--accent:/);
    const dark = css.slice(css.indexOf("@media (prefers-color-scheme: dark)"));
    expect(dark.slice(0, dark.indexOf("}"))).toMatch(/--accent:/);
  });
});
