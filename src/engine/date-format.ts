// The precompiled validators (tools/precompile.ts) import ajv-formats' formats module for the
// formats their schemas use, and the only one the forms use is `date`. That module is one
// CommonJS file with every format (about 3 KB gzip, the URI and e-mail expressions), so nothing of
// it tree-shakes; in the client bundle the form modules' import of it resolves here instead
// (tools/vite-plugin-slim-client.ts, ADR 029). This is ajv-formats' own `date` format (its
// `fullFormats.date`, dist/formats.js, MIT licence), unchanged; tests/contract/
// client-stand-ins.test.ts holds that no form uses another format and that this one gives the
// library's answers.

function isLeapYear(year: number): boolean {
  // https://tools.ietf.org/html/rfc3339#appendix-C
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

const DATE = /^(\d\d\d\d)-(\d\d)-(\d\d)$/;
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function date(str: string): boolean {
  // full-date from http://tools.ietf.org/html/rfc3339#section-5.6
  const matches = DATE.exec(str);
  if (!matches) return false;
  const year = +matches[1];
  const month = +matches[2];
  const day = +matches[3];
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && isLeapYear(year) ? 29 : DAYS[month]);
}

function compareDate(d1: string, d2: string): number | undefined {
  if (!(d1 && d2)) return undefined;
  if (d1 > d2) return 1;
  if (d1 < d2) return -1;
  return 0;
}

/** The formats the forms use, by the name ajv-formats exports them under. */
export const fullFormats = { date: { validate: date, compare: compareDate } };
