// Every Japanese text a member, an operator or QA reads lives in schemas/ or messages/, where product
// owners edit it; src/ holds none, not even in comments (a comment's example drifts from the text).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const JAPANESE = /[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]/u;
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : []));

describe('src/ holds no Japanese text', () => {
  it('no .ts or .tsx file under src/ has a Japanese character', () => {
    const hits = files('src').flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) => (JAPANESE.test(line) ? [`${file}:${index + 1}: ${line.trim().slice(0, 80)}`] : [])),
    );
    expect(hits).toEqual([]);
  });
});
