// Keystroke → next paint on registration STEP2, as a member types: unthrottled and with the CPU
// slowed 4× (Chrome DevTools Protocol). A key's time is its interaction's Event Timing duration
// (keydown to the paint after its keydown/keypress/input handlers, as INP counts it). Event
// Timing reports only interactions of 16 ms or more; a faster key is timed from its event to
// just after the next frame has painted (a task queued from that frame's animation callback).
// Two floors are measured in the same run and browser, with the same keys: plain <input>s (no
// script) styled by the app's own stylesheets on a page of their own (what the browser itself
// needs per key), and plain inputs put beside the same two fields of STEP2 (what a key costs in
// that page, its size and layout, before any of the app's script runs for it).
//
// The browser draws to a display, as a member's does: Chromium runs with a window on a virtual X
// display (Xvfb, Debian's `xvfb`) when there is one to start. Headless Chromium can stop
// presenting the frames of a page whose text changes (it drew no damage for the roman-name field's
// keys after the password field was left, depending on where the fields lay), so a key would be
// timed without its paint. Without Xvfb the bench runs headless and counts such keys: a key that
// took 24 ms or more by the frame clock and has no Event Timing entry was not presented.
import { chromium, type Browser, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { codeIn, typeCode, waitForMail } from '../e2e/support/fixtures';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './lighthouse';
import type { Stack } from './stack';

export interface KeystrokeRow {
  cpu: string;
  /** Registration STEP2, or the plain-input floor. */
  page: string;
  keys: number;
  p50Ms: number;
  p95Ms: number;
  /** Keys of UNPRESENTED_MS or more by the frame clock that Event Timing never reported: not presented. */
  unpresented: number;
}

/** A frame and a half: a key this slow by the frame clock has an Event Timing entry if it was presented. */
const UNPRESENTED_MS = 24;

const TEXT = 'Sample-Pass1!Tanaka'; // every key re-checks the password checklist
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)];

async function reachStep2(page: Page, stack: Stack) {
  const email = `bench-${Date.now()}@example.com`;
  const box = (name: string) => page.getByRole('textbox', { name, exact: true });
  await page.goto(`${stack.appUrl}/user/register`);
  await box('メールアドレス').fill(email);
  await box('メールアドレス（確認用）').fill(email);
  await page.getByRole('button', { name: '認証コードを送信' }).click();
  await typeCode(page, codeIn(await waitForMail(email, 1, stack.mailUrl)));
  await page.getByRole('button', { name: '認証コードを登録' }).click();
  await box('パスワード').waitFor();
}

interface KeyLog {
  keys: Array<{ at: number; toPaint: number }>;
  /** Event Timing: interactionId → [keydown start, longest duration among its events]. */
  timed: Map<number, { start: number; duration: number }>;
}

async function listenToKeys(page: Page) {
  await page.evaluate(() => {
    const log: KeyLog = { keys: [], timed: new Map() };
    (window as unknown as { keyLog: KeyLog }).keyLog = log;
    window.addEventListener(
      'keydown',
      (event) => {
        const at = event.timeStamp;
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => log.keys.push({ at, toPaint: performance.now() - at });
          channel.port2.postMessage(null);
        });
      },
      { capture: true },
    );
    new PerformanceObserver((list) => {
      // interactionId groups the keydown, keypress and input of one key (not in TypeScript's DOM types yet)
      for (const entry of list.getEntries() as Array<PerformanceEventTiming & { interactionId?: number }>) {
        if (!entry.interactionId) continue;
        const known = log.timed.get(entry.interactionId);
        const start = entry.name === 'keydown' ? entry.startTime : (known?.start ?? NaN);
        log.timed.set(entry.interactionId, { start, duration: Math.max(entry.duration, known?.duration ?? 0) });
      }
    }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
  });
}

/** One time per key: its Event Timing duration, or the time to its frame when it was under 16 ms. */
function keyTimes(page: Page): Promise<Array<{ ms: number; presented: boolean }>> {
  return page.evaluate(async (unpresentedMs) => {
    await new Promise((resolve) => setTimeout(resolve, 500)); // let the last entries arrive
    const { keys, timed } = (window as unknown as { keyLog: KeyLog }).keyLog;
    const durations = [...timed.values()];
    return keys.map((key) => {
      const duration = durations.find((timing) => Math.abs(timing.start - key.at) < 1)?.duration;
      return { ms: duration ?? key.toPaint, presented: duration !== undefined || key.toPaint < unpresentedMs };
    });
  }, UNPRESENTED_MS);
}

/** A member taps a field and starts typing a moment later; the tap's own work (the field left
 *  blurs and the form catches up with it) is the tap's, not the first key's. */
const TAP_TO_FIRST_KEY_MS = 300;

async function typeInto(page: Page, field: string) {
  await page.getByRole('textbox', { name: field, exact: true }).click();
  await page.waitForTimeout(TAP_TO_FIRST_KEY_MS);
  for (const key of TEXT) {
    await page.keyboard.press(key === '!' ? 'Shift+Digit1' : key);
    await page.waitForTimeout(60);
  }
  for (let i = 0; i < TEXT.length; i++) {
    await page.keyboard.press('Backspace');
    await page.waitForTimeout(60);
  }
}

const FIELDS = ['パスワード', '姓（ローマ字）'];
const PLAIN = (field: string) => `${field} (plain)`;

/** The floor: the same two fields as plain inputs with the app's stylesheets, no script. */
async function reachPlainInputs(page: Page, stack: Stack) {
  await page.goto(`${stack.appUrl}/user/register`);
  const styles = await page.locator('link[rel="stylesheet"]').evaluateAll((links) => links.map((link) => (link as HTMLLinkElement).href));
  const field = (label: string, type: string, i: number) =>
    `<div class="field"><label class="field__label" for="f${i}">${label}</label><input id="f${i}" class="input" type="${type}" autocomplete="off"></div>`;
  await page.goto('about:blank');
  await page.setContent(
    `<!doctype html><html lang="ja"><head><meta name="viewport" content="width=device-width">${styles.map((href) => `<link rel="stylesheet" href="${href}">`).join('')}</head>` +
      `<body><main class="card">${FIELDS.map((label, i) => field(label, i === 0 ? 'password' : 'text', i)).join('')}</main></body></html>`,
  );
}

/** The page floor: STEP2 with a plain input (no handlers of the app's) beside each of the two fields. */
async function reachPlainInStep2(page: Page, stack: Stack) {
  await reachStep2(page, stack);
  const ids = ['root_password', 'root_last_name_alphabet'];
  await page.evaluate(
    ({ ids, labels }) =>
      ids.forEach((id, i) => {
        const plain = document.createElement('input');
        plain.className = 'input';
        plain.type = i === 0 ? 'password' : 'text';
        plain.setAttribute('aria-label', labels[i]);
        document.getElementById(id)!.after(plain);
      }),
    { ids, labels: FIELDS.map(PLAIN) },
  );
}

async function measureIn(browser: Browser, stack: Stack): Promise<KeystrokeRow[]> {
  const rows: KeystrokeRow[] = [];
  for (const rate of [1, 4]) {
    for (const [name, reach, fields] of [
      ['registration STEP2', reachStep2, FIELDS],
      ['plain <input> in STEP2 (page floor)', reachPlainInStep2, FIELDS.map(PLAIN)],
      ['plain <input> (floor)', reachPlainInputs, FIELDS],
    ] as const) {
      const page = await browser.newPage({ locale: 'ja-JP' });
      await reach(page, stack);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      await listenToKeys(page);
      for (const field of fields) await typeInto(page, field);
      const samples = await keyTimes(page);
      const times = samples.map((sample) => sample.ms);
      rows.push({
        cpu: rate === 1 ? 'unthrottled' : `${rate}× slower`,
        page: name,
        keys: samples.length,
        p50Ms: percentile(times, 50),
        p95Ms: percentile(times, 95),
        unpresented: samples.filter((sample) => !sample.presented).length,
      });
      await page.close();
    }
  }
  return rows;
}

const XVFB = '/usr/bin/Xvfb';

/** A virtual X display for the browser's window (none: no Xvfb, or a display is already set). */
async function startDisplay(): Promise<{ display: string; server?: ChildProcess } | undefined> {
  if (process.env.DISPLAY) return { display: process.env.DISPLAY };
  if (!existsSync(XVFB)) return undefined;
  const number = 90 + (process.pid % 100);
  const server = spawn(XVFB, [`:${number}`, '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
  const socket = `/tmp/.X11-unix/X${number}`;
  for (let waited = 0; !existsSync(socket); waited += 50) {
    if (waited > 5000 || server.exitCode !== null) {
      server.kill();
      return undefined;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { display: `:${number}`, server };
}

/** The rows, and how the browser drew them: on a display (Xvfb or the session's) or headless. */
export async function measureKeystrokes(stack: Stack): Promise<{ drawnBy: string; rows: KeystrokeRow[] }> {
  const screen = await startDisplay();
  const drawnBy = screen ? `Chromium in a window on X display ${screen.display}${screen.server ? ' (Xvfb)' : ''}` : 'headless Chromium (no Xvfb: keys it did not present are counted)';
  try {
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: !screen,
      args: CHROMIUM_FLAGS.filter((flag) => !flag.startsWith('--headless')),
      env: screen ? { ...process.env, DISPLAY: screen.display } : process.env,
    });
    try {
      return { drawnBy, rows: await measureIn(browser, stack) };
    } finally {
      await browser.close();
    }
  } finally {
    screen?.server?.kill();
  }
}
