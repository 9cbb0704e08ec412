// @vitest-environment jsdom
// The dev-only form review page (/user/_forms): lists every form of the catalogue, renders the
// chosen one with the real engine, fills sample data the form accepts, shows every error at
// once, and lists the server's verdict by field label.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import options from '../../schemas/masters/options.json';
import catalogue from '../../schemas/catalogue.json';
import profileSchema from '../../schemas/forms/register-profile.schema.json';
import profileUi from '../../schemas/forms/register-profile.ui.json';
import texts from '../../messages/form-review.ja.json';
import { format } from '../../src/shared/format';
import * as profileForm from 'virtual:form/register-profile';

const call = vi.hoisted(() => vi.fn());
vi.mock('../../src/api/client', async (original) => ({ ...(await original<typeof import('../../src/api/client')>()), call }));
vi.mock('../../src/api/masters', () => ({
  getMasters: async (names: string[]) => Object.fromEntries(names.map((n) => [n, (options as Record<string, unknown>)[n]])),
}));

const { FormReviewPage } = await import('../../src/dev/FormReviewPage');

afterEach(() => {
  cleanup();
  call.mockReset();
});

function open(path: string) {
  const router = createMemoryRouter([{ path: '/_forms/:form?', element: <FormReviewPage /> }], { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return userEvent.setup();
}

/** The form's own required message for a field, as the prepared (browser) schema carries it. */
const requiredMessage = (field: string) => ((profileForm.schema.errorMessage as { required: Record<string, string> }).required)[field];

const shownData = () => JSON.parse(screen.getByTestId('form-review-data').textContent ?? '{}') as Record<string, unknown>;

describe('form review page', () => {
  it('links every form the catalogue names', () => {
    open('/_forms');
    const names = catalogue.routes.flatMap((r) => r.forms);
    for (const name of names) expect(screen.getAllByRole('link', { name }).length).toBeGreaterThan(0);
    expect(screen.getByText(texts.choose)).toBeTruthy();
  });

  it('shows every required message at once, then fills sample data the form accepts', async () => {
    const user = open('/_forms/register-profile');
    await screen.findByRole('button', { name: texts.fillSample }, { timeout: 10_000 });
    await user.click(screen.getByRole('button', { name: texts.showErrors }));
    const form = document.querySelector('form.schema-form') as HTMLElement;
    // Fields without a default are empty, so their schema "required" message shows.
    for (const field of ['password', 'last_name_kanji', 'purpose_detail'] as const) {
      expect(within(form).getAllByText(requiredMessage(field)).length).toBeGreaterThan(0);
    }
    await user.click(screen.getByRole('button', { name: texts.fillSample }));
    await waitFor(() => expect(shownData().purpose_detail).toBeTruthy());
    expect(Object.keys(shownData())).toEqual(expect.arrayContaining(profileSchema.required));
    expect(screen.queryByText(texts.sampleInvalid)).toBeNull();
    expect(form.querySelectorAll('.field--error')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: texts.submit }));
    expect(await screen.findByText(texts.clientValid)).toBeTruthy();
  });

  it('asks the dev endpoint for the verdict on the current data and lists it by label', async () => {
    const message = profileSchema.properties.purpose_detail.errorMessage.minLength;
    call.mockResolvedValue({ valid: false, fields: { purpose_detail: [message] } });
    const user = open('/_forms/register-profile');
    await user.click(await screen.findByRole('button', { name: texts.fillSample }, { timeout: 10_000 }));
    await user.click(screen.getByRole('button', { name: texts.serverVerdict }));
    expect(await screen.findByText(texts.serverInvalid)).toBeTruthy();
    expect(screen.getByText(format(texts.serverField, { field: profileUi.purpose_detail['ui:title'], key: 'purpose_detail', message }))).toBeTruthy();
    expect(call).toHaveBeenCalledWith('post', '/_dev/forms/register-profile/verdict', { auth: 'client', body: shownData() });
  });
});

describe('form review page: stored data', () => {
  it('shows how many stored members the form refuses, above it and beside each judged field', async () => {
    const summary = '保存済みデータ（npm run impact と同じ判定）：有効な会員 10人のうち 3人がこのフォームを通りません。';
    const refusedNote = '保存済みの有効な会員：3人が通りません（30文字以上 3人）';
    const passNote = '保存済みの有効な会員：すべて通ります';
    call.mockImplementation(async (_method: string, path: string) =>
      path.endsWith('/impact')
        ? {
            impact: { form: 'register-profile', fields: [{ field: 'purpose_detail', refused: 3, label: '', rules: [] }], judged: 10, refused: 3, judgedFields: ['purpose_detail', 'last_name_kanji'] },
            summary,
            notes: { purpose_detail: refusedNote, last_name_kanji: passNote },
          }
        : undefined,
    );
    open('/_forms/register-profile');
    expect((await screen.findByTestId('form-review-impact', {}, { timeout: 10_000 })).textContent).toBe(summary);
    expect(call).toHaveBeenCalledWith('get', '/_dev/forms/register-profile/impact', { auth: 'client' });
    const field = (name: string) => document.querySelector(`[data-field="root_${name}"]`) as HTMLElement;
    await waitFor(() => expect(within(field('purpose_detail')).getByText(refusedNote)).toBeTruthy());
    expect(within(field('purpose_detail')).getByText(refusedNote).className).toContain('form-review__impact--refused');
    expect(within(field('last_name_kanji')).getByText(passNote).className).not.toContain('--refused');
    // A field's own help stays beside the note.
    const help = (profileUi as Record<string, { 'ui:help'?: string }>).purpose_detail?.['ui:help'];
    if (help) expect(within(field('purpose_detail')).getByText(help)).toBeTruthy();
  });

  it('says so when the counts cannot be had, and the form works as before', async () => {
    call.mockImplementation(async (_method: string, path: string) => {
      if (path.endsWith('/impact')) throw new Error('offline');
      return undefined;
    });
    open('/_forms/register-profile');
    expect((await screen.findByTestId('form-review-impact', {}, { timeout: 10_000 })).textContent).toBe(format(texts.impactFailed, { message: 'offline' }));
    expect(screen.getByRole('button', { name: texts.fillSample })).toBeTruthy();
  });
});
