// Accessibility as a test: axe-core over the page (the parent page and the app in its frame),
// failing on any violation with its rule, impact and the elements it names.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export async function expectAccessible(page: Page, state: string) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const found = violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`);
  expect(found, `axe violations at: ${state}`).toEqual([]);
}
