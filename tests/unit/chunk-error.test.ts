// A screen chunk that fails names the screen to the member by its catalogue title (or says
// "the screen" when it has none), never by its internal id; the error itself, which is logged,
// names the chunk id (spec, error catalogue).
import { describe, expect, it } from 'vitest';
import catalogue from '../../schemas/catalogue.json';
import messages from '../../messages/ja.json';
import { format } from '../../src/shared/format';
import { ChunkLoadError, withTimeout } from '../../src/app/screen-loader';

const failing = () => Promise.reject(new Error('network'));

describe('ChunkLoadError', () => {
  it.each(catalogue.routes.map((route) => [route.screen, route.title]))('%s: the member reads "%s", not the id', async (screen, title) => {
    const error = await withTimeout(failing, screen).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChunkLoadError);
    const { userMessage, message } = error as ChunkLoadError;
    expect(userMessage).toBe(format(messages.app.chunkFailed, { title }));
    expect(userMessage).not.toContain(screen);
    expect(message).toContain(screen);
  });

  it('a time-out says so; a chunk outside the catalogue gets the generic text', async () => {
    const late = await withTimeout(() => new Promise(() => undefined), 'password-reminder', 5).catch((e: unknown) => e);
    expect((late as ChunkLoadError).userMessage).toBe(format(messages.app.chunkTimeout, { title: catalogue.routes.find((r) => r.screen === 'password-reminder')!.title }));
    const unknown = await withTimeout(failing, 'not-a-screen').catch((e: unknown) => e);
    expect((unknown as ChunkLoadError).userMessage).toBe(messages.app.chunkFailedUntitled);
  });
});
