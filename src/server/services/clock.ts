export const now = (): Date => new Date();
export const iso = (date: Date): string => date.toISOString();
export const inSeconds = (seconds: number, from = now()): string => iso(new Date(from.getTime() + seconds * 1000));
