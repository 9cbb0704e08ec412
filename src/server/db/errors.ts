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

// PostgreSQL states (SQLSTATE) that mean "the database is not available now": the request
// answers 503 with Retry-After and the same request may well succeed later. Anything else is
// the statement's own fault (500, logged as an error). Left out on purpose:
//   08P01 protocol_violation   the client sent a malformed message (a wrong parameter count): a bug
//   28000, 28P01               no pg_hba.conf entry, wrong password: a configuration error that no
//                              wait mends; a 500 and its error line get it fixed (start-up stops)
//   55000 from a statement     currval before nextval and the like: a bug (only from session
//                              start-up is it an outage, below)
//   55006 object_in_use        raised by DDL on objects in use; the site runs none while serving
//   57014 query_canceled       statement_timeout or pg_cancel_backend stopped this statement on
//                              purpose; the same request would be stopped again
//   58P01, 58P02               a file a statement names is missing or exists; the site names none
const PG_UNAVAILABLE_CLASSES = new Set([
  '08', // connection exception: the connection could not be opened, or was lost (but 08P01)
  '53', // insufficient resources: disk full, out of memory, too many connections
]);
const PG_UNAVAILABLE_STATES = new Set([
  '25006', // read_only_sql_transaction: a failover left the pool on a standby, or the database
  //          was made read-only for maintenance (the site never opens a read-only transaction)
  '3D000', // invalid_catalog_name: the database does not exist while it is restored or re-created
  '55P03', // lock_not_available: a migration or maintenance holds a lock past lock_timeout
  '57P01', // admin_shutdown: pg_terminate_backend, or the server is shutting down
  '57P02', // crash_shutdown: another backend crashed and the server is resetting
  '57P03', // cannot_connect_now: the server is starting up, shutting down or in recovery
  '57P04', // database_dropped: the connection ended because its database went away
  '57P05', // idle_session_timeout: the server ended a pooled connection that sat idle
  '58000', // system_error: the database's machine failed at the system level (fork, memory)
  '58030', // io_error: the database's storage failed to read or write
]);
const PG_NOT_UNAVAILABLE = new Set(['08P01']);
/** 55000 object_not_in_prerequisite_state is an outage only when session start-up raises it:
 *  "database … is not currently accepting connections" (ALTER DATABASE … ALLOW_CONNECTIONS
 *  false, during maintenance). PostgreSQL names the source file of every error it reports, in
 *  no language but C; session start-up's checks are in postinit.c. */
const PG_SESSION_START_FILE = 'postinit.c';
const NODE_UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY)/;
// node-postgres reports a dropped socket or a pool that cannot connect in time without a code.
const PG_CLIENT_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end/i;

function isPgUnavailable(code: string, file: unknown): boolean {
  if (PG_NOT_UNAVAILABLE.has(code)) return false;
  if (PG_UNAVAILABLE_CLASSES.has(code.slice(0, 2)) || PG_UNAVAILABLE_STATES.has(code)) return true;
  return code === '55000' && file === PG_SESSION_START_FILE;
}

/** True when a query failed because the database could not be reached, went away or cannot
 *  serve now: the request answers 503 and the next one may well succeed. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown; file?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (code && (NODE_UNAVAILABLE.has(code) || SQLITE_UNAVAILABLE.test(code))) return true;
  if (/^[0-9A-Z]{5}$/.test(code) && isPgUnavailable(code, e?.file)) return true;
  return typeof e?.message === 'string' && PG_CLIENT_MESSAGES.test(e.message);
}

/** True when the database named does not exist (3D000). While the site runs that is an outage
 *  (the database is being restored or re-created); at start-up it is a DATABASE_URL naming the
 *  wrong database, which no wait mends, so start-up stops on it (main.ts). */
export function isMissingDatabase(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '3D000';
}

/** True when the database refused a value as such (PostgreSQL SQLSTATE class 22 "data
 *  exception": out of range, bad encoding, NUL; SQLite's mismatch/too big/range): a request
 *  that carried it is a bad request, whatever field it came in, never a 500. */
export function isBadData(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (/^22[0-9A-Z]{3}$/.test(code) || /^SQLITE_(MISMATCH|TOOBIG|RANGE)$/.test(code));
}
