/** True for a unique-constraint violation from either database (PostgreSQL 23505, SQLite
 *  SQLITE_CONSTRAINT_UNIQUE): the losing side of two writes racing for the same key. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** The constraint or index a unique violation names, so a caller can tell which key collided
 *  (PostgreSQL names it in `constraint`; SQLite only in the message, as table.column). */
export function violatedKey(error: unknown): string {
  const e = error as { constraint?: unknown; message?: unknown } | null;
  return `${typeof e?.constraint === 'string' ? e.constraint : ''} ${typeof e?.message === 'string' ? e.message : ''}`;
}

// PostgreSQL SQLSTATE classes and codes that mean "the database is not there right now", not
// "this query is wrong": 08 connection exception, 53 insufficient resources, 57P01–57P03
// administrator/crash shutdown and "cannot connect now".
const PG_UNAVAILABLE = /^(08|53)|^57P0[123]$/;
const NODE_UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY)/;
// node-postgres reports a dropped socket or a pool that cannot connect in time without a code.
const PG_CLIENT_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end/i;

/** True when a query failed because the database could not be reached or went away: the
 *  request answers 503 and the next one may well succeed. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (code && (NODE_UNAVAILABLE.has(code) || SQLITE_UNAVAILABLE.test(code))) return true;
  if (/^[0-9A-Z]{5}$/.test(code) && PG_UNAVAILABLE.test(code)) return true;
  return typeof e?.message === 'string' && PG_CLIENT_MESSAGES.test(e.message);
}

/** True when the database refused a value as such (PostgreSQL SQLSTATE class 22 "data
 *  exception": out of range, bad encoding, NUL; SQLite's mismatch/too big/range): a request
 *  that carried it is a bad request, whatever field it came in, never a 500. */
export function isBadData(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (/^22[0-9A-Z]{3}$/.test(code) || /^SQLITE_(MISMATCH|TOOBIG|RANGE)$/.test(code));
}
