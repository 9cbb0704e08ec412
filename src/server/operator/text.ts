// The tool's own words (messages/operator.ja.json, server only), filled in like every other message.
import operatorMessages from '../../../messages/operator.ja.json';
import { format } from '../../shared/format';
import { OperatorError, describeError } from './errors';

export const text = operatorMessages;

export const say = format;

/** A bad command line: what is wrong, then the command's syntax. */
export function usageError(message: string, usage: string | string[]): OperatorError {
  const lines = (Array.isArray(usage) ? usage : [usage]).map((u) => `  npm run operator -- ${u}`);
  return new OperatorError([message, text.usageTitle, ...lines].join('\n'));
}

/** Runs node:util parseArgs and turns its complaint (unknown option, missing value) into a usage error. */
export function parseOrFail<T>(parse: () => T, usage: string | string[]): T {
  try {
    return parse();
  } catch (error) {
    throw usageError(say(text.errors.badOptions, { detail: describeError(error) }), usage);
  }
}
