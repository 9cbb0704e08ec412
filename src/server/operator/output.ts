// Where the operator tool writes, and how it lays out tables a person reads in a terminal.

export interface Output {
  /** A line of the command's result (stdout). */
  out(line: string): void;
  /** A line about a failure (stderr). */
  err(line: string): void;
}

export const consoleOutput: Output = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

// East Asian wide and full-width ranges: kanji, kana and full-width forms take two columns,
// so a name in kanji needs padding by display width, not by string length.
const WIDE: [number, number][] = [
  [0x1100, 0x115f], [0x2e80, 0x303e], [0x3041, 0x33ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff],
  [0xa000, 0xa4cf], [0xac00, 0xd7a3], [0xf900, 0xfaff], [0xfe30, 0xfe4f], [0xff00, 0xff60],
  [0xffe0, 0xffe6], [0x1f300, 0x1faff], [0x20000, 0x3fffd],
];

export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    width += WIDE.some(([from, to]) => code >= from && code <= to) ? 2 : 1;
  }
  return width;
}

const pad = (text: string, width: number) => text + ' '.repeat(Math.max(0, width - displayWidth(text)));

// Line breaks inside a cell are shown as ↵ so that every row stays on one line.
const oneLine = (cell: string) => cell.replace(/\r?\n/g, ' ↵ ');

const columnWidths = (rows: string[][]) =>
  rows.reduce<number[]>((widths, row) => row.map((cell, i) => Math.max(widths[i] ?? 0, displayWidth(cell))), []);

const join = (row: string[], widths: number[]) => row.map((cell, i) => pad(cell, widths[i] ?? 0)).join('  ').trimEnd();

/** Rows as aligned columns, one line per row. */
export function align(rows: string[][]): string[] {
  const cells = rows.map((row) => row.map(oneLine));
  const widths = columnWidths(cells);
  return cells.map((row) => join(row, widths));
}

/** A table: the header, a rule under it, then the rows. */
export function table(headers: string[], rows: string[][]): string[] {
  const cells = [headers, ...rows].map((row) => row.map(oneLine));
  const widths = columnWidths(cells);
  return [join(cells[0]!, widths), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map((row) => join(row, widths))];
}

/** An ISO-8601 UTC timestamp as Japan time, `YYYY-MM-DD HH:mm` (Japan has no daylight saving). */
export function japanTime(isoTimestamp: string | null): string {
  if (!isoTimestamp) return '-';
  const time = new Date(isoTimestamp).getTime();
  if (Number.isNaN(time)) return isoTimestamp;
  return new Date(time + 9 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');
}
