export const now = (): Date => new Date();
export const iso = (date: Date): string => date.toISOString();
export const inSeconds = (seconds: number, from = now()): string => iso(new Date(from.getTime() + seconds * 1000));

/** YYYYMMDD of the day in Japan (UTC+9, no daylight saving) at `date`. */
export const japanDay = (date: Date): string => new Date(date.getTime() + 9 * 3600_000).toISOString().slice(0, 10).replace(/-/g, '');
