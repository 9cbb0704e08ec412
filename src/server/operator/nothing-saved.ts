// A command's write either happens whole or not at all (a change and the mail telling of it are
// one transaction). When it fails (the database, or a mail that could not be queued), the
// operator is told that nothing was changed, not only that an error happened.
import { OperatorError, describeError } from './errors';
import { say, text } from './text';

export async function nothingSavedOnFailure<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof OperatorError) throw error;
    throw new OperatorError(say(text.errors.notSaved, { detail: describeError(error) }));
  }
}
