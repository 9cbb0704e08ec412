// A command's change is made in one transaction: when anything in it fails (the database, or
// the mail that tells of the change could not be queued), all of it is rolled back, and the
// operator is told that nothing was changed, not only that an error happened.
import type { Db } from '../db/connect';
import { OperatorError, describeError } from './errors';
import { say, text } from './text';

export async function inOneTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  try {
    return await db.transaction().execute(work);
  } catch (error) {
    if (error instanceof OperatorError) throw error;
    throw new OperatorError(say(text.errors.notSaved, { detail: describeError(error) }));
  }
}
