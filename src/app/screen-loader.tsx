// Each screen is its own chunk, loaded when its route is first visited. A chunk that fails,
// or takes longer than 120 s, becomes an error naming the chunk id for the log (the spec's error
// catalogue) and, for the member, the screen by its title in the catalogue, never its id.
import { lazy, type ComponentType } from 'react';
import messages from '../../messages/ja.json';
import { format } from '../shared/format';
import { routes } from './catalogue';

export const CHUNK_TIMEOUT_MS = 120_000;

type ScreenModule = { default: ComponentType };
const screenModules = import.meta.glob<ScreenModule>('../screens/*/index.tsx');

export class ChunkLoadError extends Error {
  /** What the member reads: the screen's title (catalogue.json), or a generic text without one. */
  readonly userMessage: string;
  constructor(
    readonly chunk: string,
    readonly timedOut: boolean,
  ) {
    super(`Screen chunk "${chunk}" ${timedOut ? 'timed out' : 'failed to load'}`);
    const title = routes.find((entry) => entry.screen === chunk)?.title;
    this.userMessage = title
      ? format(timedOut ? messages.app.chunkTimeout : messages.app.chunkFailed, { title })
      : timedOut
        ? messages.app.chunkTimeoutUntitled
        : messages.app.chunkFailedUntitled;
  }
}

export function withTimeout<T>(load: () => Promise<T>, chunk: string, ms = CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(chunk, true)), ms);
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        reject(new ChunkLoadError(chunk, false));
      },
    );
  });
}

const cache = new Map<string, ComponentType>();

/** The lazily loaded component for a catalogue screen; every catalogue screen must exist (the
 *  catalogue test holds it), so a missing one is a programming error, not a page. */
export function screenComponent(screen: string): ComponentType {
  const load = screenModules[`../screens/${screen}/index.tsx`];
  if (!load) throw new Error(`No screen folder src/screens/${screen}`);
  let component = cache.get(screen);
  if (!component) {
    component = lazy(() => withTimeout(load, screen));
    cache.set(screen, component);
  }
  return component;
}
