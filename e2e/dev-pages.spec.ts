import { readFileSync } from 'node:fs';
import { test, expect } from '@playwright/test';
import { E2E } from './support/stack-env';

const review = JSON.parse(readFileSync(new URL('../messages/form-review.ja.json', import.meta.url), 'utf8')) as Record<string, string>;

// The browser tests run the production build: the form review page of `npm run dev` must not
// exist there, and neither must its verdict endpoint.
test('the production site has no form review page and no verdict endpoint', async ({ page, request }) => {
  await page.goto('/user/_forms/login');
  await expect(page).not.toHaveURL(/_forms/);
  await expect(page.getByText(review.title)).toHaveCount(0);
  await expect(page.getByRole('button', { name: review.fillSample })).toHaveCount(0);
  const res = await request.post(`${E2E.appUrl}/v1/_dev/forms/login/verdict`, { data: {} });
  expect(res.status()).toBe(404);
});
