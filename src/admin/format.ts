// How the back office writes dates, statuses and counts: Japan time, the site's words.
import text from '../../messages/admin.ja.json';
import { format } from '../shared/format';
import { formatDateTime } from '../shared/format-date';

export { formatDateTime };

/** A status or role word from messages/admin.ja.json "labels", the value itself when unknown. */
export function label(group: keyof typeof text.labels, value: string | null | undefined): string {
  if (!value) return '';
  return (text.labels[group] as Record<string, string>)[value] ?? value;
}

/** A count the API suppressed (null: fewer than the floor) reads as the floor with "under" (messages/admin.ja.json). */
export function count(value: number | null | undefined, floor: number): string {
  return value === null || value === undefined ? text.stats.underFloor.replace('{floor}', String(floor)) : value.toLocaleString('ja-JP');
}

/** A list's count as the API gave it: records.countBound when the count stopped at its bound. */
export const boundedCount = (page: { total: number; bounded?: boolean }) => (page.bounded ? text.records.countBound : page.total.toLocaleString('ja-JP'));

/** A datetime-local value (Japan time, "2026-04-01T09:00") as ISO with the +09:00 offset. */
export function japanLocalToIso(value: string | undefined): string | undefined {
  if (!value) return undefined;
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value) ? `${value}:00+09:00` : value;
}

type LabelGroup = keyof typeof text.labels;

/** Detail values that are codes, by key (a nested key as "filter.status"), with the label group
 *  that names them. */
const DETAIL_CODES: Record<string, LabelGroup> = { decision: 'decision', from: 'applicationStatus', role: 'roles', audience: 'audience', 'filter.status': 'memberStatus' };
/** `previous` and `status` name a different kind of status in each action. */
const DETAIL_CODES_BY_ACTION: Record<string, Record<string, LabelGroup>> = {
  'inquiries.done': { previous: 'inquiryStatus' },
  'operators.disable': { previous: 'operatorStatus' },
  'operators.setup': { previous: 'operatorStatus' },
  'operators.link': { status: 'operatorStatus' },
};
const DETAIL_TIMES = new Set(['publish_at', 'withdrawn_at']);

/** A detail key's label (messages/admin.ja.json labels.auditDetail); the key itself when it has none. */
const detailLabel = (key: string) => (text.labels.auditDetail as Record<string, string>)[key] ?? key;

function detailValue(action: string, path: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return text.common.none;
  if (Array.isArray(value)) return value.length ? value.map((item) => detailValue(action, path, item)).join(text.audit.listSeparator) : text.common.none;
  if (typeof value === 'boolean') return text.labels.yesNo[`${value}`];
  if (typeof value === 'number') return value.toLocaleString('ja-JP');
  if (typeof value === 'object') {
    const pairs = Object.entries(value).map(([key, inner]) => format(text.audit.detailPair, { label: detailLabel(key), value: detailValue(action, `${path}.${key}`, inner) }));
    return pairs.length ? pairs.join(text.audit.listSeparator) : text.common.none;
  }
  const group = DETAIL_CODES_BY_ACTION[action]?.[path] ?? DETAIL_CODES[path];
  if (group) return label(group, String(value));
  if (DETAIL_TIMES.has(path)) return formatDateTime(String(value));
  return String(value);
}

/** An audit entry's detail as the operator reads it: one labelled line per key, in the order
 *  recorded. A key or code with no label shows as it is, so nothing recorded is ever hidden. */
export function auditDetailLines(action: string, detail: Record<string, unknown> | null | undefined): Array<{ key: string; label: string; value: string }> {
  return Object.entries(detail ?? {})
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => ({ key, label: detailLabel(key), value: detailValue(action, key, value) }));
}
