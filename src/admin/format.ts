// How the back office writes dates, statuses and counts: Japan time, the site's words.
import text from '../../messages/admin.ja.json';
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

/** A datetime-local value (Japan time, "2026-04-01T09:00") as ISO with the +09:00 offset. */
export function japanLocalToIso(value: string | undefined): string | undefined {
  if (!value) return undefined;
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value) ? `${value}:00+09:00` : value;
}
