// Loaded into the server process by the scale bench (node --import): measures how late the event
// loop runs (perf_hooks monitorEventLoopDelay) and answers the bench over the IPC channel, so the
// server itself carries no measuring code. 'loop-delay:reset' starts a window, 'loop-delay:read'
// ends it with { p50, p99, max } in milliseconds.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 2 });
histogram.enable();
const ms = (nanoseconds: number) => nanoseconds / 1e6;

process.on('message', (message) => {
  if (message === 'loop-delay:reset') {
    histogram.reset();
    process.send?.({ type: 'loop-delay:reset' });
  } else if (message === 'loop-delay:read') {
    process.send?.({ type: 'loop-delay', p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) });
  }
});
// The channel must not keep the server alive on its own (it stops on SIGTERM).
process.channel?.unref();
