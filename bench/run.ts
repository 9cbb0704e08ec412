// npm run bench: builds the client, starts the production stack on free ports and prints one
// table of what a phone gets (ADR 017). Not a test: the figures depend on the machine; the byte
// budgets that must hold are checked in npm test (tests/unit/dist-clean.test.ts).
//   npm run bench -- --only=bytes,api   run some sections only (bytes, lighthouse, keys, api, login, scale, office)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import catalogue from '../schemas/catalogue.json';
import budgets from './budgets.json';
import { firstRenderFiles, readManifest } from '../src/server/route-assets';
import { routeWeight } from '../tools/bundle-weight';
import { buildClient } from '../tools/build-client';
import { runLighthouse } from './lighthouse';
import { measureKeystrokes } from './keystroke';
import { startReactOnly } from './react-only';
import { measureApi, measureLogin } from './api';
import { ROOT, startStack } from './stack';
import { INQUIRIES, MEMBERS, measureScale } from './scale';
import { OFFICE_INQUIRIES, OFFICE_MEMBERS, measureOffice } from './office';

const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length).split(',');
const wanted = (section: string) => !only || only.includes(section);
const kb = (bytes: number) => (bytes / 1000).toFixed(1);
const ms = (value: number) => value.toFixed(1);
const table = (head: string[], rows: Array<Array<string | number>>) =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');
const print = (title: string, body: string) => console.log(`\n${title}\n\n${body}`);

const distDir = join(ROOT, 'dist');
if (!process.argv.includes('--no-build')) {
  console.log('Building the client …');
  await buildClient();
}
console.log(`# npm run bench, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}`);

if (wanted('bytes')) {
  const manifest = readManifest(distDir);
  const budgetOf = (path: string) => (budgets.routes as Record<string, number>)[path] ?? budgets.defaultRoute;
  const rows = catalogue.routes.map((route) => {
    const weight = routeWeight(distDir, manifest, route);
    const requests = 1 + weight.files + firstRenderFiles(manifest, route).css.length; // HTML + scripts + styles
    return [`/user/${route.path}`, weight.files, requests, kb(weight.raw), kb(weight.gzip), kb(weight.brotli), `${kb(budgetOf(route.path))}${weight.gzip > budgetOf(route.path) ? ' **over**' : ''}`];
  });
  print('First-render JS per route (KB = 1000 bytes; what the first render loads, lazy imports included, of postal data the largest prefix; requests = HTML + scripts + styles)', table(['route', 'scripts', 'requests', 'raw', 'gzip', 'brotli', 'gzip budget'], rows));
}

const stack = wanted('lighthouse') || wanted('keys') || wanted('api') || wanted('login') ? await startStack() : undefined;
const workDir = mkdtempSync(join(tmpdir(), 'member-site-bench-work-'));
try {
  if (stack && wanted('lighthouse')) {
    // Lighthouse's own advice for a noisy machine: several runs, the median by performance.
    const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
    const rows = [];
    const anchor = await startReactOnly();
    try {
      const pages = [
        ['/user/login', `${stack.appUrl}/user/login`],
        ['/user/register', `${stack.appUrl}/user/register`],
        ['React alone (anchor: the login form, no router or form engine)', anchor.url],
      ];
      for (const [name, url] of pages) {
        const runs = [];
        for (let i = 0; i < RUNS; i++) runs.push(await runLighthouse(url));
        // A run Lighthouse could not score (it reports 0) is named, and left out of the median.
        const scored = runs.filter((run) => !run.runtimeError).sort((a, b) => a.performance - b.performance);
        const result = scored[Math.floor((scored.length - 1) / 2)] ?? runs[0];
        const runList = runs.map((run) => (run.runtimeError ? `not scored (${run.runtimeError})` : run.performance)).join(', ');
        rows.push([name, `${result.runtimeError ? 'not scored' : result.performance} (runs: ${runList})`, result.accessibility, ms(result.fcpMs), ms(result.lcpMs), ms(result.tbtMs), result.cls.toFixed(3), result.failedAccessibility.join('; ') || '–']);
      }
    } finally {
      await anchor.stop();
    }
    print(`Lighthouse, mobile (simulated slow 4G, 4× CPU), median of ${RUNS} runs; targets: performance ≥ 95, accessibility 100, login FCP ≤ 1.5 s`, table(['page', 'performance', 'accessibility', 'FCP ms', 'LCP ms', 'TBT ms', 'CLS', 'accessibility findings'], rows));
  }
  if (stack && wanted('keys')) {
    const { drawnBy, rows: measured, devices } = await measureKeystrokes(stack);
    const rows = measured.map((row) => [row.cpu, row.page, row.keys, ms(row.p50Ms), ms(row.p95Ms), row.unpresented, row.mainMsPerKey.toFixed(2), row.threadCpuMsPerKey.toFixed(2), row.deferredMsPerKey.toFixed(2)]);
    print(
      `Keystroke → next paint, registration STEP2 (password and roman-name fields) and, as floors, the same keys in plain inputs beside those fields and on a page of their own; ${drawnBy}; targets (STEP2) p95 ≤ 16 ms / ≤ 20 ms at 4×; main thread per key: the page's main-thread tasks from a field's first key to 0.9 s after its last (deferred work included) over the keys typed, as task time and as thread CPU time, and the part of the task time in the page's timers and animation-frame callbacks`,
      table(['CPU', 'page', 'keys', 'p50 ms', 'p95 ms', 'not presented', 'main thread ms/key', 'thread CPU ms/key', 'of which timers and frame callbacks ms/key'], rows),
    );
    print(
      "The CPU rates as devices: Lighthouse's BenchmarkIndex in the same browser (DevTools calibrates mid-tier mobile to 1000, low-tier mobile to 264)",
      table(['CPU', 'BenchmarkIndex'], devices.map((device) => [device.cpu, device.benchmarkIndex])),
    );
  }
  if (stack && wanted('api')) {
    const rows = (await measureApi(stack, workDir)).map((row) => [
      row.route,
      Math.round(row.reqPerSec),
      row.p99Ms,
      Math.round(row.bareReqPerSec),
      row.bareP99Ms,
      `${((row.reqPerSec / row.bareReqPerSec) * 100).toFixed(1)}%`,
    ]);
    print('API under load (autocannon, 10 connections) against a bare Fastify answering the same JSON; target ≥ 20% of bare', table(['route', 'req/s', 'p99 ms', 'bare req/s', 'bare p99 ms', 'of bare'], rows));
  }
  if (stack && wanted('login')) {
    const { loginMs, argon2Ms } = await measureLogin(stack);
    print('Login (trusted device, no code) against one argon2 verify, medians of 10', table(['login ms', 'argon2 verify ms', 'login / verify'], [[ms(loginMs), ms(argon2Ms), (loginMs / argon2Ms).toFixed(2)]]));
  }
  if (wanted('scale')) {
    const results = await measureScale();
    const column = (pick: (f: Awaited<ReturnType<typeof measureScale>>[number]['figures']) => string) => results.map((r) => pick(r.figures));
    const rows: string[][] = [
      ['seed (members, inquiries; s)', ...column((f) => f.seedSeconds.toFixed(0))],
      ['login, trusted device (argon2 included)', ...column((f) => ms(f.loginMs))],
      ['GET /v1/user/info', ...column((f) => ms(f.infoMs))],
      ...results[0]!.figures.history.map((row, i) => [`history: ${row.label}`, ...column((f) => ms(f.history[i]!.ms))]),
      ['operator inquiries list, first page (100 rows)', ...column((f) => ms(f.operatorFirstMs))],
      [`operator inquiries list --after the ${(INQUIRIES - 1000).toLocaleString('en')}th`, ...column((f) => ms(f.operatorDeepMs))],
      ['GET /v1/master/options alone, p50 / p99', ...column((f) => `${ms(f.idleOptions.p50)} / ${ms(f.idleOptions.p99)}`)],
      ['event-loop delay meanwhile, p50 / p99 / max', ...column((f) => `${ms(f.idleOptions.loop.p50)} / ${ms(f.idleOptions.loop.p99)} / ${ms(f.idleOptions.loop.max)}`)],
      ['… while 5 clients page deep, p50 / p99', ...column((f) => `${ms(f.loaded.p50)} / ${ms(f.loaded.p99)}`)],
      ['event-loop delay meanwhile, p50 / p99 / max', ...column((f) => `${ms(f.loaded.loop.p50)} / ${ms(f.loaded.loop.p99)} / ${ms(f.loaded.loop.max)}`)],
      ['SQLite statements meanwhile, p50 / p99 / max', ...column((f) => (f.loaded.loop.statements ? `${f.loaded.loop.statementP50.toFixed(2)} / ${ms(f.loaded.loop.statementP99)} / ${ms(f.loaded.loop.statementMax)}` : '–'))],
      ['deep pages read meanwhile (per s)', ...column((f) => f.loaded.pagesPerSecond.toFixed(0))],
      ['CPU pressure on the machine at the end (waiting for a CPU, last minute)', ...column((f) => f.cpuPressure)],
    ];
    for (const { database, figures } of results) {
      for (const [took, statement] of figures.loaded.loop.slowest ?? []) console.log(`${database}: ${ms(took)} ms  ${statement}`);
    }
    print(`Scale: ${MEMBERS.toLocaleString('en')} members, ${INQUIRIES.toLocaleString('en')} inquiries of one member (history pages of 20); ms, medians`, table(['measure', ...results.map((r) => r.database)], rows));
  }
  if (wanted('office')) {
    const results = await measureOffice();
    const column = (pick: (f: Awaited<ReturnType<typeof measureOffice>>[number]['figures']) => string) => results.map((r) => pick(r.figures));
    const anchor = (f: Awaited<ReturnType<typeof measureOffice>>[number]['figures']) => f.anchor.p99;
    const rows: string[][] = [
      ['seed (s)', ...column((f) => f.seedSeconds.toFixed(0))],
      ['**member GET /v1/user/info alone**, p50 / p99 (the anchor)', ...column((f) => `${ms(f.anchor.p50)} / ${ms(f.anchor.p99)}`)],
      ['event loop meanwhile, max; server RSS', ...column((f) => `${ms(f.anchor.loop.max)}; ${(f.anchor.loop.rssMax / 1e6).toFixed(0)} MB`)],
      ...results[0]!.figures.rows.map((row) => [
        row.label,
        ...column((f) => {
          const r = f.rows.find((other) => other.label === row.label);
          if (!r) return '–';
          return `${ms(r.ms)} · ${ms(r.loopMax)}${r.loopMax > 20 ? ' **over**' : ''} · ${ms(r.memberP99)} (${(r.memberP99 / anchor(f)).toFixed(1)}×)${r.memberP99 > 2 * anchor(f) ? ' **over**' : ''}${/CSV/.test(r.label) ? ` · RSS ${r.rssMb.toFixed(0)} MB` : ''}`;
        }),
      ]),
      ['CPU pressure at the end (waiting for a CPU, last minute)', ...column((f) => f.cpuPressure)],
    ];
    print(
      `Office: ${OFFICE_MEMBERS.toLocaleString('en')} members, ${OFFICE_INQUIRIES.toLocaleString('en')} inquiries; each request: median ms alone · event loop's longest hold (ms, budget 20) · member info p99 while an operator repeats it (ms, × the anchor, budget 2×)`,
      table(['request', ...results.map((r) => r.database)], rows),
    );
  }
} finally {
  await stack?.stop();
  rmSync(workDir, { recursive: true, force: true });
}
