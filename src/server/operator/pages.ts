// The operator tool's lists print one page at a time through the back office's own list function
// (listRecords, src/server/admin/records/list.ts, the kinds of schemas/records/): the same
// filters, sorts, query and audit entry as the web's list. The next page is read from the last
// row shown (--after, the row's number as the operator knows it), through the list's index in
// its own order (keyset), so it costs the same however deep it is and however long the list; the
// tool runs once per page, so it keeps no page numbers (docs/decisions/026).
import { sql } from 'kysely';
import type { Db } from '../db/connect';
import { listQueries, listRecords, type Filters, type ListAnswer, type ListKey } from '../admin/records/list';
import type { RecordKind } from '../../shared/record-kinds';
import { cliWho } from '../admin/services/common';
import type { Output } from './output';
import { say, text, usageError } from './text';

/** Rows a list prints at once. */
export const LIST_PAGE_SIZE = 100;

/** The rows to print (a page) and whether more follow; read LIST_PAGE_SIZE + 1 to know. */
export function pageOf<Row>(rows: Row[]): { shown: Row[]; more: boolean } {
  return { shown: rows.slice(0, LIST_PAGE_SIZE), more: rows.length > LIST_PAGE_SIZE };
}

/** The last line: how many were shown and, when more follow, the command that shows them (in
 *  the order shown: `moreLine` names it). */
export function printFooter(output: Output, countLine: string, shown: number, more: boolean, next: () => string[], moreLine: string = text.more): void {
  if (!more) return output.out(say(countLine, { count: shown }));
  output.out(say(moreLine, { count: shown, command: ['npm run operator --', ...next()].join(' ') }));
}

/** The `more` line of a sort: newest or oldest first. */
export const moreLineOf = (sort: string) => (sort === 'oldest' ? text.moreOldest : text.more);

/** A list request of the command line: the kind's filters (as the web's query string names
 *  them), its sort, and the row shown last (the kind's `afterColumn` = `after`). */
export interface CliListRequest {
  filters: Filters;
  sort?: string;
  after?: { column: string; value: string };
}

/** The sort's keys of the one row whose `column` (a unique number: register number, ticket
 *  number, id) is `value`: a lookup by that column's unique index, in no order. */
export const afterKeyQuery = (db: Db, kind: RecordKind, sort: string | undefined, column: string, value: string) =>
  listQueries(db, kind, {}, sort).keyAt(undefined, 0).clearOrderBy().clearOffset().where(sql.ref(column), '=', value);

/**
 * One page of `kind` as the web's list reads it, LIST_PAGE_SIZE rows and whether more follow.
 * A list of personal data is recorded as the web's is (the kind's view.audit), the actor being
 * the command line (cliWho). `--after` names a row by its number: its place in the sort (the
 * sort's keys) is read first; a number not in the list is a usage error.
 */
export async function recordsPage<Item>(db: Db, kind: RecordKind, request: CliListRequest, usage: string | string[]): Promise<{ shown: Item[]; more: boolean; answer: ListAnswer<Item> }> {
  let after: ListKey | undefined;
  if (request.after) {
    const { column, value } = request.after;
    after = (await afterKeyQuery(db, kind, request.sort, column, value).executeTakeFirst()) as ListKey | undefined;
    if (!after) throw usageError(say(text.errors.unknownAfter, { value }), usage);
  }
  const answer = await listRecords<Item>(db, undefined, kind, { filters: request.filters, ...(request.sort ? { sort: request.sort } : {}), ...(after ? { after } : {}), size: LIST_PAGE_SIZE + 1 }, cliWho());
  return { ...pageOf(answer.items), answer };
}

/** A Japan day as the command line takes it (YYYY-MM-DD, a real date). */
export function dayOption(option: string, value: string | undefined, usage: string | string[]): string | undefined {
  if (value === undefined) return undefined;
  const day = value.trim();
  const [y, m, d] = day.split('-').map(Number);
  const date = new Date(Date.UTC(y ?? NaN, (m ?? NaN) - 1, d ?? NaN));
  const real = /^\d{4}-\d{2}-\d{2}$/.test(day) && date.getUTCFullYear() === y && date.getUTCMonth() === m! - 1 && date.getUTCDate() === d;
  if (!real) throw usageError(say(text.errors.badDay, { option: `--${option}`, value }), usage);
  return day;
}

/** A sort the kind declares (`--sort`), or the kind's first. */
export function sortOption(kind: RecordKind, value: string | undefined, usage: string | string[]): string | undefined {
  if (value === undefined) return undefined;
  const names = kind.sorts.map((s) => s.name);
  if (!names.includes(value)) throw usageError(say(text.errors.badSort, { sort: value, sorts: names.join('|') }), usage);
  return value;
}

/** A value as a shell reads it back (quoted when it holds a space or a quote). */
const shellWord = (value: string) => (/^[^\s'"`$\\;&|<>()*?!#~]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`);

/** The options that repeat a list's request on the next page's command line. */
export const repeated = (options: Record<string, string | undefined>) =>
  Object.entries(options).flatMap(([name, value]) => (value === undefined ? [] : [`--${name}`, shellWord(value)]));
