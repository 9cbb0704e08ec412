// Accessibility as a test: axe-core over the page (the parent page and the app in its frame),
// failing on any violation with its rule, impact and the elements it names.
import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Frame, type Page } from '@playwright/test';

export async function expectAccessible(page: Page, state: string) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const found = violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`);
  expect(found, `axe violations at: ${state}`).toEqual([]);
}

/** The same with a modal dialog open in the app's frame. axe 4.13, run from the parent page over
 *  the frame, finds no level-one heading anywhere while the page behind the dialog is inert (its
 *  h1 included), even when the dialog's own title is an h1: run in the frame itself, the same rule
 *  passes. So the parent page and frame are checked together without that one rule, and the
 *  frame's document alone with every rule, that one included. */
export async function expectDialogAccessible(page: Page, frame: Frame, state: string) {
  const { violations } = await new AxeBuilder({ page }).disableRules(['page-has-heading-one']).analyze();
  await frame.evaluate(axeSource());
  const inFrame = await frame.evaluate(async () => {
    const holder = window as unknown as { axe?: { run: (context: Document) => Promise<{ violations: typeof violations }> } };
    const { violations: found } = await holder.axe!.run(document);
    delete holder.axe; // AxeBuilder injects its own, configured for frames, next time
    return found;
  });
  const found = [...violations, ...inFrame].map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`);
  expect(found, `axe violations at: ${state}`).toEqual([]);
}

const axeSource = () => readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
