// Accessibility as a test: axe-core over the page (the parent page and the app in its frame),
// failing on any violation with its rule, impact and the elements it names.
import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Frame, type Page } from '@playwright/test';

const require = createRequire(import.meta.url);

export async function expectAccessible(page: Page, state: string) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const found = violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`);
  expect(found, `axe violations at: ${state}`).toEqual([]);
}

/** axe-core run inside the app's own frame (injected there and run on its document): what the
 *  app shows is checked even where the parent-level run reports the frame as not tested
 *  (`frame-tested`, seen on the shared test machine for the cross-origin frame). */
export async function expectFrameAccessible(frame: Frame, state: string) {
  await frame.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const violations = await frame.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    return (await axe.run(document)).violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`);
  });
  expect(violations, `axe violations in the app's frame at: ${state}`).toEqual([]);
}
