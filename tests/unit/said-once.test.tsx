// @vitest-environment jsdom
// A sentence is said once next to a field: a help text that an error of the same field repeats
// word for word steps aside while the error shows (purposes: the limit as help, and going over
// it). And a rule no more typing can meet shows its message at once, while the member is still
// in the field (e-mail change: the new address is the current one, the button waits on it).
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import * as profileForm from 'virtual:form/register-profile';
import * as emailChangeForm from 'virtual:form/email-change';
import options from '../../schemas/masters/options.json';
import type { FormModule } from '../../src/engine/SchemaForm';
import { FormHarness, catchUp } from '../support/form-harness';
import { rulesIn } from '../support/schema-rules';

afterEach(cleanup);

const profile = profileForm as FormModule;
const emailChange = emailChangeForm as FormModule;

const textsOf = (field: string) => {
  const box = document.querySelector(`[data-field="root_${field}"]`)!;
  return {
    errors: Array.from(box.querySelectorAll('.field__errors li')).map((li) => li.textContent),
    help: box.querySelector('.field__help')?.textContent ?? null,
    count: (needle: string) => (box.textContent ?? '').split(needle).length - 1,
  };
};

describe('help and error say one sentence once', () => {
  it('going over the purposes limit shows the limit once, as the error; below it, as help', () => {
    render(<FormHarness form={profile} masters={{ purpose: options.purpose }} />);
    const tooMany = rulesIn(profile.schema).message('purpose', 'maxItems');
    const max = (profile.schema.properties!.purpose as { maxItems?: number }).maxItems ?? 8;
    expect(options.purpose.length).toBeGreaterThan(max);
    expect(textsOf('purpose').help).toBe(tooMany); // the limit, as help, before any choice
    const boxes = within(screen.getByRole('group', { name: /二地域居住の目的/ })).getAllByRole('checkbox');
    for (const box of boxes.slice(0, max + 1)) fireEvent.click(box);
    fireEvent.blur(boxes[max]);
    catchUp();
    const shown = textsOf('purpose');
    expect(shown.errors).toEqual([tooMany]);
    expect(shown.count(tooMany)).toBe(1);
    expect(shown.help).toBeNull();
    // The group is described by what is on the page only: no id of a help that is not rendered.
    const group = screen.getByRole('group', { name: /二地域居住の目的/ });
    for (const id of (group.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean)) expect(document.getElementById(id)).not.toBeNull();
    // Back within the limit: the help returns.
    fireEvent.click(boxes[max]);
    catchUp();
    expect(textsOf('purpose').help).toBe(tooMany);
    expect(textsOf('purpose').errors).toEqual([]);
  });
});

describe('a rule no more typing can meet shows at once', () => {
  const current = 'member@example.com';
  const typeInto = (input: HTMLElement, text: string) => {
    act(() => input.focus());
    fireEvent.input(input, { target: { value: text } });
    catchUp();
  };

  it('the current address typed as the new one says why, before the field is left', () => {
    render(<FormHarness form={emailChange} initial={{ current_email: current }} />);
    const input = screen.getByRole('textbox', { name: /^新しいメールアドレス/ });
    const same = rulesIn(emailChange.schema).message('email', 'differentFrom');
    typeInto(input, 'member@');
    expect(textsOf('email').errors).toEqual([]); // half typed: nothing yet (ADR 007)
    typeInto(input, current);
    expect(document.activeElement).toBe(input);
    expect(textsOf('email').errors).toEqual([same]);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toContain('root_email__error');
    typeInto(input, 'other@example.com');
    expect(textsOf('email').errors).toEqual([]);
  });
});
