// The scripted accessibility checks of the browser tests that are not checkpoints of the
// screen-reader contract (a11y-record.ts): reflow, text spacing, targets, keyboard journeys...
// kept for the accessibility report (docs/accessibility-report.md, tools/accessibility-report). A
// check is recorded when it has passed (a failing one fails its test, and the run). One JSON line
// per check, one file per worker process, under test-results/a11y/ (emptied with test-results at
// the start of a run).
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const A11Y_RECORDS = join('test-results', 'a11y');

/** The scripted checks a criterion can name in docs/accessibility/criteria.json. */
export type ScriptedCheck =
  | 'sr-name'
  | 'sr-required'
  | 'sr-description'
  | 'sr-error'
  | 'sr-live'
  | 'keyboard'
  | 'focus-moves'
  | 'targets'
  | 'reflow'
  | 'text-spacing'
  | 'page-title'
  | 'session-warning'
  | 'error-summary'
  | 'kept-input';

export type A11yRecord = { kind: 'check'; check: ScriptedCheck; state: string } | { kind: 'axe'; state: string };

function append(record: A11yRecord): void {
  mkdirSync(A11Y_RECORDS, { recursive: true });
  appendFileSync(join(A11Y_RECORDS, `${process.pid}.jsonl`), `${JSON.stringify(record)}\n`);
}

/** Records that `check` passed at `state` (a page and what was on it). */
export function recordCheck(check: ScriptedCheck, state: string): void {
  append({ kind: 'check', check, state });
}
