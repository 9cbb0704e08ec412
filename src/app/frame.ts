// The app inside the parent site's iframe. It reports the height of its own content (min
// 800 px, 60 ms debounce, repeated at 50/250/600 ms) so the frame grows and shrinks with the
// page, tells it the document's title (so the parent page's own title follows the screen), asks
// the parent to bring a part of the frame into view (its top on each navigation, a dialog when
// one opens, the first error), and asks for top-window navigation. Every message goes to the
// configured parent origin only.
import { settings } from '../api/settings';

export const BASE_PATH = '/user';
const MIN_HEIGHT = 800;
const DEBOUNCE_MS = 60;
const REPEATS_MS = [50, 250, 600];

export const isFramed = (): boolean => window.parent !== window;

/** "/mypage" or "mypage" → "/user/mypage". */
export function appPath(path: string): string {
  if (/^[a-z]+:\/\//i.test(path) || path.startsWith(BASE_PATH + '/') || path === BASE_PATH) return path;
  return `${BASE_PATH}/${path.replace(/^\/+/, '')}`;
}

function postToParent(message: Record<string, unknown>) {
  const origin = settings().parentOrigin;
  if (isFramed() && origin) window.parent.postMessage(message, origin);
}

/** Navigates the top window (the parent page when framed) to an absolute URL or app path. */
export function navigateTop(url: string) {
  const target = new URL(appPath(url), window.location.href).href;
  if (isFramed() && settings().parentOrigin) postToParent({ type: 'member-site:navigate', url: target });
  else window.location.assign(target);
}

/** The content's own height. The document's scroll height is never less than the frame, so a
 *  frame sized from it could grow but never shrink. */
export function contentHeight(): number {
  const root = document.getElementById('root');
  return Math.ceil(root ? root.getBoundingClientRect().height : document.body.getBoundingClientRect().height);
}

function reportHeight() {
  postToParent({ type: 'member-site:height', height: Math.max(MIN_HEIGHT, contentHeight()) });
}

/**
 * Asks the parent to show the part of the frame from `top` (px from the frame's top) for
 * `height` px; the parent scrolls only when that part is not already in view. Unframed, the
 * app's own window scrolls.
 */
export function showInParent(top: number, height = 0) {
  if (isFramed()) postToParent({ type: 'member-site:scroll', top: Math.max(0, Math.floor(top)), height: Math.ceil(height) });
  else if (top < window.scrollY || top + height > window.scrollY + window.innerHeight) window.scrollTo(0, Math.max(0, top - 16));
}

/** Brings an element of the page into the member's view, framed or not. */
export function showElement(element: Element) {
  const rect = element.getBoundingClientRect();
  if (isFramed()) showInParent(rect.top + window.scrollY, rect.height);
  else element.scrollIntoView({ block: 'center' });
}

/** Reports now-ish and again as late content settles (after start-up and each route change). */
export function reportHeightBurst() {
  if (isFramed()) REPEATS_MS.forEach((ms) => window.setTimeout(reportHeight, ms));
}

export function startHeightReporting(): () => void {
  let timer: number | undefined;
  const schedule = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(reportHeight, DEBOUNCE_MS);
  };
  const observer = new ResizeObserver(schedule);
  observer.observe(document.getElementById('root') ?? document.body);
  window.addEventListener('resize', schedule);
  reportHeightBurst();
  return () => {
    observer.disconnect();
    window.removeEventListener('resize', schedule);
  };
}

/**
 * Tells the parent the document's title, now and whenever it changes (whatever sets it: the
 * layout on each route, or a screen), so the parent page's title, the one a screen reader and
 * the browser's tab show, follows the screen inside the frame.
 */
export function startTitleReporting(): () => void {
  if (!isFramed()) return () => undefined;
  let sent: string | undefined;
  const report = () => {
    const title = document.title;
    if (title === sent) return;
    sent = title;
    postToParent({ type: 'member-site:title', title });
  };
  const observer = new MutationObserver(report);
  observer.observe(document.head, { childList: true, subtree: true, characterData: true });
  report();
  return () => observer.disconnect();
}
