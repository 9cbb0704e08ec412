// The bound of a date rule (`minDate` / `maxDate`): a fixed YYYY-MM-DD date, or a date relative to
// the day of the check in Japan: "today", "today+10y", "today-18y", "today+6m", "today-30d". A
// relative bound is worked out each time a value is checked (in the browser's precompiled
// validator and on the server alike), never when the validators are built, so "within 10 years"
// does not go stale. Years and months keep the day of the month; a day the target month lacks
// rolls over as JavaScript dates do (29 February + 1 year is 1 March).
export interface RelativeBound {
  sign: 1 | -1;
  amount: number;
  unit: 'y' | 'm' | 'd';
}

const RELATIVE = /^today(?:([+-])([0-9]{1,4})([ymd]))?$/;
const FIXED = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

/** The bound as written: a fixed date, or today moved by an amount (0 for "today" itself). */
export function parseDateBound(bound: string): { fixed: string } | { relative: RelativeBound } {
  if (FIXED.test(bound)) return { fixed: bound };
  const match = RELATIVE.exec(bound);
  if (!match) throw new Error(`A date bound is YYYY-MM-DD, "today" or "today±N(y|m|d)" (e.g. "today+10y"), not "${bound}"`);
  const [, sign = '+', amount = '0', unit = 'd'] = match;
  return { relative: { sign: sign === '-' ? -1 : 1, amount: Number(amount), unit: unit as RelativeBound['unit'] } };
}

/** The bound's date (YYYY-MM-DD) for a check made at `nowMs` (Japan's calendar day). */
export function dateBoundAt(bound: string, nowMs: number): string {
  const parsed = parseDateBound(bound);
  if ('fixed' in parsed) return parsed.fixed;
  return shiftedJapanDay(nowMs, parsed.relative.sign * parsed.relative.amount, parsed.relative.unit);
}

/** Japan's day at `nowMs` moved by `by` years, months or days, as YYYY-MM-DD. Written without
 *  closures over this module, because the precompiled validators carry its source. */
export function shiftedJapanDay(nowMs: number, by: number, unit: string): string {
  const d = new Date(nowMs + 324e5);
  if (unit === 'y') d.setUTCFullYear(d.getUTCFullYear() + by);
  else if (unit === 'm') d.setUTCMonth(d.getUTCMonth() + by);
  else d.setUTCDate(d.getUTCDate() + by);
  return d.toISOString().slice(0, 10);
}
