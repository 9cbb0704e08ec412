// The stand-in parent site serves a mailed link's page (`/?path=/user/…`) with its frame already
// pointing at that app path, so the frame loads once; anything else gets the frame's default.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { framedTarget, startParentSite } from '../../src/server/parent-site';

const APP = 'http://localhost:3999';
let site: FastifyInstance;
beforeAll(async () => {
  site = await startParentSite(0, '127.0.0.1', APP);
});
afterAll(() => site.close());

const frameSrc = async (query: string) => /<iframe[^>]* src="([^"]*)"/.exec((await site.inject({ method: 'GET', url: `/${query}` })).body)?.[1];

describe('parent site: ?path= points the frame', () => {
  it('a path of the app under /user is the frame\'s src, its query kept (& written as &amp;)', async () => {
    expect(await frameSrc('?path=/user/login')).toBe(`${APP}/user/login`);
    expect(await frameSrc(`?path=${encodeURIComponent('/user/email-auth?key=a&b=1')}`)).toBe(`${APP}/user/email-auth?key=a&amp;b=1`);
  });

  it.each([
    ['no path', ''],
    ['another origin', `?path=${encodeURIComponent('//evil.example/user/login')}`],
    ['a backslash origin', `?path=${encodeURIComponent('/\\evil.example/user/login')}`],
    ['outside /user', '?path=/admin'],
    ['a look-alike prefix', '?path=/username'],
    ['markup', `?path=${encodeURIComponent('/user/"><script>alert(1)</script>')}`],
  ])('%s: the default frame, or the path made harmless', async (_label, query) => {
    const src = await frameSrc(query);
    expect(src === `${APP}/user/` || src?.startsWith(`${APP}/user/%22%3E`)).toBe(true);
  });

  it('framedTarget refuses what parent.js refuses', () => {
    expect(framedTarget(undefined, APP)).toBeUndefined();
    expect(framedTarget('user/login', APP)).toBeUndefined();
    expect(framedTarget('/user', APP)).toBe(`${APP}/user`);
  });
});
