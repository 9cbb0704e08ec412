// WCAG 2.2.2 and 2.3.3's practice: every animation the member site's stylesheet starts stops when
// the member's system asks for reduced motion. A rule that animates (animation or transition)
// outside `@media (prefers-reduced-motion: reduce)` needs the same selector inside it with the
// animation (or transition) set to none.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const css = readFileSync(new URL('../../src/app/styles.css', import.meta.url), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');

/** The rules of a stylesheet as [selector, declarations], and the reduced-motion block's rules apart. */
function rules(text: string): { plain: Array<[string, string]>; reduced: Array<[string, string]> } {
  const reduced: Array<[string, string]> = [];
  const rest = text.replace(/@media\s*\(prefers-reduced-motion:\s*reduce\)\s*\{((?:[^{}]*\{[^{}]*\})*)\s*\}/g, (_all, inner: string) => {
    for (const m of inner.matchAll(/([^{}]+)\{([^{}]*)\}/g)) reduced.push([m[1]!.trim(), m[2]!]);
    return '';
  });
  const plain = [...rest.replace(/@keyframes[^{]*\{(?:[^{}]*\{[^{}]*\})*\s*\}/g, '').matchAll(/([^{}@]+)\{([^{}]*)\}/g)].map((m) => [m[1]!.trim(), m[2]!] as [string, string]);
  return { plain, reduced };
}

describe('reduced motion', () => {
  const { plain, reduced } = rules(css);
  const animated = plain.filter(([, body]) => /(^|;)\s*(animation|transition)(-name|-duration)?\s*:(?!\s*none)/.test(body));

  it('the stylesheet has animations to look at (the spinner)', () => {
    expect(animated.map(([selector]) => selector)).toContain('.spinner__circle');
  });

  it.each(animated.map(([selector, body]) => [selector, /(^|;)\s*animation/.test(body) ? 'animation' : 'transition'] as const))('%s stops its %s under prefers-reduced-motion', (selector, property) => {
    const override = reduced.find(([s]) => s.split(',').map((x) => x.trim()).includes(selector));
    expect(override, `no reduced-motion rule for ${selector}`).toBeDefined();
    expect(override![1]).toMatch(new RegExp(`${property}\\s*:\\s*none`));
  });
});
