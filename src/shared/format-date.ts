// Dates as members read them: ja-JP, Japan time (the screens and the operator tool alike).
const dateTime = new Intl.DateTimeFormat('ja-JP', {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Asia/Tokyo',
});
const dateOnly = new Intl.DateTimeFormat('ja-JP', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'Asia/Tokyo' });

/** "2026/11/21 10:53"; an unreadable value is shown as it is. */
export function formatDateTime(value: string | undefined | null): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : dateTime.format(date);
}

/** A YYYY-MM-DD birthday as a long Japanese date (year, month and day with their kanji). */
export function formatDate(value: string | undefined | null): string {
  if (!value) return '';
  const date = new Date(`${value}T00:00:00+09:00`);
  return Number.isNaN(date.getTime()) ? value : dateOnly.format(date);
}
