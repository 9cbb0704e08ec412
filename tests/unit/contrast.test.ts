// Colour contrast as WCAG 2.2 computes it (relative luminance), on the colours src/app/styles.css
// declares: text 4.5:1 or more (1.4.3), the focus ring and the edges of controls 3:1 or more
// against what they sit on (1.4.11, 2.4.13). A colour changed in the stylesheet so that a pair
// falls short fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const css = readFileSync(new URL('../../src/app/styles.css', import.meta.url), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');

/** The custom properties of `:root`, resolved (a value may name another property). */
function customProperties(text: string): Record<string, string> {
  const root = /:root\s*\{([^}]*)\}/.exec(text)?.[1] ?? '';
  const raw = Object.fromEntries([...root.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)].map((m) => [m[1], m[2].trim()]));
  const resolve = (value: string, depth = 0): string => (depth < 10 && /^var\((--[\w-]+)\)$/.test(value) ? resolve(raw[/^var\((--[\w-]+)\)$/.exec(value)![1]] ?? value, depth + 1) : value);
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, resolve(v)]));
}

const vars = customProperties(css);

/** A colour: `#rgb`, `#rrggbb`, or `var(--name)` from :root. */
function hex(colour: string): string {
  const named = /^var\((--[\w-]+)\)$/.exec(colour);
  const value = named ? vars[named[1]] : colour;
  if (!value) throw new Error(`${colour} is not declared in :root`);
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`;
  if (!/^#[0-9a-f]{6}$/i.test(value)) throw new Error(`${colour} is ${value}, not a hex colour`);
  return value;
}

/** WCAG relative luminance of a hex colour. */
export function luminance(colour: string): number {
  const value = hex(colour);
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(value.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** The colour a declaration in the stylesheet gives: the first colour of `property` in the first
 *  rule whose selector list begins with `selector`. */
function declared(selector: string, property: string): string {
  const escaped = selector.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const rule = new RegExp(`(?:^|\\})\\s*${escaped}\\s*(?:,[^{]*)?\\{([^}]*)\\}`).exec(css);
  if (!rule) throw new Error(`no rule for ${selector}`);
  const value = new RegExp(`(?:^|[;\\s])${property}\\s*:\\s*([^;]+)`).exec(rule[1])?.[1];
  if (!value) throw new Error(`${selector} sets no ${property}`);
  const colour = /(#[0-9a-f]{3,6}\b|var\(--[\w-]+\))/i.exec(value)?.[1];
  if (!colour) throw new Error(`${selector} { ${property} } has no colour`);
  return colour;
}

describe('the contrast arithmetic', () => {
  it('agrees with WCAG’s known values', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    expect(contrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    // the colours issue 21 found short
    expect(contrast('#2b8a3e', '#ffffff')).toBeLessThan(4.5);
    expect(contrast('#74c0fc', '#ffffff')).toBeLessThan(3);
  });
});

const WHITE = '#fff';

/** [what, foreground, background] */
const TEXT: Array<[string, string, string]> = [
  ['body text on the page', 'var(--text)', 'var(--page-bg)'],
  ['muted text (help, counts) on the page', 'var(--muted)', 'var(--page-bg)'],
  ['muted text in a read-only field', 'var(--muted)', 'var(--readonly-bg)'],
  ['a met password rule', declared('.checklist__item--ok', 'color'), WHITE],
  ['an unmet password rule', declared('.checklist', 'color'), WHITE],
  ['field errors', declared('.field__errors', 'color'), WHITE],
  ['an error notice', declared('.notice--error', 'color'), declared('.notice--error', 'background')],
  ['headings and links in the brand colour', 'var(--brand)', WHITE],
  ['brand text on the brand tint (pills)', 'var(--brand)', 'var(--brand-light)'],
  ['the primary button', declared('.button--primary', 'color'), declared('.button--primary', 'background')],
  ['the secondary button', declared('.button--secondary', 'color'), declared('.button--secondary', 'background')],
  ['the danger button', declared('.button--danger', 'color'), declared('.button--danger', 'background')],
  ['the required badge', declared('.badge--required', 'color'), declared('.badge--required', 'background')],
  ['the optional badge', declared('.badge--optional', 'color'), declared('.badge--optional', 'background')],
];

const NON_TEXT: Array<[string, string, string]> = [
  ['the focus ring on the page', declared('.input:focus', 'outline'), 'var(--page-bg)'],
  ['the focus ring on white', declared('.input:focus', 'outline'), WHITE],
  ['the focus ring of buttons and choices on the page', declared('.button:focus-visible', 'outline'), 'var(--page-bg)'],
  ['the focus ring on the brand tint', declared('.input:focus', 'outline'), 'var(--brand-light)'],
  ['the focus ring on an error field', declared('.input:focus', 'outline'), 'var(--error-bg)'],
  ['an input’s edge on the page', declared('.input', 'border'), 'var(--page-bg)'],
  ['an input’s edge against its own white', declared('.input', 'border'), declared('.input', 'background')],
  ['a read-only input’s edge', declared('.input', 'border'), 'var(--readonly-bg)'],
  ['a code box’s edge', declared('.pin__box', 'border'), WHITE],
  ['an erroneous input’s edge', 'var(--error)', 'var(--error-bg)'],
  ['the edge of the plain button', declared('.button', 'border'), WHITE],
];

describe('text contrast is 4.5:1 or more', () => {
  it.each(TEXT)('%s (%s on %s)', (_what, fg, bg) => {
    expect(contrast(fg, bg)).toBeGreaterThanOrEqual(4.5);
  });
});

describe('focus indicators and control edges are 3:1 or more', () => {
  it.each(NON_TEXT)('%s (%s on %s)', (_what, fg, bg) => {
    expect(contrast(fg, bg)).toBeGreaterThanOrEqual(3);
  });
});

describe('no colour in the stylesheet is the ones found short', () => {
  it('the old focus ring and met-rule green are gone', () => {
    expect(css.toLowerCase()).not.toContain('#74c0fc');
    expect(css.toLowerCase()).not.toContain('#2b8a3e');
  });
});
