// Playwright's global teardown: merges the tests' accessibility records (a11y-record.ts) into
// test-results/a11y-checks.json, with a summary per WCAG success criterion (how many checkpoints
// covered it, passed and failed, and the pages and states tested), the input of the
// accessibility report.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHECKS_DIR, CHECKS_FILE, type TestRecord } from './a11y-record';

interface CriterionSummary {
  checkpoints: number;
  passed: number;
  failed: number;
  checks: string[];
  states: string[];
}

export function mergeRecords(dir = CHECKS_DIR) {
  const tests: TestRecord[] = existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith('.json'))
        .sort()
        .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as TestRecord)
    : [];
  const criteria: Record<string, CriterionSummary> = {};
  const add = (criterion: string, outcome: string, checks: string[], state: string) => {
    const entry = (criteria[criterion] ??= { checkpoints: 0, passed: 0, failed: 0, checks: [], states: [] });
    entry.checkpoints++;
    if (outcome === 'failed') entry.failed++;
    else entry.passed++;
    for (const check of checks) if (!entry.checks.includes(check)) entry.checks.push(check);
    if (!entry.states.includes(state)) entry.states.push(state);
  };
  for (const test of tests) {
    for (const point of test.checkpoints) {
      for (const [criterion, outcome] of Object.entries(point.criteria)) {
        const checks = point.checks.filter((c) => c.criteria.includes(criterion)).map((c) => c.check.replace(/^axe:.*/, 'axe'));
        add(criterion, outcome, checks, `${point.url} — ${point.state}`);
      }
    }
    for (const [criterion, outcome] of Object.entries(test.speech.criteria)) add(criterion, outcome, ['speech'], `${test.file} › ${test.test}`);
  }
  const sorted = Object.fromEntries(Object.entries(criteria).sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })));
  writeFileSync(CHECKS_FILE, JSON.stringify({ format: 1, generated: new Date().toISOString(), criteria: sorted, tests }, null, 1));
}

export default function globalTeardown() {
  mergeRecords();
}
