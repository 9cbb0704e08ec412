// Loaded into the server process by the scale bench (node --import): measures how late the event
// loop runs (perf_hooks monitorEventLoopDelay) and how long each SQLite statement holds it
// (better-sqlite3 runs them synchronously on the loop), and answers the bench over the IPC
// channel, so the server itself carries no measuring code. 'loop-delay:reset' starts a window,
// 'loop-delay:read' ends it with { p50, p99, max, statementP50, statementP99, statementMax } in
// milliseconds.
import { createHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import SQLite from 'better-sqlite3';

const loop = monitorEventLoopDelay({ resolution: 2 });
loop.enable();
const statements = createHistogram();
/** The slowest statements of the window: [milliseconds, SQL]. */
let slowest: Array<[number, string]> = [];
const ms = (nanoseconds: number) => nanoseconds / 1e6;
/** The largest resident set seen in the window (sampled every 20 ms), in bytes. */
let rssMax = process.memoryUsage().rss;
setInterval(() => {
  rssMax = Math.max(rssMax, process.memoryUsage().rss);
}, 20).unref();

// Every statement of every database the process opens shares this prototype.
const probe = new SQLite(':memory:');
const prototype = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, (...args: unknown[]) => unknown>;
probe.close();
for (const method of ['all', 'get', 'run', 'iterate']) {
  const original = prototype[method]!;
  prototype[method] = function timed(this: unknown, ...args: unknown[]) {
    const started = process.hrtime.bigint();
    try {
      return original.apply(this, args);
    } finally {
      const took = Number(process.hrtime.bigint() - started);
      statements.record(Math.max(1, took));
      if (slowest.length < 5 || took / 1e6 > slowest[4]![0]) {
        slowest = [...slowest, [took / 1e6, String((this as { source?: string }).source).slice(0, 120)] as [number, string]].sort((a, b) => b[0] - a[0]).slice(0, 5);
      }
    }
  };
}

process.on('message', (message) => {
  if (message === 'loop-delay:reset') {
    loop.reset();
    statements.reset();
    slowest = [];
    rssMax = process.memoryUsage().rss;
    process.send?.({ type: 'loop-delay:reset' });
  } else if (message === 'loop-delay:read') {
    process.send?.({
      type: 'loop-delay',
      p50: ms(loop.percentile(50)),
      p99: ms(loop.percentile(99)),
      max: ms(loop.max),
      statements: statements.count,
      statementP50: statements.count ? ms(statements.percentile(50)) : 0,
      statementP99: statements.count ? ms(statements.percentile(99)) : 0,
      statementMax: statements.count ? ms(statements.max) : 0,
      slowest,
      rssMax: Math.max(rssMax, process.memoryUsage().rss),
    });
  }
});
// The channel must not keep the server alive on its own (it stops on SIGTERM).
process.channel?.unref();
