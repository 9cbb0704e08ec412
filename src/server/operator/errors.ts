// A failure the operator can act on (bad usage, an unknown id, a mail that did not go out):
// the tool prints its message and exits with 1.
export class OperatorError extends Error {
  override name = 'OperatorError';
}

/** The message of anything thrown, for a one-line report. */
export const describeError = (error: unknown): string => (error instanceof Error ? error.message : String(error));
