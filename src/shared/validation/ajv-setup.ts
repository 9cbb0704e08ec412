// The one ajv configuration. The client's precompiled validators (tools/vite-plugin-forms.ts)
// and the API server (src/server/validation.ts) are both built from it, so a value gets the
// same verdict and the same Japanese message on both sides.
import type Ajv from 'ajv';
import { _, type KeywordCxt, type Options } from 'ajv';
import ajvErrors from 'ajv-errors';
import { parseDateBound } from './date-bounds.ts';
import createAjvInstance from '@rjsf/validator-ajv8/lib/createAjvInstance.js';

// rjsf's own defaults (allErrors, verbose, strict: false) plus what ajv-errors needs.
export const ajvOptions: Options = { allErrors: true, $data: false };

/** ajv-errors, plus two comparisons with a sibling field: `sameAs` (a confirmation) and
 *  `differentFrom` (a new value), and the bounds of a date (`minDate`, `maxDate`).
 *  Written as generated code, so it survives standalone precompilation. */
export function withErrorMessages(ajv: Ajv): Ajv {
  ajv.addKeyword({
    keyword: 'sameAs',
    schemaType: 'string',
    code(cxt: KeywordCxt) {
      const { data, schema, it } = cxt;
      cxt.fail(_`${it.parentData} && ${data} !== ${it.parentData}[${schema as string}]`);
    },
  });
  // `differentFrom`: a new value must differ from a sibling ("differentFrom": "current_email"),
  // ignoring letter case: addresses are canonical (lower-case), and a password that is the
  // address in other capitals is no better than the address.
  ajv.addKeyword({
    keyword: 'differentFrom',
    schemaType: 'string',
    code(cxt: KeywordCxt) {
      const { data, schema, it } = cxt;
      const other = _`${it.parentData}[${schema as string}]`;
      cxt.fail(_`${it.parentData} && typeof ${data} == "string" && typeof ${other} == "string" && ${data}.toLowerCase() === ${other}.toLowerCase()`);
    },
  });
  // `minDate` / `maxDate`: a YYYY-MM-DD date not before / not after a bound, itself a YYYY-MM-DD
  // date, "today" or today moved by years, months or days ("today+10y", "today-18y"; see
  // date-bounds.ts): the date in Japan when the value is checked, on either side, worked out in
  // the generated code itself so a precompiled validator never holds a stale date. Only a value
  // of that shape is compared; anything else is `format: date`'s to refuse, so a member reads one
  // message, not two.
  for (const [keyword, op] of [['minDate', '<'], ['maxDate', '>']] as const) {
    ajv.addKeyword({
      keyword,
      schemaType: 'string',
      code(cxt: KeywordCxt) {
        const { data, schema } = cxt;
        const parsed = parseDateBound(schema as string);
        let bound = _`${schema as string}`;
        if ('relative' in parsed) {
          const { sign, amount, unit } = parsed.relative;
          const day = cxt.gen.const('day', _`new Date(Date.now() + 324e5)`);
          if (unit === 'y') cxt.gen.code(_`${day}.setUTCFullYear(${day}.getUTCFullYear() + ${sign * amount})`);
          else if (unit === 'm') cxt.gen.code(_`${day}.setUTCMonth(${day}.getUTCMonth() + ${sign * amount})`);
          else if (amount !== 0) cxt.gen.code(_`${day}.setUTCDate(${day}.getUTCDate() + ${sign * amount})`);
          bound = _`${day}.toISOString().slice(0, 10)`;
        }
        const shaped = _`typeof ${data} == "string" && /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(${data})`;
        cxt.fail(op === '<' ? _`${shaped} && ${data} < ${bound}` : _`${shaped} && ${data} > ${bound}`);
      },
    });
  }
  ajvErrors(ajv, { singleError: false });
  return ajv;
}

export function createAjv(extra: Options = {}): Ajv {
  return createAjvInstance(undefined, undefined, { ...ajvOptions, ...extra }, undefined, undefined, withErrorMessages);
}
