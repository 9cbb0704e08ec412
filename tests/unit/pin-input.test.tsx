// @vitest-environment jsdom
// The 5-box PIN widget of the login-code form, rendered through the engine's SchemaForm.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
// The module the login screen imports: schemas/ bundled and precompiled by the build plugin.
import * as form from 'virtual:form/login-code';
import { FormHarness } from '../support/form-harness';
import { rulesIn } from '../support/schema-rules';

afterEach(cleanup);

/** The code field's message for too few digits (fields.json code, as the form states it). */
const INCOMPLETE = rulesIn(form.schema).message('code', 'minLength');

/** The field's label as the form shows it (its UI schema's title, the length filled in). */
const LABEL = (form.uiSchema.code as { 'ui:title': string })['ui:title'];

function setup() {
  const onData = vi.fn();
  const onSubmit = vi.fn();
  const user = userEvent.setup();
  render(<FormHarness form={form} onData={onData} onSubmit={onSubmit} />);
  const boxes = within(screen.getByRole('group', { name: LABEL })).getAllByRole('textbox') as HTMLInputElement[];
  /** The code as the form holds it (the last committed change). */
  const code = () => (onData.mock.lastCall?.[0] as { code?: string } | undefined)?.code;
  const values = () => boxes.map((b) => b.value).join('|');
  return { user, boxes, onData, onSubmit, code, values };
}

const shownErrors = () => Array.from(document.querySelectorAll('.field__errors li')).map((li) => li.textContent);

describe('PIN input (login-code form)', () => {
  it('renders 5 numeric boxes, the first one offering one-time-code autofill', () => {
    const { boxes } = setup();
    expect(boxes).toHaveLength(5);
    for (const box of boxes) {
      expect(box.getAttribute('inputmode')).toBe('numeric');
      expect(box.getAttribute('type')).toBe('text');
    }
    expect(boxes[0].getAttribute('autocomplete')).toBe('one-time-code');
    for (const box of boxes.slice(1)) expect(box.getAttribute('autocomplete')).not.toBe('one-time-code');
    expect(boxes.map((b) => b.getAttribute('aria-label'))).toEqual(['1桁目', '2桁目', '3桁目', '4桁目', '5桁目']);
    // The group is named once by its label (issue 35: it read 「認証コード（5桁）（5桁の数字）」).
    expect(screen.getByRole('group', { name: LABEL })).toBeTruthy();
    expect(LABEL).toMatch(/^認証コード（5桁）$/);
    for (const box of boxes) expect(box.required).toBe(true);
  });

  it('moves the focus from box to box while digits are typed', async () => {
    const { user, boxes, code, values } = setup();
    await user.click(boxes[0]);
    expect(document.activeElement).toBe(boxes[0]);
    for (const [i, digit] of ['1', '2', '3', '4'].entries()) {
      await user.keyboard(digit);
      expect(document.activeElement).toBe(boxes[i + 1]);
    }
    await user.keyboard('5');
    expect(document.activeElement).toBe(boxes[4]);
    expect(values()).toBe('1|2|3|4|5');
    expect(code()).toBe('12345');
  });

  it('fills all boxes from a pasted code', async () => {
    const { user, boxes, code, values, onSubmit } = setup();
    await user.click(boxes[0]);
    await user.paste('12345');
    expect(values()).toBe('1|2|3|4|5');
    expect(code()).toBe('12345');
    expect(document.activeElement).toBe(boxes[4]);
    await user.click(screen.getByRole('button', { name: '認証してログイン' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ code: '12345' }));
  });

  it('fills all boxes from a full code pasted into a later box', async () => {
    const { user, boxes, code } = setup();
    await user.click(boxes[2]);
    await user.paste('54321');
    expect(code()).toBe('54321');
  });

  it('converts a pasted full-width code to half-width digits', async () => {
    const { user, boxes, code, values } = setup();
    await user.click(boxes[0]);
    await user.paste('１２３４５');
    expect(values()).toBe('1|2|3|4|5');
    expect(code()).toBe('12345');
  });

  it('keeps only the digits of a pasted text ("認証コード: 123-45")', () => {
    const { boxes, code } = setup();
    fireEvent.paste(boxes[0], { clipboardData: { getData: () => '認証コード: 123-45' } });
    expect(code()).toBe('12345');
  });

  it('Backspace on an empty box clears the previous box and focuses it', async () => {
    const { user, boxes, code, values } = setup();
    await user.click(boxes[0]);
    await user.keyboard('12');
    expect(document.activeElement).toBe(boxes[2]);
    expect(boxes[2].value).toBe('');
    await user.keyboard('{Backspace}');
    expect(document.activeElement).toBe(boxes[1]);
    expect(values()).toBe('1||||');
    expect(code()).toBe('1');
    // box 2 is empty now, so the next Backspace goes on back to box 1
    await user.keyboard('{Backspace}');
    expect(document.activeElement).toBe(boxes[0]);
    expect(values()).toBe('||||');
    expect(code()).toBeUndefined();
    // on the first box there is nothing before it: nothing happens
    await user.keyboard('{Backspace}');
    expect(document.activeElement).toBe(boxes[0]);
  });

  it('ignores non-digits', async () => {
    const { user, boxes, code, values, onData } = setup();
    await user.click(boxes[0]);
    await user.keyboard('a');
    await user.keyboard('-');
    await user.keyboard('あ');
    expect(values()).toBe('||||');
    expect(document.activeElement).toBe(boxes[0]);
    expect(onData.mock.calls.every(([data]) => (data as { code?: string }).code === undefined)).toBe(true);
    await user.keyboard('7');
    expect(code()).toBe('7');
    expect(document.activeElement).toBe(boxes[1]);
  });

  it('converts a typed full-width digit', async () => {
    const { user, boxes, code } = setup();
    await user.click(boxes[0]);
    await user.keyboard('９');
    expect(code()).toBe('9');
  });

  it('shows no error while the member moves from box to box, and the message once they leave the code', async () => {
    const { user, boxes } = setup();
    await user.click(boxes[0]);
    await user.keyboard('12');
    expect(document.activeElement).toBe(boxes[2]);
    // still typing the code: moving between its own boxes is not leaving the field
    expect(shownErrors()).toEqual([]);
    await user.click(document.body);
    await waitFor(() => expect(shownErrors()).toEqual([INCOMPLETE]));
    // The group, which a screen reader announces on entering it, carries the error too (issue 35).
    const group = screen.getByRole('group', { name: LABEL });
    expect(group.getAttribute('aria-invalid')).toBe('true');
    expect(group.getAttribute('aria-describedby')).toContain('root_code__error');
  });

  it('shows the schema message under the field once submitted incomplete', async () => {
    const { user, boxes, onSubmit } = setup();
    await user.click(boxes[0]);
    await user.keyboard('12');
    await user.click(screen.getByRole('button', { name: '認証してログイン' }));
    await waitFor(() => expect(shownErrors()).toEqual([INCOMPLETE]));
    // the summary above it links to the code's first box
    const link = screen.getByRole('link', { name: new RegExp(INCOMPLETE) });
    await user.click(link);
    expect(document.activeElement).toBe(boxes[0]);
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
