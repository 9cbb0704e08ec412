// Reads docs/validation-spec.md back: the row of one field of one form, by column. For tests
// that check the spec follows a schema edit (see tests/contract/validation-spec.test.ts).

/** Splits a table row on pipes that are not escaped. */
function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, '|'));
}

/** The rows of a form's table (`### … \`form\``), each keyed by column title; a cell's
 *  `<br>`-separated lines are joined with "\n". Undefined when the form has no section. */
export function specRows(markdown: string, form: string): Array<Record<string, string>> | undefined {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.startsWith('### ') && line.includes(`\`${form}\``));
  if (start < 0) return undefined;
  const table: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('#')) break;
    if (line.startsWith('|')) table.push(line);
  }
  const [header, , ...rows] = table;
  const columns = cells(header ?? '');
  return rows.map((row) => Object.fromEntries(cells(row).map((cell, i) => [columns[i], cell.replace(/<br>/g, '\n')])));
}

/** The row of `field` (matched on its key column, written as inline code) in `form`'s table. */
export function specRow(markdown: string, form: string, field: string): Record<string, string> | undefined {
  return specRows(markdown, form)?.find((row) => Object.values(row).includes(`\`${field}\``));
}
