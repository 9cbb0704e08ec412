// minDate / maxDate relative to the day of the check ("today+10y", "today-18y", months, days):
// the precompiled validator the browser gets and the server's ajv both work the bound out when a
// value is checked, in Japan's calendar, so a validator built a year ago still means "10年以内"
// of today.
import type { RJSFSchema } from '@rjsf/utils';
import { hashForSchema } from '@rjsf/utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAjv } from '../../src/shared/validation/ajv-setup';
import { dateBoundAt, parseDateBound } from '../../src/shared/validation/date-bounds';
import { importPrecompiled } from '../support/precompiled';
import { precompileValidators } from '../../tools/precompile';

const schema = {
  type: 'object',
  properties: {
    moving: { type: 'string', format: 'date', minDate: 'today', maxDate: 'today+10y', errorMessage: { minDate: '今日以降の日付を入力してください', maxDate: '10年以内の日付を入力してください' } },
    birthday: { type: 'string', format: 'date', maxDate: 'today-18y', errorMessage: { maxDate: '18歳以上の方が登録できます' } },
    visit: { type: 'string', format: 'date', minDate: 'today-6m', maxDate: 'today+30d', errorMessage: { minDate: '半年以内', maxDate: '30日以内' } },
  },
} as RJSFSchema;

/** 2026-11-29 00:30 in Japan (15:30 UTC the day before). */
const NOW = Date.UTC(2026, 10, 28, 15, 30);
const YEAR_LATER = Date.UTC(2027, 10, 28, 15, 30);

afterEach(() => vi.useRealTimers());

type Validate = ((data: unknown) => boolean) & { errors?: Array<{ instancePath: string; message?: string }> | null };

const validators: Array<[string, () => Promise<Validate>]> = [
  ['the server (ajv)', async () => createAjv().compile(schema) as Validate],
  ['the browser (precompiled once, before the clock moves)', async () => (await importPrecompiled(precompileValidators(schema))).validateFns[hashForSchema(schema)] as unknown as Validate],
];

describe('date bounds as written', () => {
  it('reads fixed dates, today and today moved by years, months or days', () => {
    expect(parseDateBound('1900-01-01')).toEqual({ fixed: '1900-01-01' });
    expect(parseDateBound('today')).toEqual({ relative: { sign: 1, amount: 0, unit: 'd' } });
    expect(parseDateBound('today-18y')).toEqual({ relative: { sign: -1, amount: 18, unit: 'y' } });
    expect(dateBoundAt('today+10y', NOW)).toBe('2036-11-29');
    expect(dateBoundAt('today-6m', NOW)).toBe('2026-05-29');
    expect(dateBoundAt('today+30d', NOW)).toBe('2026-12-29');
  });

  it('refuses anything else, saying what it takes', () => {
    expect(() => parseDateBound('tomorrow')).toThrow('"today±N(y|m|d)"');
    expect(() => parseDateBound('today+10 years')).toThrow();
    expect(() => createAjv().compile({ type: 'string', maxDate: 'next year' })).toThrow();
  });
});

describe.each(validators)('relative bounds in %s', (_label, make) => {
  it('are the day of the check in Japan, moved: n and n+1 at each bound', async () => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
    const validate = await make();
    const errorsOf = (data: Record<string, string>) => (validate(data) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`));
    expect(errorsOf({ moving: '2026-11-29', birthday: '2008-11-29', visit: '2026-05-29' })).toEqual([]);
    expect(errorsOf({ moving: '2036-11-29', visit: '2026-12-29' })).toEqual([]);
    expect(errorsOf({ moving: '2026-11-28' })).toEqual(['/moving 今日以降の日付を入力してください']);
    expect(errorsOf({ moving: '2036-11-30' })).toEqual(['/moving 10年以内の日付を入力してください']);
    expect(errorsOf({ birthday: '2008-11-30' })).toEqual(['/birthday 18歳以上の方が登録できます']);
    expect(errorsOf({ visit: '2026-05-28' })).toEqual(['/visit 半年以内']);
    expect(errorsOf({ visit: '2026-12-30' })).toEqual(['/visit 30日以内']);
  });

  it('move with the clock: the same validator, a year later, takes a year more', async () => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
    const validate = await make();
    expect(validate({ moving: '2037-11-29' })).toBe(false);
    vi.setSystemTime(YEAR_LATER);
    expect(validate({ moving: '2037-11-29' })).toBe(true);
    expect(validate({ moving: '2026-11-29' })).toBe(false);
  });
});
