// Every pattern in every schema runs in linear time: a hostile string at the full body limit
// (64 KiB) is judged in under 200 ms, by the pattern alone and by the server's whole validation
// of each payload with that string in every text field (issue: one request stalled the server).
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { walkNodes, fieldNodes } from '../../src/shared/validation/schema-nodes';
import { createServerValidation, formsOf } from '../../src/server/validation';
import { schemaFiles } from '../support/schema-walk';

const BODY_LIMIT = 64 * 1024;
/** A linear pattern judges 64 KiB in a few milliseconds, a super-linear one takes seconds: the
 *  budget sits far from both, so a busy machine's pauses do not fail the check. */
const BUDGET_MS = 200;

/** The quickest of three runs: a super-linear pattern takes seconds every time, while the
 *  shared test machine's pauses only lengthen some runs. */
function fastest(run: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < 3; i += 1) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/** Strings that make backtracking patterns explode: long runs of each kind of character, each
 *  with a tail that makes the match fail at the very end. */
function hostileStrings(length: number): string[] {
  const runs = ['<', 'a', 'A', '0', '9', '-', ' ', '　', 'あ', '漢', ',', '1,', '0-', 'h', 'http', 'www', '<a', '.', '@', 'a.', '😀'];
  const tails = ['', '!', '\u0000', '>', '-'];
  const out: string[] = [];
  for (const run of runs) for (const tail of tails) out.push(run.repeat(Math.floor((length - tail.length) / run.length)) + tail);
  return out;
}

function patternsOf(schema: JsonObject): string[] {
  const out: string[] = [];
  walkNodes(schema, (node) => {
    if (typeof node.pattern === 'string') out.push(node.pattern);
  });
  return out;
}

const patterns = [...new Set(schemaFiles().flatMap((f) => patternsOf(f.schema)))];

describe('every schema pattern is linear', () => {
  const hostile = hostileStrings(BODY_LIMIT);
  it('patterns are found', () => expect(patterns.length).toBeGreaterThan(5));

  it.each(patterns)('%s', (pattern) => {
    const regex = new RegExp(pattern, 'u');
    let worst = 0;
    let worstInput = '';
    for (const input of hostile) {
      const ms = fastest(() => regex.test(input));
      if (ms > worst) [worst, worstInput] = [ms, `${JSON.stringify(input.slice(0, 6))}… (${input.length})`];
    }
    expect(worst, `slowest: ${worstInput}`).toBeLessThan(BUDGET_MS);
  });

  it('the check catches a super-linear pattern', () => {
    const regex = /<[^>]*>/u;
    const start = performance.now();
    regex.test('<'.repeat(BODY_LIMIT));
    expect(performance.now() - start).toBeGreaterThan(BUDGET_MS);
  });
});

describe('the server judges a payload with a 64 KiB hostile text in every field quickly', () => {
  const validation = createServerValidation();
  const ids = Object.keys(validation.set.api).filter((id) => formsOf(validation.set.api[id]).length > 0);
  it.each(ids)('%s (the limit shared among its text fields)', (id) => {
    const fields = Object.assign({}, ...formsOf(validation.set.api[id]).map((name) => fieldNodes(validation.set.forms[name].schema))) as Record<string, JsonObject>;
    let worst = 0;
    const runs = ['<', 'a', '0', '-', 'あ', '1,'];
    const bodyOf = (text: string) => Object.fromEntries(Object.keys(fields).map((name) => [name, text]));
    // Warm up (first calls compile and optimise), so that what is timed is the matching itself.
    for (const run of runs) validation.parse(id, bodyOf(run.repeat(100)));
    for (const run of runs) {
      const body = bodyOf(run.repeat(Math.floor(BODY_LIMIT / run.length / Math.max(1, Object.keys(fields).length))));
      worst = Math.max(worst, fastest(() => validation.parse(id, body)));
      // …and the whole limit in one field at a time (purpose_detail: "<" × 64000 took 1.9 s).
      for (const name of Object.keys(fields)) {
        const one = { [name]: run.repeat(Math.floor(BODY_LIMIT / run.length)) };
        worst = Math.max(worst, fastest(() => validation.parse(id, one)));
      }
    }
    expect(worst).toBeLessThan(BUDGET_MS);
  });
});
