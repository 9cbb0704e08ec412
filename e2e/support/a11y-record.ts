// The accessibility checks' results, kept machine-readable for the accessibility report
// (docs/accessibility-report.md is generated from them): each checkpoint of each test (a page in a
// state, where expectAccessible ran) with the WCAG 2.2 success criteria its checks covered and
// their result, and each test's speech log. One file per test under test-results/a11y-checks/,
// merged into test-results/a11y-checks.json when the run ends (a11y-merge.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestInfo } from '@playwright/test';
import type { SpeechEvent } from './speech';

export const CHECKS_DIR = join('test-results', 'a11y-checks');
export const CHECKS_FILE = join('test-results', 'a11y-checks.json');

export type Outcome = 'passed' | 'failed';

/** The success criteria axe's WCAG tags name ('wcag1410' → '1.4.10'). */
export function criteriaOfTags(tags: readonly string[]): string[] {
  return tags.flatMap((tag) => {
    const match = /^wcag(\d)(\d)(\d+)$/.exec(tag);
    return match ? [`${match[1]}.${match[2]}.${match[3]}`] : [];
  });
}

export interface CheckResult {
  /** axe:<rule id>, or the contract's own check (heard.ts, speech.ts). */
  check: string;
  criteria: string[];
  result: Outcome;
  /** How many elements (axe) or fields (the contract) it looked at. */
  count: number;
  failures?: string[];
}

export interface Checkpoint {
  state: string;
  /** The app's path in the page's frame (or the page's own path when unframed). */
  url: string;
  framed: boolean;
  viewport: { width: number; height: number } | null;
  at: string;
  /** Every criterion some check covered here: failed if any of its checks failed. */
  criteria: Record<string, Outcome>;
  checks: CheckResult[];
}

export interface TestRecord {
  file: string;
  test: string;
  project: string;
  status?: string;
  checkpoints: Checkpoint[];
  speech: {
    said: Array<{ url: string; region: string; text: string; shown: boolean }>;
    unsaid: Array<{ url: string; region: string; text: string; why: string }>;
    failures: string[];
    /** The criteria the speech checks cover, and their result for the test. */
    criteria: Record<string, Outcome>;
  };
}

interface Live {
  record: TestRecord;
  events: SpeechEvent[];
}

const live = new Map<string, Live>();

function liveOf(info: TestInfo): Live {
  let entry = live.get(info.testId);
  if (!entry) {
    entry = {
      record: {
        file: info.file.replace(/^.*?\/e2e\//, 'e2e/'),
        test: info.titlePath.slice(1).join(' › '),
        project: info.project.name,
        checkpoints: [],
        speech: { said: [], unsaid: [], failures: [], criteria: {} },
      },
      events: [],
    };
    live.set(info.testId, entry);
  }
  return entry;
}

/** Where a test's speech events go (the page fixture records them). */
export const speechSink = (info: TestInfo) => (event: SpeechEvent) => liveOf(info).events.push(event);
export const speechEvents = (info: TestInfo): readonly SpeechEvent[] => liveOf(info).events;

/** The criteria of a list of checks: each failed if any check covering it failed. */
export function criteriaOf(checks: readonly Pick<CheckResult, 'criteria' | 'result'>[]): Record<string, Outcome> {
  const out: Record<string, Outcome> = {};
  for (const check of checks) for (const criterion of check.criteria) out[criterion] = out[criterion] === 'failed' || check.result === 'failed' ? 'failed' : 'passed';
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })));
}

export function addCheckpoint(info: TestInfo, checkpoint: Omit<Checkpoint, 'criteria' | 'at'>) {
  liveOf(info).record.checkpoints.push({ ...checkpoint, at: new Date().toISOString(), criteria: criteriaOf(checkpoint.checks) });
}

/** Writes the test's record (at the end of the test) and forgets it. */
export function writeRecord(info: TestInfo, speech: { failures: string[]; criteria: string[] }) {
  const entry = liveOf(info);
  live.delete(info.testId);
  const { record, events } = entry;
  record.status = info.status;
  record.speech.said = events.flatMap((e) => (e.kind === 'said' ? [{ url: e.url, region: e.region, text: e.text, shown: e.shown }] : []));
  record.speech.unsaid = events.flatMap((e) => (e.kind === 'unsaid' ? [{ url: e.url, region: e.region, text: e.text, why: e.why }] : []));
  record.speech.failures = speech.failures;
  record.speech.criteria = Object.fromEntries(speech.criteria.map((c) => [c, speech.failures.length ? 'failed' : 'passed']));
  if (record.checkpoints.length === 0 && events.length === 0) return;
  mkdirSync(CHECKS_DIR, { recursive: true });
  const name = `${record.file.replace(/[^\w.-]+/g, '_')}-${info.testId}-${info.retry}.json`;
  writeFileSync(join(CHECKS_DIR, name), JSON.stringify(record, null, 1));
}
