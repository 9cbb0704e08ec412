// The app inside the parent site's iframe: it reports its height (min 800 px, 60 ms debounce,
// repeated at 50/250/600 ms) to the configured parent origin only, and asks the parent to
// navigate when the top window must change.
import { settings } from './settings';

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

function reportHeight() {
  const height = Math.max(MIN_HEIGHT, document.documentElement.scrollHeight, document.body.scrollHeight);
  postToParent({ type: 'member-site:height', height });
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
  observer.observe(document.body);
  window.addEventListener('resize', schedule);
  reportHeightBurst();
  return () => {
    observer.disconnect();
    window.removeEventListener('resize', schedule);
  };
}
