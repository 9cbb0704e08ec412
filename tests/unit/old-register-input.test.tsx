// @vitest-environment jsdom
// The earlier generation's form takes the postal code and phone as members type them, hyphens
// and full-width digits included: nothing is cut while typing (no length cap on a field whose
// normalisers drop characters), the hyphens go on leaving the field and on send, and the old
// rules (7 digits; 0 and 10 digits) judge the normalised value on both sides.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as oldRegisterForm from 'virtual:form/old-register';
import type { FormModule } from '../../src/engine/SchemaForm';
import { normalise } from '../../src/shared/normalise';
import { FormHarness, catchUp } from '../support/form-harness';

afterEach(cleanup);

const form = oldRegisterForm as FormModule;

function setup() {
  const onData = vi.fn();
  const user = userEvent.setup();
  render(<FormHarness form={form} onData={onData} postalLookup={async () => []} />);
  const data = () => (onData.mock.lastCall?.[0] ?? {}) as Record<string, unknown>;
  return { user, data, text: (name: RegExp) => screen.getByRole('textbox', { name }) as HTMLInputElement };
}

describe('old registration: hyphenated postal code and phone', () => {
  it.each([
    [/^電話番号/, '090-1234-5678', '09012345678'],
    [/^電話番号/, '０９０ー１２３４ー５６７８', '09012345678'],
    [/^郵便番号/, '100-0001', '1000001'],
  ])('%s: "%s" is kept whole while typing and sent as %s', async (name, typed, sent) => {
    const { user, data, text } = setup();
    const input = text(name);
    expect(input.maxLength).toBe(-1); // no cap: the schema judges the normalised value
    await user.type(input, typed);
    catchUp();
    expect(input.value.replace(/ー/g, '-')).toHaveLength(typed.length);
    await user.tab();
    catchUp();
    const field = name.source.includes('電話') ? 'phone' : 'zip_current';
    expect(data()[field]).toBe(sent);
    expect(normalise(form.schema, { [field]: typed })).toEqual({ [field]: sent });
  });
});
