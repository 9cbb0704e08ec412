// The back office's lists as schemas/records/<kind>.json declares them (the server's list function
// reads the same files): which filters each list offers, its sorts, its columns and the detail
// each row links to. Here too: how a list's filters sit in the page's URL and go to the API.
import text from '../../../messages/admin.ja.json';
import { periodParams, type FilterDecl, type RecordKind } from '../../shared/record-kinds';
import { japanLocalToIso } from '../format';

export { RECORD_KINDS, type ColumnDecl, type FilterDecl, type RecordKind } from '../../shared/record-kinds';

/** The text of a messages/admin.ja.json key ("records.newest"); the key itself when it has none. */
export function messageAt(key: string): string {
  const found = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], text);
  return typeof found === 'string' ? found : key;
}

/** The label of an option of a label group ("applicationStatus" → "pending" → its label). */
export function optionLabel(group: string | undefined, value: string): string {
  return (group && (text.labels as Record<string, Record<string, string> | undefined>)[group]?.[value]) || value;
}

/** A select's options: those declared, or the keys of its label group. */
export function optionsOf(filter: FilterDecl): string[] {
  if (Array.isArray(filter.options)) return filter.options;
  if (filter.labels) return Object.keys((text.labels as Record<string, Record<string, string> | undefined>)[filter.labels] ?? {});
  return [];
}

/** The query parameters a filter takes: a period its two (from, to), any other its name. */
export const paramsOf = (filter: FilterDecl): string[] => (filter.type === 'period' ? periodParams(filter) : [filter.name]);

/** The API path of a kind's list ("GET /v1/admin/members" → "/members"). */
export const listPath = (kind: RecordKind) => kind.view.route.replace(/^GET \/v1\/admin/, '');

/** A filter's value as the page's URL holds it: its default when the URL says nothing (an empty
 *  value in the URL is "all"). */
export function urlValue(filter: FilterDecl, param: string, params: URLSearchParams): string {
  return params.get(param) ?? (filter.type === 'select' && filter.default ? filter.default : '');
}

/** The API's query for the filters the page's URL holds (only what is set). */
export function filterQuery(kind: RecordKind, params: URLSearchParams, filters = kind.filters): Record<string, string> {
  const query: Record<string, string> = {};
  for (const filter of filters) {
    for (const param of paramsOf(filter)) {
      const value = urlValue(filter, param, params).trim();
      if (!value) continue;
      query[param] = filter.type === 'period' && filter.unit === 'time' ? (japanLocalToIso(value) ?? value) : value;
    }
  }
  return query;
}

/** The page's URL values of a kind's filters, sort and page, as one key (a change loads again). */
export const pageNumber = (params: URLSearchParams) => Math.max(1, Number(params.get('page') ?? 1) || 1);

/** Today in Japan as YYYY-MM-DD (a day period's records.today). */
export function japanToday(now = new Date()): string {
  return new Date(now.getTime() + 9 * 3600_000).toISOString().slice(0, 10);
}

/** The detail route of a row (the declaration's detail.path with the row's values). */
export function detailPathOf(kind: RecordKind, row: Record<string, unknown>): string | undefined {
  return kind.detail?.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(row[name] ?? '')));
}
