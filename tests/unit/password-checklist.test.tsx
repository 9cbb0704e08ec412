// @vitest-environment jsdom
// The password checklist of register-profile, rendered through the engine's SchemaForm: one line
// per `allOf` item of the field's schema (fields.json#/$defs/newPassword), labelled by the item's
// title, ticked live as the member types, in agreement with the validator's messages.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RJSFSchema } from '@rjsf/utils';
import * as profileForm from 'virtual:form/register-profile';
import messages from '../../messages/ja.json';
import type { FormModule } from '../../src/engine/SchemaForm';
import { FormHarness, catchUp } from '../support/form-harness';
import { browserFieldErrors } from '../support/field-messages';
import { inlineFormModule } from '../support/precompiled';

afterEach(cleanup);

const profile = profileForm as FormModule;

interface RuleDef {
  title: string;
  errorMessage: Record<string, string>;
}
/** The checklist rules of schemas/shared/fields.json, as the form gets them (texts filled). */
const RULES = (profile.schema.$defs as Record<string, { allOf: RuleDef[] }>)['fields.newPassword'].allOf;
const TITLES = RULES.map((rule) => rule.title);
const MIN = (RULES[0] as unknown as { minLength: number }).minLength;

const SIX_TITLES = [`${MIN}文字以上`, '英小文字を含む', '英大文字を含む', '数字を含む', '記号を含む', '同じ文字を8回以上続けない'];

function setup(form: FormModule = profile) {
  const onData = vi.fn();
  const user = userEvent.setup();
  render(<FormHarness form={form} onData={onData} />);
  const input = document.getElementById('root_password') as HTMLInputElement;
  const list = screen.getByRole('list');
  expect(list.id).toBe('root_password__checklist');
  const items = () =>
    Array.from(list.querySelectorAll('li')).map((li) => ({
      // the label is the li's own text, without the mark (aria-hidden) and the hidden status
      title: Array.from(li.childNodes)
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent)
        .join('')
        .trim(),
      ok: li.classList.contains('checklist__item--ok'),
      status: li.querySelector('.visually-hidden')?.textContent,
      mark: li.querySelector('[aria-hidden="true"]')?.textContent,
    }));
  const ticked = () => items().filter((item) => item.ok).map((item) => item.title);
  return { user, input, list, items, ticked, onData };
}

describe('password checklist (register-profile)', () => {
  it('the schema file has the six rules, and the checklist shows their titles in order', () => {
    expect(TITLES).toEqual(SIX_TITLES);
    const { items } = setup();
    expect(items().map((item) => item.title)).toEqual(SIX_TITLES);
  });

  it("the input's description is the rules with their state, not a name of the list (issue 35, point 3)", async () => {
    const { user, input } = setup();
    // The description as accessible-name computation makes it: each described-by element's name
    // if it has one (aria-label), else its text, without what is hidden from assistive technology.
    const description = () =>
      (input.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .filter(Boolean)
        .map((id) => {
          const node = document.getElementById(id)!.cloneNode(true) as Element;
          node.querySelectorAll('[aria-hidden="true"]').forEach((hidden) => hidden.remove());
          return node.getAttribute('aria-label') ?? node.textContent ?? '';
        })
        .join('')
        .replace(/\s+/g, '');
    for (const title of SIX_TITLES) expect(description()).toContain(`${title}${messages.form.ruleUnmet}`);
    await user.type(input, 'abcdefgh');
    catchUp();
    expect(description()).toContain(`${SIX_TITLES[0]}${messages.form.ruleMet}`);
    expect(description()).toContain(`${SIX_TITLES[2]}${messages.form.ruleUnmet}`);
  });

  it('nothing is ticked for an empty password (not even the repetition rule)', () => {
    const { items } = setup();
    for (const item of items()) {
      expect(item.ok, item.title).toBe(false);
      expect(item.status, item.title).toBe(messages.form.ruleUnmet);
      expect(item.mark, item.title).toBe('・');
    }
  });

  it('the input is a password input with autocomplete=new-password, and the confirmation too', () => {
    const { input } = setup();
    expect(input.type).toBe('password');
    expect(input.getAttribute('autocomplete')).toBe('new-password');
    expect(document.querySelector('label[for="root_password"]')?.firstChild?.textContent).toBe('パスワード');
    const confirm = document.getElementById('root_password_confirm') as HTMLInputElement;
    expect(confirm.type).toBe('password');
    expect(confirm.getAttribute('autocomplete')).toBe('new-password');
  });

  it('ticks exactly the satisfied rules as the member types', async () => {
    const { user, input, ticked, onData } = setup();
    await user.click(input);
    await user.keyboard('a');
    catchUp();
    expect(ticked()).toEqual(['英小文字を含む', '同じ文字を8回以上続けない']);
    await user.keyboard('A');
    catchUp();
    expect(ticked()).toEqual(['英小文字を含む', '英大文字を含む', '同じ文字を8回以上続けない']);
    await user.keyboard('1');
    catchUp();
    expect(ticked()).toEqual(['英小文字を含む', '英大文字を含む', '数字を含む', '同じ文字を8回以上続けない']);
    await user.keyboard('!');
    catchUp();
    expect(ticked()).toEqual(['英小文字を含む', '英大文字を含む', '数字を含む', '記号を含む', '同じ文字を8回以上続けない']);
    await user.keyboard('bcd');
    catchUp();
    expect(ticked()).toEqual(['英小文字を含む', '英大文字を含む', '数字を含む', '記号を含む', '同じ文字を8回以上続けない']);
    await user.keyboard('e');
    catchUp();
    expect(ticked()).toEqual(SIX_TITLES);
    expect(input.value).toBe('aA1!bcde');
    expect(onData.mock.lastCall?.[0]).toMatchObject({ password: 'aA1!bcde' });
  });

  it('unticks the repetition rule at the 8th identical character, and everything when cleared', async () => {
    const { user, input, ticked, items } = setup();
    await user.click(input);
    await user.keyboard('Aa1!aaaaaaa'); // ends with a run of 7 a's
    catchUp();
    expect(ticked()).toEqual(SIX_TITLES);
    await user.keyboard('a'); // 8 a's in a row
    catchUp();
    expect(ticked()).toEqual(['8文字以上', '英小文字を含む', '英大文字を含む', '数字を含む', '記号を含む']);
    const repetition = items().find((item) => item.title === '同じ文字を8回以上続けない');
    expect(repetition).toMatchObject({ ok: false, status: messages.form.ruleUnmet, mark: '・' });
    expect(items().find((item) => item.title === '8文字以上')).toMatchObject({ ok: true, status: messages.form.ruleMet, mark: '✓' });
    await user.clear(input);
    catchUp();
    expect(ticked()).toEqual([]);
  });

  // (an empty input is committed as undefined, so '' never reaches the validator; for it the
  // checklist deliberately ticks nothing, see above)
  it.each(['a', 'abc', 'ABCDEFGH', 'abcdefg1', 'Abcdef1!', 'Aa1!aaaaaaa', 'Aa1!aaaaaaaa', '!!!!!!!!', '12345678Aa'])(
    'the unticked lines are exactly the validator messages for %j',
    (password) => {
      const { items } = setup();
      fireEvent.input(document.getElementById('root_password')!, { target: { value: password } });
      catchUp();
      const unmet = items()
        .filter((item) => !item.ok)
        .map((item) => Object.values(RULES.find((rule) => rule.title === item.title)!.errorMessage)[0]);
      const shown = browserFieldErrors(profile, { password }).password ?? [];
      expect(unmet).toEqual(shown);
    },
  );

  it('the labels come from the schema: a copied schema with a renamed and an added rule changes the checklist', async () => {
    const schema = structuredClone(profile.schema) as RJSFSchema & { $defs: Record<string, { allOf: object[] }> };
    const def = schema.$defs['fields.newPassword'];
    expect(def, 'the bundled form keeps newPassword as $defs["fields.newPassword"]').toBeDefined();
    def.allOf[0] = { ...def.allOf[0], title: '最低8文字（テスト用の名前）' };
    def.allOf.push({ title: '「?」を含まない', not: { pattern: '\\?' }, errorMessage: { not: '「?」は使用できません' } });
    const copy = await inlineFormModule('register-profile-copy', schema, profile.uiSchema);

    const { user, input, items, ticked } = setup(copy);
    expect(items().map((item) => item.title)).toEqual(['最低8文字（テスト用の名前）', ...SIX_TITLES.slice(1), '「?」を含まない']);
    expect(screen.queryByText('8文字以上')).toBeNull();
    await user.click(input);
    await user.keyboard('Abcdef1!');
    catchUp();
    expect(ticked()).toEqual(['最低8文字（テスト用の名前）', ...SIX_TITLES.slice(1), '「?」を含まない']);
    await user.keyboard('?');
    catchUp();
    expect(ticked()).toEqual(['最低8文字（テスト用の名前）', ...SIX_TITLES.slice(1)]);
  });
});
