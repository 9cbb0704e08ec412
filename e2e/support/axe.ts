// Accessibility as a test: axe-core over the page (the parent page and the app in its frame),
// failing on any violation with its rule, impact and the elements it names.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Frame, type Page } from '@playwright/test';
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

export async function expectAccessible(page: Page, state: string) {
  const { violations } = await patientAxe(page).analyze();
  const found = violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`);
  expect(found, `axe violations at: ${state}`).toEqual([]);
}
