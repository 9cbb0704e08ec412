/** True for a unique-constraint violation from either database (PostgreSQL 23505, SQLite
 *  SQLITE_CONSTRAINT_UNIQUE): the losing side of two writes racing for the same key. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
