// `npm run bench -- --profile` … or directly: tsx bench/profile-api.ts. Runs the production
// stack under node --cpu-prof, loads GET /v1/user/info, and prints where the server's CPU time
// went (self time per function, top 25). What it said is written down in ADR 017.
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { memberCredentials } from './api';
import { startStack } from './stack';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export function topSelfTime(profile: CpuProfile, count = 25): Array<{ share: number; where: string }> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const file = url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(src|bench)\//, '$1/');
    const key = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
    totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const all = [...totals.values()].reduce((a, b) => a + b, 0);
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([where, time]) => ({ share: time / all, where }));
}

if (process.argv[1]?.endsWith('profile-api.ts')) {
  const dir = mkdtempSync(join(tmpdir(), 'member-site-profile-'));
  const stack = await startStack([`--cpu-prof`, `--cpu-prof-dir=${dir}`]);
  try {
    const { token } = await memberCredentials(stack);
    const url = `${stack.appUrl}/v1/user/info`;
    const result = await autocannon({ url, headers: { authorization: `Bearer ${token}` }, connections: 10, duration: Number(process.env.BENCH_SECONDS ?? 10) });
    console.log(`GET /v1/user/info under load: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms`);
  } finally {
    await stack.stop();
  }
  // the main thread's profile is the largest (tsx's loader thread writes one too)
  const file = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort((a, b) => statSync(join(dir, b)).size - statSync(join(dir, a)).size)[0];
  if (!file) throw new Error('no profile written');
  for (const { share, where } of topSelfTime(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile)) {
    console.log(`${(share * 100).toFixed(1).padStart(5)}%  ${where}`);
  }
  console.log(`profile: ${join(dir, file)}`);
}
