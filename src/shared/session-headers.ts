// Every answer to a member's request says how long the session has left (docs/decisions/024):
// seconds until its idle end (moved forward by this very request) and until its absolute end.
// Relative seconds, so the device's clock need not agree with the server's.
export const SESSION_EXPIRES_IN_HEADER = 'X-Session-Expires-In';
export const SESSION_ENDS_IN_HEADER = 'X-Session-Ends-In';

/** The two numbers an answer carries, in seconds (the member site's and the back office's); none
 *  when it carries no session (a public route) or not two numbers. */
export function sessionSecondsIn(headers: Headers | undefined): { expiresIn: number; endsIn: number } | undefined {
  const expiresIn = Number(headers?.get(SESSION_EXPIRES_IN_HEADER) ?? NaN);
  const endsIn = Number(headers?.get(SESSION_ENDS_IN_HEADER) ?? NaN);
  return Number.isFinite(expiresIn) && Number.isFinite(endsIn) ? { expiresIn, endsIn } : undefined;
}
