// Accessibility as a test: axe-core over the page (the parent page and the app in its frame),
// failing on any violation with its rule, impact and the elements it names; and the
// screen-reader contract's field checks (heard.ts), recorded for the accessibility report.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Frame, type Page } from '@playwright/test';
import { addCheckpoint, criteriaOfTags, type CheckResult } from './a11y-record';
import { checkFields, duplicateIds } from './heard';
import type { AxeResults } from 'axe-core';

/**
 * AxeBuilder with two fixes:
 * - @axe-core/playwright gives injecting axe (≈ 550 KB of script) into a frame one second and,
 *   when that runs out, silently leaves the frame out: the app's frame was then never checked and
 *   `page-has-heading-one` failed on the parent page. Here the injection may take as long as it takes.
 * - Its `finishRun` opens a blank tab to combine the frames' results and closes it; after that the
 *   tested page no longer received mouse input in its frame (keys still arrived), so the next
 *   click on the app did nothing. The results are combined in the tested page's own top document
 *   instead, where axe already is (it only reads the partial results there).
 */
function patientAxe(page: Page): AxeBuilder {
  const builder = new AxeBuilder({ page });
  const internals = builder as unknown as {
    option: unknown;
    script(): string;
    axeConfigure(): Promise<string>;
    inject(frames: Frame[]): Promise<void>;
    finishRun(partials: unknown[]): Promise<AxeResults>;
  };
  internals.inject = async (frames) => {
    for (const frame of frames) {
      // A document checked before still holds axe: parsing its 550 KB again costs seconds on CI.
      const present = await frame.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
      if (!present) await frame.evaluate(internals.script());
      await frame.evaluate(await internals.axeConfigure());
    }
  };
  internals.finishRun = (partials) =>
    page.evaluate(
      ({ partials, options }) => (window as unknown as { axe: { finishRun(p: unknown, o: unknown): Promise<AxeResults> } }).axe.finishRun(partials, options),
      { partials, options: internals.option },
    );
  return builder;
}

/** "wcag143" → "1.4.3" (axe's tags for the success criteria a rule tests). */

/** The app's path on the page: its frame's when framed, else the page's own. */
function appPlace(page: Page) {
  const framed = page.frames().find((frame) => frame !== page.mainFrame() && /\/(user|admin)(\/|$)/.test(safePath(frame.url())));
  return { framed: !!framed, url: safePath((framed ?? page.mainFrame()).url()) };
}
const safePath = (url: string) => {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
};

/**
 * A checkpoint: axe finds nothing on the page (the parent page and the app in its frame), and
 * every field of every engine form on it is heard as it is seen (heard.ts: name, required, hint
 * and error in Chromium's accessibility tree, against the form's schema). What was checked, by
 * WCAG success criterion, is recorded for the accessibility report (a11y-record.ts).
 */
export async function expectAccessible(page: Page, state: string) {
  const results = await patientAxe(page).analyze();
  const axeChecks: CheckResult[] = [
    ...results.passes.map((rule) => ({ check: `axe:${rule.id}`, criteria: criteriaOfTags(rule.tags), result: 'passed' as const, count: rule.nodes.length })),
    ...results.violations.map((rule) => ({ check: `axe:${rule.id}`, criteria: criteriaOfTags(rule.tags), result: 'failed' as const, count: rule.nodes.length })),
  ].filter((check) => check.criteria.length > 0);
  const fields = await checkFields(page);
  const duplicates = await duplicateIds(page);
  const fieldChecks: CheckResult[] = fields.checks
    .filter((check) => check.checked > 0)
    .map((check) => ({ check: check.id, criteria: check.criteria, result: check.failures.length ? 'failed' : 'passed', count: check.checked, ...(check.failures.length ? { failures: check.failures } : {}) }));
  const idCheck: CheckResult = { check: 'unique-ids', criteria: ['4.1.1'], result: duplicates.length ? 'failed' : 'passed', count: 1, ...(duplicates.length ? { failures: duplicates } : {}) };
  addCheckpoint(test.info(), { state, ...appPlace(page), viewport: page.viewportSize(), checks: [...axeChecks, ...fieldChecks, idCheck] });
  const found = results.violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`);
  expect(found, `axe violations at: ${state}`).toEqual([]);
  expect(
    fields.checks.flatMap((check) => check.failures),
    `heard as seen at: ${state}`,
  ).toEqual([]);
  expect(duplicates, `duplicate ids at: ${state}`).toEqual([]);
}
