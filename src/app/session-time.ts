// The session's times as the member reads them (docs/decisions/024 and 037): when the warning
// comes, when the member's own activity extends the session, how long is left, and how long the
// absolute limit is.
import messages from '../../messages/ja.json';
import { format } from '../shared/format';
import { settings } from '../api/settings';

const text = messages.session;

/** WCAG 2.2.1: a member warned of the end has at least 20 seconds to extend. */
export const MIN_WARNING_LEAD_MS = 20_000;

/** The warning comes 5 minutes before the end, or a fifth of SESSION_SECONDS when that is
 *  shorter, but never less than 20 seconds before it, however short the session. */
export function warningLeadMs(sessionSeconds = settings().sessionSeconds): number {
  return Math.max(MIN_WARNING_LEAD_MS, Math.min(300_000, (sessionSeconds * 1000) / 5));
}

/** How far the member's activity must move the idle end before the device tells the server: the
 *  step the server itself writes a slide at (a tenth of SESSION_SECONDS, at most a minute;
 *  src/server/services/sessions.ts), so typing costs the server what requests do. */
export function slideStepMs(sessionSeconds = settings().sessionSeconds): number {
  return Math.min(60_000, sessionSeconds * 100);
}

/**
 * Whether the device should extend the session quietly now (docs/decisions/037): the member
 * pressed a key or a pointer at `lastActivity`, which the server cannot know of (a key sends no
 * request), and the idle end counted from that press is a slide step or more past the one the
 * server holds. Not when that press is itself so long ago that the warning is due (the member
 * has been away since: the warning asks), and never past the absolute end.
 */
export function quietExtensionDue(
  { now, lastActivity, idleEnd, end }: { now: number; lastActivity: number; idleEnd: number; end: number },
  sessionSeconds = settings().sessionSeconds,
): boolean {
  const activeEnd = Math.min(lastActivity + sessionSeconds * 1000, end);
  return activeEnd - idleEnd >= slideStepMs(sessionSeconds) && activeEnd - now > warningLeadMs(sessionSeconds);
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
