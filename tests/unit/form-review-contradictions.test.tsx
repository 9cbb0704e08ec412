// @vitest-environment jsdom
// The form review page (/user/_forms) lists the texts that contradict their rule above the form:
// here the registration form as a product owner leaves it after making the mileage number
// required in JSON without rewording its help ("お持ちの方のみ…") or its pattern in words.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import options from '../../schemas/masters/options.json';
import texts from '../../messages/form-review.ja.json';

const call = vi.hoisted(() => vi.fn(async () => ({ impact: null })));
vi.mock('../../src/api/client', async (original) => ({ ...(await original<typeof import('../../src/api/client')>()), call }));
vi.mock('../../src/api/masters', () => ({
  getMasters: async (names: string[]) => Object.fromEntries(names.map((n) => [n, (options as Record<string, unknown>)[n]])),
}));
vi.mock('virtual:form-index', async () => {
  const profile = await import('virtual:form/register-profile');
  const { inlineFormModule } = await import('../support/precompiled');
  // The changed schema precompiled as the build would (the browser has no ajv compiler).
  const schema = { ...profile.schema, required: [...new Set([...((profile.schema.required as string[]) ?? []), 'amc'])] };
  // Its help as shipped: "only if you have one" (whatever the wording in schemas/ by now).
  const texts = (await import('../../messages/form-review.ja.json')).default;
  const amcUi = { ...(profile.uiSchema.amc as object), 'ui:help': `${texts.optionalWording.find((w) => w.includes('\u306e\u307f')) ?? texts.optionalWording[0]}、半角数字10桁で入力してください` };
  const withAmcRequired = await inlineFormModule('register-profile', schema, { ...profile.uiSchema, amc: amcUi });
  return { forms: { 'register-profile': async () => withAmcRequired, 'edit-profile': () => import('virtual:form/edit-profile') } };
});

const { FormReviewPage } = await import('../../src/dev/FormReviewPage');

afterEach(() => cleanup());

function open(path: string) {
  const router = createMemoryRouter([{ path: '/_forms/:form?', element: <FormReviewPage /> }], { initialEntries: [path] });
  render(<RouterProvider router={router} />);
}

describe('form review page: texts that contradict their rule', () => {
  it('names the field, where the text is and the optional wording it keeps', async () => {
    open('/_forms/register-profile');
    const notice = await screen.findByTestId('form-review-contradictions', {}, { timeout: 10_000 });
    expect(notice.textContent).toContain(texts.contradictionsHeading);
    expect(notice.textContent).toContain('（amc）');
    expect(notice.textContent).toContain('ui:help');
    expect(notice.textContent).toContain('お持ちの方のみ');
  });

  it('shows nothing for a form whose texts agree with its rules', async () => {
    open('/_forms/edit-profile');
    await screen.findByRole('button', { name: texts.fillSample }, { timeout: 10_000 });
    expect(screen.queryByTestId('form-review-contradictions')).toBeNull();
  });
});
