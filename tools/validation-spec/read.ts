// Reads docs/validation-spec.md back: the row of one field of one form, by column, the table of
// what only the server checks of a form, and an option list. For tests that check the spec
// follows a schema edit (see tests/contract/validation-spec.test.ts).

/** Splits a table row on pipes that are not escaped. */
function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, '|'));
}

/** The rows of the first table after line `start`, before the next heading, keyed by column title;
 *  a cell's `<br>`-separated lines are joined with "\n". */
function tableAfter(lines: string[], start: number): Array<Record<string, string>> {
  const table: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('#')) break;
    if (line.startsWith('|')) table.push(line);
  }
  const [header, , ...rows] = table;
  const columns = cells(header ?? '');
  return rows.map((row) => Object.fromEntries(cells(row).map((cell, i) => [columns[i], cell.replace(/<br>/g, '\n')])));
}

const headingOf = (lines: string[], level: string, name: string, from = 0) =>
  lines.findIndex((line, i) => i >= from && line.startsWith(`${level} `) && line.includes(`\`${name}\``));

/** The rows of a form's table (`### … \`form\``). Undefined when the form has no section. */
export function specRows(markdown: string, form: string): Array<Record<string, string>> | undefined {
  const lines = markdown.split('\n');
  const start = headingOf(lines, '###', form);
  return start < 0 ? undefined : tableAfter(lines, start);
}

/** The row of `field` (matched on its key column, written as inline code) in `form`'s table. */
export function specRow(markdown: string, form: string, field: string): Record<string, string> | undefined {
  return specRows(markdown, form)?.find((row) => Object.values(row).includes(`\`${field}\``));
}

/** The rows of what only the server checks of `form` (the `####` table below its own; [] if none). */
export function specServerRows(markdown: string, form: string): Array<Record<string, string>> {
  const lines = markdown.split('\n');
  const start = headingOf(lines, '###', form);
  if (start < 0) return [];
  const end = lines.findIndex((line, i) => i > start && /^#{1,3} /.test(line));
  const sub = lines.findIndex((line, i) => i > start && (end < 0 || i < end) && line.startsWith('#### '));
  return sub < 0 ? [] : tableAfter(lines, sub);
}

/** The option list `master` as the spec gives it once (`### … \`master\`` in the last section
 *  that names it), as its rows. */
export function specOptions(markdown: string, master: string): Array<Record<string, string>> {
  const lines = markdown.split('\n');
  const start = lines.findLastIndex((line) => line.startsWith('### ') && line.includes(`\`${master}\``));
  return start < 0 ? [] : tableAfter(lines, start);
}
