// The session's times as the member reads them (docs/decisions/024): when the warning comes, how
// long is left, and how long the absolute limit is.
import messages from '../../messages/ja.json';
import { format } from '../shared/format';
import { settings } from '../api/settings';

const text = messages.session;

/** The warning comes 5 minutes before the end, or a fifth of SESSION_SECONDS when that is shorter. */
export function warningLeadMs(sessionSeconds = settings().sessionSeconds): number {
  return Math.min(300_000, (sessionSeconds * 1000) / 5);
}

/** The idle end is the absolute end (within a second's rounding): extending cannot move it. */
export const atLimit = (idleEnd: number, end: number) => end - idleEnd < 1000;

/** Minutes and seconds (4 min 59 s), or seconds alone under a minute; rounded up, so 0.2 s left reads 1 s. */
export function remainingText(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return minutes > 0 ? format(text.minutesSeconds, { minutes, seconds }) : format(text.seconds, { seconds });
}

/** A configured length in words: in hours, minutes or seconds, whichever divides it. */
export function durationText(seconds: number): string {
  if (seconds % 3600 === 0) return format(text.hours, { hours: seconds / 3600 });
  if (seconds % 60 === 0) return format(text.minutes, { minutes: seconds / 60 });
  return format(text.seconds, { seconds });
}

/** The absolute limit (SESSION_MAX_SECONDS) in words, for the notices that name it. */
export const sessionLimitText = () => durationText(settings().sessionMaxSeconds);
