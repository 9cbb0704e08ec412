// What the page's live regions said during a test, recorded in every frame of the page, and what
// was shown when they said it: the screen-reader contract's half about speech (issue 35). A
// recorder runs before the app's own scripts and hands each event to the test at once (a binding),
// so nothing is lost when the frame navigates. It says what a screen reader with Chromium says of
// live regions, not more:
// - a region (aria-live, role=status|alert|log) says its words when they change while it is in the
//   document; a region put in with its words already in it says nothing, except an alert;
// - words hidden from assistive technology (aria-hidden, display:none, visibility:hidden) are not
//   said;
// - words the app moves focus away from within SWALLOW_MS, with nothing pressed or typed by the
//   member in between, are cut off by the focus being read.
// A status that appears after the member acted on the screen and is not said (or is cut off) is
// "shown, not said"; words said that are on the screen nowhere at that moment are "said, not
// shown" (a field's error said while the field shows none). Statuses that come with a screen
// before the member acts on it (a notice the screen opens with) are read with the screen.
import type { BrowserContext } from '@playwright/test';

/** An app-made focus move this long after a region's words cuts them off. */
export const SWALLOW_MS = 500;

/** The document an event happened in: a focus move in the next page (after a navigation) does
 *  not cut off what the previous one said, even at the same path. */
interface InDocument {
  doc: string;
}

export interface Said extends InDocument {
  kind: 'said';
  at: number;
  url: string;
  region: string;
  text: string;
  /** The words (each part between separators) were on screen when said. */
  shown: boolean;
  /** How long the region had been in the document before it spoke. */
  existedMs: number;
}

export interface Unsaid extends InDocument {
  kind: 'unsaid';
  at: number;
  url: string;
  region: string;
  text: string;
  why: 'inserted-with-text';
}

export interface AppFocus extends InDocument {
  kind: 'focus';
  at: number;
  url: string;
  what: string;
  /** When the member last pressed or typed anything before this focus move. */
  lastInput: number;
}

export type SpeechEvent = Said | Unsaid | AppFocus;

/** The recorder, serialised into every frame (self-contained: it runs in the page). */
function recorder(separators: string[]) {
  const w = window as unknown as { __speechRecorder?: boolean; __speechReport?: (event: unknown) => void };
  if (w.__speechRecorder) return;
  w.__speechRecorder = true;
  const LIVE = '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]';
  const now = () => Date.now();
  const doc = `${now()}-${Math.random().toString(36).slice(2)}`;
  const report = (event: Record<string, unknown>) => {
    try {
      w.__speechReport?.({ ...event, url: location.pathname, doc });
    } catch {
      /* the page is going away */
    }
  };
  const describe = (el: Element) => {
    const id = el.id ? `#${el.id}` : '';
    const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
    return `${el.tagName.toLowerCase()}${id}${cls}`;
  };

  // A task that runs a trusted input event (and whatever it does synchronously) is the member's.
  let memberTask = false;
  let acted = false;
  let lastInput = 0;
  const markMember = (event: Event) => {
    if (!event.isTrusted) return;
    memberTask = true;
    lastInput = now();
    setTimeout(() => (memberTask = false), 0);
    if (event.type === 'keydown' || event.type === 'pointerdown' || event.type === 'input') acted = true;
  };
  for (const type of ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'click', 'keydown', 'keyup', 'input', 'touchstart', 'touchend', 'submit', 'change']) {
    addEventListener(type, markMember, true);
  }
  // A new screen: what comes with it is read with it.
  const newScreen = () => (acted = false);
  for (const name of ['pushState', 'replaceState'] as const) {
    const original = history[name];
    history[name] = function (this: History, ...args: Parameters<History['pushState']>) {
      const before = location.pathname;
      const result = original.apply(this, args);
      if (location.pathname !== before) newScreen();
      return result;
    } as History['pushState'];
  }
  addEventListener('popstate', newScreen);

  const focus = HTMLElement.prototype.focus;
  HTMLElement.prototype.focus = function (this: HTMLElement, ...args: Parameters<HTMLElement['focus']>) {
    if (!memberTask) report({ kind: 'focus', at: now(), what: describe(this), lastInput });
    return focus.apply(this, args);
  };

  const styles = new WeakMap<Element, CSSStyleDeclaration>();
  const style = (el: Element) => {
    let s = styles.get(el);
    if (!s) styles.set(el, (s = getComputedStyle(el)));
    return s;
  };
  /** Words a screen reader says of `node`: not aria-hidden, not display:none, not visibility:hidden. */
  const spoken = (node: Node): string => {
    if (node.nodeType === Node.TEXT_NODE) {
      const parent = node.parentElement;
      return parent && style(parent).visibility === 'visible' ? (node.textContent ?? '') : '';
    }
    if (!(node instanceof Element)) return '';
    if (node.getAttribute('aria-hidden') === 'true' || style(node).display === 'none') return '';
    let text = '';
    node.childNodes.forEach((child) => (text += spoken(child)));
    if (node.tagName === 'BR' || style(node).display.startsWith('block') || node.tagName === 'LI') text = ` ${text} `;
    return text;
  };
  const wordsOf = (el: Element) => spoken(el).replace(/\s+/g, ' ').trim();

  /** An element seen by the eye: laid out, visible, and not clipped to a point (visually hidden). */
  const isSeen = (el: Element | null, cache: Map<Element, boolean>): boolean => {
    if (!el || el === document.documentElement) return true;
    const known = cache.get(el);
    if (known !== undefined) return known;
    const s = style(el);
    const rect = el.getBoundingClientRect();
    const clipped = (s.overflow === 'hidden' && rect.width <= 1 && rect.height <= 1) || (!!s.clip && s.clip !== 'auto') || s.clipPath === 'inset(50%)';
    const result = s.display !== 'none' && s.visibility === 'visible' && el.getClientRects().length > 0 && !clipped && isSeen(el.parentElement, cache);
    cache.set(el, result);
    return result;
  };
  /** Every word on screen now (this frame's document), without spaces. */
  const screenText = (cache: Map<Element, boolean>) => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    let text = '';
    for (let node = walker.nextNode(); node; node = walker.nextNode()) if (isSeen(node.parentElement, cache)) text += node.textContent ?? '';
    return text.replace(/\s+/g, '');
  };
  const parts = (text: string) => separators.reduce<string[]>((list, sep) => list.flatMap((part) => part.split(sep)), [text]).map((part) => part.replace(/\s+/g, '')).filter(Boolean);
  const isShown = (region: Element, text: string) => {
    const cache = new Map<Element, boolean>();
    if (isSeen(region, cache)) return true; // its own words are on screen
    const onScreen = screenText(cache);
    return parts(text).every((part) => onScreen.includes(part));
  };

  const regions = new Map<Element, { since: number; text: string }>();
  const scan = () => {
    for (const el of document.querySelectorAll(LIVE)) {
      const text = wordsOf(el);
      const known = regions.get(el);
      const at = now();
      if (!known) {
        regions.set(el, { since: at, text });
        if (!text) continue;
        if (el.getAttribute('role') === 'alert') report({ kind: 'said', at, region: describe(el), text, shown: isShown(el, text), existedMs: 0 });
        else if (acted) report({ kind: 'unsaid', at, region: describe(el), text, why: 'inserted-with-text' });
        continue;
      }
      if (text === known.text) continue;
      known.text = text;
      if (text) report({ kind: 'said', at, region: describe(el), text, shown: isShown(el, text), existedMs: at - known.since });
    }
    for (const el of regions.keys()) if (!el.isConnected) regions.delete(el);
  };
  const start = () => {
    scan();
    new MutationObserver(() => {
      scan();
    }).observe(document.documentElement, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['aria-hidden', 'class', 'style', 'hidden'] });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
}

const contexts = new WeakSet<BrowserContext>();

/** Records what every frame of the context's pages says into `sink` (once per context). */
export async function recordSpeech(context: BrowserContext, separators: string[], sink: (event: SpeechEvent) => void) {
  if (contexts.has(context)) return;
  contexts.add(context);
  await context.exposeBinding('__speechReport', (_source, event: SpeechEvent) => sink(event));
  await context.addInitScript(recorder, separators);
}

/** What a test's speech log breaks: words said that were not shown, statuses shown and not said
 *  (put in with their words, or cut off by an app-made focus move within SWALLOW_MS). */
export function speechFailures(events: readonly SpeechEvent[]): string[] {
  const focuses = events.filter((e): e is AppFocus => e.kind === 'focus');
  const failures: string[] = [];
  for (const event of events) {
    if (event.kind === 'said' && !event.shown) failures.push(`said, not shown: 「${event.text}」 (${event.region} on ${event.url})`);
    if (event.kind === 'unsaid') failures.push(`shown, not said (${event.why}): 「${event.text}」 (${event.region} on ${event.url})`);
    if (event.kind === 'said') {
      // Cut off by the app, not moved on from by the member: nothing pressed or typed in between.
      const cut = focuses.find((f) => f.doc === event.doc && f.url === event.url && f.at >= event.at && f.at - event.at <= SWALLOW_MS && f.lastInput < event.at);
      if (cut) failures.push(`shown, cut off by focus moving to ${cut.what} ${cut.at - event.at} ms later: 「${event.text}」 (${event.region} on ${event.url})`);
    }
  }
  return failures;
}
