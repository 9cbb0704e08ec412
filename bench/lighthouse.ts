// Lighthouse's mobile audit (its default: Moto G Power screen, 4× CPU slowdown, simulated slow
// 4G) of a page, in Debian's Chromium, for performance and accessibility.
import lighthouse from 'lighthouse';
import { launch } from 'chrome-launcher';

/** The same quiet-browser flags as playwright.config.ts: nothing talks to the network but the page. */
export const CHROMIUM_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface LighthouseResult {
  url: string;
  performance: number;
  accessibility: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** The accessibility audits that failed (empty at 100), each with the elements it flagged. */
  failedAccessibility: string[];
  /** Lighthouse could not score the page (its runtimeError code, e.g. NO_FCP): the scores mean nothing. */
  runtimeError?: string;
}

function flagged(details: unknown): string {
  const items = (details as { items?: Array<{ node?: { selector?: string; explanation?: string } }> } | undefined)?.items ?? [];
  return items.map((item) => `${item.node?.selector ?? '?'} (${item.node?.explanation?.split('\n').at(-1) ?? ''})`).join('; ');
}

export async function runLighthouse(url: string): Promise<LighthouseResult> {
  const chrome = await launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_FLAGS, logLevel: 'silent' });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] });
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { categories, audits, runtimeError } = result.lhr;
    const unscored = runtimeError?.code ?? (categories.performance.score === null ? 'NO_SCORE' : undefined);
    const accessibilityAudits = categories.accessibility.auditRefs.map((ref) => audits[ref.id]);
    return {
      url,
      performance: Math.round((categories.performance.score ?? 0) * 100),
      accessibility: Math.round((categories.accessibility.score ?? 0) * 100),
      fcpMs: audits['first-contentful-paint'].numericValue ?? NaN,
      lcpMs: audits['largest-contentful-paint'].numericValue ?? NaN,
      tbtMs: audits['total-blocking-time'].numericValue ?? NaN,
      cls: audits['cumulative-layout-shift'].numericValue ?? NaN,
      failedAccessibility: accessibilityAudits
        .filter((audit) => audit.score !== null && audit.score < 1)
        .map((audit) => `${audit.id}: ${flagged(audit.details)}`),
      ...(unscored ? { runtimeError: unscored } : {}),
    };
  } finally {
    chrome.kill();
  }
}

if (process.argv[1]?.endsWith('lighthouse.ts')) {
  for (const url of process.argv.slice(2)) console.log(await runLighthouse(url));
}
