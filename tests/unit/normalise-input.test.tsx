// @vitest-environment jsdom
// The input normalisers of register-profile's UI schema ("normalise": [...]) as the member types:
// toHalfWidth on phone, amc and zip_current; stripEmoji on address_current, purpose_detail and
// purpose_other. Never during an IME composition: only once it ends.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as profileForm from 'virtual:form/register-profile';
import type { FormModule } from '../../src/engine/SchemaForm';
import { FormHarness, catchUp } from '../support/form-harness';
import messages from '../../messages/ja.json';
import { format } from '../../src/shared/format';

afterEach(cleanup);

const profile = profileForm as FormModule;
const purposes = [
  { value: '1', label: '週末・休暇を地方で過ごす' },
  { value: '99', label: 'その他' },
];

function setup() {
  const onData = vi.fn();
  const user = userEvent.setup();
  render(<FormHarness form={profile} onData={onData} masters={{ purpose: purposes }} postalLookup={async () => []} />);
  // rjsf reports the schema defaults (gender, job, …) once on mount; only what follows matters here
  onData.mockClear();
  const data = () => (onData.mock.lastCall?.[0] ?? {}) as Record<string, unknown>;
  const text = (name: RegExp) => screen.getByRole('textbox', { name }) as HTMLInputElement | HTMLTextAreaElement;
  return { user, onData, data, text };
}

describe('toHalfWidth while typing (phone, amc, zip_current)', () => {
  it('phone: full-width digits and long-vowel marks become "090-1234-5678"', async () => {
    const { user, data, text } = setup();
    const phone = text(/^電話番号/);
    await user.type(phone, '０９０ー１２３４ー５６７８');
    catchUp();
    expect(phone.value).toBe('090-1234-5678');
    expect(data().phone).toBe('090-1234-5678');
  });

  it('phone: full-width hyphens (－) and other dashes (‐ − ｰ) become "-"', async () => {
    const { user, data, text } = setup();
    const phone = text(/^電話番号/);
    await user.type(phone, '０３－１２３４‐５６７８');
    catchUp();
    expect(data().phone).toBe('03-1234-5678');
    await user.clear(phone);
    catchUp();
    await user.type(phone, '03−1234ｰ5678');
    catchUp();
    expect(data().phone).toBe('03-1234-5678');
  });

  it('amc: full-width digits become half-width', async () => {
    const { user, data, text } = setup();
    const amc = text(/^マイレージクラブお客様番号/);
    await user.type(amc, '１２３４５６７８９０');
    catchUp();
    expect(amc.value).toBe('1234567890');
    expect(data().amc).toBe('1234567890');
  });

  it('amc: a mix of half- and full-width digits', async () => {
    const { user, data, text } = setup();
    await user.type(text(/^マイレージクラブお客様番号/), '12３4５6７8９0');
    catchUp();
    expect(data().amc).toBe('1234567890');
  });

  it('a pasted full-width phone number is normalised too', async () => {
    const { user, data, text } = setup();
    await user.click(text(/^電話番号/));
    await user.paste('０９０－１２３４－５６７８');
    catchUp();
    expect(data().phone).toBe('090-1234-5678');
  });

  it('fields without the normaliser keep full-width digits (the kanji name)', async () => {
    const { user, data, text } = setup();
    await user.type(text(/^姓(?!（)/), '山田１');
    catchUp();
    expect(data().last_name_kanji).toBe('山田１');
  });
});

describe('a roman name stored in its passport spelling (x-normalise toPassportSpelling, stored only)', () => {
  const storedAs = (value: string) => format(messages.form.storedAs, { value });

  it('keeps José in the box as typed and shows, and describes the box with, what will be stored', async () => {
    const { user, data, text } = setup();
    const given = text(/^名（ローマ字）/) as HTMLInputElement;
    await user.type(given, 'José ');
    await user.tab();
    catchUp();
    expect(given.value).toBe('José');
    expect(data().first_name_alphabet).toBe('José');
    const note = screen.getByText(storedAs('JOSE'));
    expect(given.getAttribute('aria-describedby')?.split(' ')).toContain(note.id);
    expect(given.getAttribute('aria-invalid')).toBe('false');
  });

  it('shows nothing for a name typed as it is stored, and no stored form beside an error', async () => {
    const { user, text } = setup();
    const family = text(/^姓（ローマ字）/) as HTMLInputElement;
    await user.type(family, 'YAMADA');
    await user.tab();
    catchUp();
    expect(screen.queryByText(/YAMADA$/)).toBeNull();
    expect(family.getAttribute('aria-describedby') ?? '').not.toMatch(/__stored/);
    await user.clear(family);
    await user.type(family, 'Yamada2');
    await user.tab();
    catchUp();
    expect(family.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByText(storedAs('YAMADA2'))).toBeNull();
    expect(family.getAttribute('aria-describedby') ?? '').not.toMatch(/__stored/);
  });
});

describe('stripEmoji while typing (address_current, purpose_detail, purpose_other)', () => {
  it('address_current: emoji are removed', async () => {
    const { user, data, text } = setup();
    const address = text(/^住所/);
    await user.type(address, '東京都😀千代田区🏠千代田1-1');
    catchUp();
    expect(address.value).toBe('東京都千代田区千代田1-1');
    expect(data().address_current).toBe('東京都千代田区千代田1-1');
  });

  it('purpose_detail: emoji (with joiners, variation selectors and skin tones) are removed', async () => {
    const { user, data, text } = setup();
    const detail = text(/^具体的な目的/);
    await user.click(detail);
    await user.paste('週末は長野で畑を借りて👨‍👩‍👧家族と野菜づくり❤️をしたい👍🏽です');
    catchUp();
    expect(detail.value).toBe('週末は長野で畑を借りて家族と野菜づくりをしたいです');
    expect(data().purpose_detail).toBe('週末は長野で畑を借りて家族と野菜づくりをしたいです');
  });

  it('purpose_detail: a typed emoji is removed', async () => {
    const { user, data, text } = setup();
    await user.type(text(/^具体的な目的/), '畑😀');
    catchUp();
    expect(data().purpose_detail).toBe('畑');
  });

  it('purpose_other: emoji are removed', async () => {
    const { user, data, text } = setup();
    await user.click(screen.getByRole('checkbox', { name: 'その他' }));
    const other = await screen.findByRole('textbox', { name: /^その他の目的/ });
    await user.type(other, '祭り🎉の手伝い');
    catchUp();
    expect(data().purpose_other).toBe('祭りの手伝い');
    expect(text(/^その他の目的/).value).toBe('祭りの手伝い');
  });

  it('emoji in the phone field are not removed (only toHalfWidth applies there)', async () => {
    const { data, text } = setup();
    fireEvent.input(text(/^電話番号/), { target: { value: '090😀' } });
    catchUp();
    expect(data().phone).toBe('090😀');
  });
});

describe('nothing is normalised during an IME composition', () => {
  /** Types `steps` into `el` inside one composition; returns after compositionend. */
  function compose(el: HTMLElement, steps: string[], expectDuring: (value: string) => void) {
    act(() => el.focus());
    fireEvent.compositionStart(el, { data: '' });
    for (const value of steps) {
      fireEvent.input(el, { target: { value } });
      expectDuring(value);
    }
    fireEvent.compositionEnd(el, { data: steps.at(-1) });
  }

  it('phone: full-width digits and ー stay as typed until compositionend, then become half-width', () => {
    const { onData, data, text } = setup();
    const phone = text(/^電話番号/);
    compose(phone, ['０', '０９０', '０９０ー', '０９０ー１２３４'], (typed) => {
      expect(phone.value).toBe(typed);
      expect(onData).not.toHaveBeenCalled();
    });
    expect(phone.value).toBe('090-1234');
    expect(data().phone).toBe('090-1234');
    expect(onData).toHaveBeenCalledTimes(1);
  });

  it('amc: committed half-width only on compositionend', () => {
    const { onData, data, text } = setup();
    const amc = text(/^マイレージクラブお客様番号/);
    compose(amc, ['１２３', '１２３４５６７８９０'], (typed) => {
      expect(amc.value).toBe(typed);
      expect(onData).not.toHaveBeenCalled();
    });
    expect(data().amc).toBe('1234567890');
  });

  it('address_current: an emoji from the IME candidate list stays until compositionend, then goes', () => {
    const { onData, data, text } = setup();
    const address = text(/^住所/);
    compose(address, ['とうきょう', '東京', '東京😀'], (typed) => {
      expect(address.value).toBe(typed);
      expect(onData).not.toHaveBeenCalled();
    });
    expect(address.value).toBe('東京');
    expect(data().address_current).toBe('東京');
  });

  it('purpose_detail: the same in the textarea', () => {
    const { onData, data, text } = setup();
    const detail = text(/^具体的な目的/);
    compose(detail, ['はたけ', '畑', '畑🌱'], (typed) => {
      expect(detail.value).toBe(typed);
      expect(onData).not.toHaveBeenCalled();
    });
    expect(detail.value).toBe('畑');
    expect(data().purpose_detail).toBe('畑');
  });

  it('an input event flagged isComposing is not committed either', () => {
    const { onData, text } = setup();
    const phone = text(/^電話番号/);
    fireEvent.input(phone, { target: { value: '０９０' }, isComposing: true });
    expect(phone.value).toBe('０９０');
    expect(onData).not.toHaveBeenCalled();
  });
});
