// One list function for every record kind (schemas/records/<kind>.json): the web routes and the
// operator tool call it with a declaration, the filters, the sort and the page. It builds one
// query: the kind's rows narrowed by the declared filters, read in the sort's order from a key
// (keyset over the sort's index, docs/decisions/026), page numbers kept through page anchors
// (src/server/db/page-anchors.ts), and a bounded count: at most COUNT_BOUND + 1 rows are
// counted, so no view runs a full count(*); the answer says when the count is a bound. A list
// that shows personal data is recorded (the declaration's view.audit): one insert.
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../../db/connect';
import { PageAnchors, type PagePlace } from '../../db/page-anchors';
import { iso, now } from '../../services/clock';
import type { SchemaSet } from '../../../shared/validation/schema-files';
import { audited, type AuditAction } from '../audit';
import { countOf, searchOf, type Who } from '../services/common';
import { whereMember } from '../services/applications';
import { periodParams, sortOf, type FilterDecl, type RecordKind, type SortDecl } from '../../../shared/record-kinds';
import { SOURCES } from './sources';

/** The most rows a list counts: beyond, the answer says "1,000 or more". */
export const COUNT_BOUND = 1000;

/** How long page anchors of a list stand (a list's anchors are found again after this). */
export const ANCHOR_LIFETIME_MS = 60_000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyQuery = SelectQueryBuilder<any, any, any>;

export type Filters = Record<string, string | undefined>;
export type ListKey = Record<string, unknown>;

export interface ListRequest {
  filters: Filters;
  sort?: string;
  page?: number;
  size?: number;
  /** The operator tool's next page: the rows after this one (keyed by the kind's key). */
  after?: ListKey;
}

export interface ListAnswer<Item> {
  items: Item[];
  total: number;
  /** total is COUNT_BOUND and more rows match. */
  bounded: boolean;
  page: number;
  size: number;
  sort: string;
  /** The filters applied, as the declaration names them (what the audit entry records). */
  filter: Record<string, string>;
  /** The key of the last row, for the operator tool's next page. */
  last?: ListKey;
}

/** The values a select filter accepts. */
export const optionsOf = (filter: FilterDecl): string[] => filter.options ?? [];

/** A Japan day (YYYY-MM-DD) as the instant it starts. */
const dayStart = (day: string, plus = 0) => {
  const [y, m, d] = day.split('-').map(Number);
  return iso(new Date(Date.UTC(y!, m! - 1, d! + plus) - 9 * 3600_000));
};
const isDay = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text));

/** The filters of `raw` the declaration knows, each value checked (an unknown value is dropped). */
export function filtersOf(kind: RecordKind, raw: Filters): Record<string, string> {
  const out: Record<string, string> = {};
  for (const filter of kind.filters) {
    const names = filter.type === 'period' ? periodParams(filter) : [filter.name];
    for (const name of names) {
      const value = raw[name]?.trim();
      if (!value) continue;
      if (filter.type === 'select' && !optionsOf(filter).includes(value)) continue;
      if (filter.type === 'period' && (filter.unit ?? 'day') === 'day' && !isDay(value)) continue;
      if (filter.type === 'flag' && !['1', 'true'].includes(value)) continue;
      out[name] = filter.type === 'flag' ? 'true' : value;
    }
  }
  return out;
}

/** The equality filters in force, as the sort's indexes name their combination. */
export const equalityOf = (kind: RecordKind, filter: Record<string, string>) =>
  kind.filters
    .filter((f) => ['select', 'flag', 'text'].includes(f.type) && filter[f.name] !== undefined)
    .map((f) => f.name)
    .sort()
    .join('+');

/** `query` narrowed by the declared filters. */
export function applyFilters(kind: RecordKind, query: AnyQuery, filter: Record<string, string>): AnyQuery {
  let out = query;
  for (const f of kind.filters) {
    if (f.type === 'period') {
      const [fromName, toName] = periodParams(f);
      const day = (f.unit ?? 'day') === 'day';
      const from = filter[fromName];
      const to = filter[toName];
      if (from) out = out.where(sql.ref(f.column!), '>=', day ? dayStart(from) : from);
      if (to) out = out.where(sql.ref(f.column!), '<', day ? dayStart(to, 1) : to);
      continue;
    }
    const value = filter[f.name];
    if (value === undefined) continue;
    if (f.type === 'search') out = whereMember(out, searchOf(value), f.numberColumn);
    else if (f.type === 'flag') out = out.where(sql.ref(f.column!), '=', f.value ?? '1');
    else out = out.where(sql.ref(f.column!), '=', value);
  }
  return SOURCES[kind.source].refine?.(out, filter) ?? out;
}

const alias = (i: number) => `k${i}`;

/** The rows after `after` in the sort's order (all when undefined), in that order: a range of the
 *  sort's index on its first key, the ties tested on the next. */
export function ordered(query: AnyQuery, sort: SortDecl, after: ListKey | undefined): AnyQuery {
  let out = query;
  if (after) {
    const [[first, direction], ...rest] = sort.keys;
    const value = after[alias(0)];
    const past = direction === 'desc' ? '<' : '>';
    out = out.where(sql.ref(first!), direction === 'desc' ? '<=' : '>=', value);
    out = out.where((eb) => eb.or([eb(sql.ref(first!), past, value), ...rest.map(([column, d], i) => eb(sql.ref(column), d === 'desc' ? '<' : '>', after[alias(i + 1)]))]));
  }
  for (const [column, direction] of sort.keys) out = out.orderBy(sql.ref(column), direction);
  return out;
}

const withKeys = (query: AnyQuery, sort: SortDecl) => query.select(sort.keys.map(([column], i) => sql.ref(column).as(alias(i))));

/** The statements of one list read, built (for the query-plans test to explain). */
export function listQueries(db: Db, kind: RecordKind, filter: Record<string, string>, sortName?: string) {
  const source = SOURCES[kind.source];
  const sort = sortOf(kind, sortName);
  const filtered = () => applyFilters(kind, source.base(db), filter);
  return {
    sort,
    /** One page: `size` rows, `skip` past `after`. */
    page: (place: PagePlace<ListKey>, size: number) => withKeys(ordered(filtered(), sort, place.after), sort).limit(size).offset(place.skip),
    /** The key of the row `skip` past `after` (how anchors are found). */
    keyAt: (after: ListKey | undefined, skip: number) => withKeys(ordered(filtered().clearSelect(), sort, after), sort).limit(1).offset(skip),
    /** How many rows match, up to COUNT_BOUND + 1: the first of the list's own range, in its
     *  order (so the planner reads the sort's index, never more than COUNT_BOUND + 1 entries). */
    count: () =>
      db
        .selectFrom(ordered(filtered().clearSelect(), sort, undefined).select(sql.lit(1).as('one')).limit(COUNT_BOUND + 1).as('bounded'))
        .select((eb) => eb.fn.countAll<string>().as('count')),
  };
}

/** Page anchors, per database and kind. */
const anchorsOf = new WeakMap<Db, Map<string, PageAnchors<ListKey>>>();

/** Page `page` (or the rows after `after`) of a kind's list, its bounded count, and (when the
 *  declaration says so) the audit entry of the view. */
export async function listRecords<Item = Record<string, unknown>>(
  db: Db,
  set: SchemaSet | undefined,
  kind: RecordKind,
  request: ListRequest,
  who?: Who,
): Promise<ListAnswer<Item>> {
  const filter = filtersOf(kind, request.filters);
  const queries = listQueries(db, kind, filter, request.sort);
  const size = request.size ?? kind.pageSize;
  const page = request.page ?? 1;
  let place: PagePlace<ListKey> | undefined = { after: request.after, skip: request.after ? 0 : (page - 1) * size };
  if (!request.after && place.skip > 0) {
    const kinds = anchorsOf.get(db) ?? anchorsOf.set(db, new Map()).get(db)!;
    const anchors = kinds.get(kind.kind) ?? kinds.set(kind.kind, new PageAnchors<ListKey>()).get(kind.kind)!;
    const version = Math.floor(now().getTime() / ANCHOR_LIFETIME_MS);
    place = await anchors.place(JSON.stringify([queries.sort.name, filter]), version, place.skip, (after, skip) => queries.keyAt(after, skip).executeTakeFirst() as Promise<ListKey | undefined>);
  }
  const rows = place ? ((await queries.page(place, size).execute()) as Record<string, unknown>[]) : [];
  const counted = countOf(await queries.count().executeTakeFirst());
  const items = (await SOURCES[kind.source].items(db, set, rows, kind)) as Item[];
  const last = rows.at(-1);
  const answer: ListAnswer<Item> = {
    items,
    total: Math.min(counted, COUNT_BOUND),
    bounded: counted > COUNT_BOUND,
    page,
    size,
    sort: queries.sort.name,
    filter,
    ...(last ? { last: Object.fromEntries(queries.sort.keys.map((_, i) => [alias(i), last[alias(i)]])) } : {}),
  };
  if (who && kind.view.audit) {
    const { q, ...rest } = filter;
    // The declaration's action is a key of the actions' labels (tests/contract/record-kinds.test.ts).
    return audited(db, who, kind.view.audit as AuditAction, async () => ({
      result: answer,
      detail: { ...(q !== undefined || kind.kind === 'members' ? { q: q ?? '' } : {}), filter: rest, sort: answer.sort, page, results: answer.total },
      // The members this page showed, for their own "who looked" (ADR 040).
      members: rows.flatMap((row) => SOURCES[kind.source].memberOf?.(row) ?? []),
    }));
  }
  return answer;
}
