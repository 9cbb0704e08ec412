// The operator tool's lists print one page at a time, newest first. The next page is read from
// the last row shown (--after), through the list's index in its own order (migration 013), so
// it costs the same however deep it is and however long the list; the tool runs once per page,
// so it cannot keep page numbers the way the site does (docs/decisions/026).
import type { Output } from './output';
import { say, text } from './text';

/** Rows a list prints at once. */
export const LIST_PAGE_SIZE = 100;

/** The rows to print (a page) and whether more follow; read LIST_PAGE_SIZE + 1 to know. */
export function pageOf<Row>(rows: Row[]): { shown: Row[]; more: boolean } {
  return { shown: rows.slice(0, LIST_PAGE_SIZE), more: rows.length > LIST_PAGE_SIZE };
}

/** The last line: how many were shown and, when more follow, the command that shows them. */
export function printFooter(output: Output, countLine: string, shown: number, more: boolean, next: () => string[]): void {
  if (!more) return output.out(say(countLine, { count: shown }));
  output.out(say(text.more, { count: shown, command: ['npm run operator --', ...next()].join(' ') }));
}
