// The back office's small pieces with logic: its CSP (the member site's with frame-ancestors
// 'none'), counts under the floor, Japan-time input as ISO, and the API client's session and CSRF
// handling (a 401 ends the session in one place, a download's too; non-GET calls carry the token).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { adminPolicy } from '../../src/server/admin/client';
import { staticHeaders } from '../../src/server/app';
import { count, japanLocalToIso } from '../../src/admin/format';
import text from '../../messages/admin.ja.json';

describe('adminPolicy', () => {
  it('is the member site’s CSP with frame-ancestors none instead of the parent site', () => {
    const member = staticHeaders(['https://parent.example.jp']).find(([name]) => name === 'content-security-policy')![1];
    expect(member).toContain('frame-ancestors');
    expect(member).toContain('https://parent.example.jp');
    const policy = adminPolicy(member);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('parent.example.jp');
    expect(policy.match(/frame-ancestors/g)).toHaveLength(1);
    // every other directive kept as it was
    for (const directive of member.split(';').filter((d) => !d.startsWith('frame-ancestors'))) expect(policy.split(';')).toContain(directive);
  });
});

describe('format', () => {
  it('a suppressed count reads “5未満”, a count its number', () => {
    expect(count(null, 5)).toBe(text.stats.underFloor.replace('{floor}', '5'));
    expect(count(null, 5)).toBe('5未満');
    expect(count(1234, 5)).toBe('1,234');
    expect(count(0, 5)).toBe('0');
  });

  it('a datetime-local value is Japan time', () => {
    expect(japanLocalToIso('2026-04-01T09:00')).toBe('2026-04-01T09:00:00+09:00');
    expect(new Date(japanLocalToIso('2026-04-01T09:00')!).toISOString()).toBe('2026-04-01T00:00:00.000Z');
    expect(japanLocalToIso('')).toBeUndefined();
    expect(japanLocalToIso(undefined)).toBeUndefined();
  });
});

describe('adminCall', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  async function withFetch(status: number, body: unknown) {
    const calls: Array<{ url: string; init: RequestInit }> = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    });
    const api = await import('../../src/admin/api');
    return { api, calls };
  }

  it('sends the CSRF token on a change, never on a read', async () => {
    const { api, calls } = await withFetch(200, { ok: true });
    api.setCsrfToken('token-1');
    await api.adminCall('post', '/notices', { body: { message: 'x' } });
    await api.adminCall('get', '/notices', { query: { page: 2, q: '' } });
    expect(new Headers(calls[0].init.headers).get('x-csrf-token')).toBe('token-1');
    expect(new Headers(calls[1].init.headers).get('x-csrf-token')).toBeNull();
    expect(calls[1].url).toBe('/v1/admin/notices?page=2');
    expect(calls[0].init.credentials).toBe('include');
  });

  it('a 401 tells the session listener once and fails with the server’s Japanese; the login’s own 401 does not', async () => {
    const { api } = await withFetch(401, { error: 'ログインしてください。', code: 'ADMIN_UNAUTHENTICATED' });
    const gone = vi.fn();
    api.onSessionGone(gone);
    await expect(api.adminCall('get', '/applications')).rejects.toMatchObject({ status: 401, code: 'ADMIN_UNAUTHENTICATED', message: 'ログインしてください。' });
    expect(gone).toHaveBeenCalledTimes(1);
    await expect(api.adminCall('post', '/login/code', { body: {} })).rejects.toMatchObject({ status: 401 });
    expect(gone).toHaveBeenCalledTimes(1);
  });

  it('field errors come back for the form', async () => {
    const { api } = await withFetch(400, { error: '入力内容をご確認ください。', code: 'VALIDATION', fields: { reason: ['理由を入力してください'] } });
    await expect(api.adminCall('post', '/applications/R1/decision', { body: {} })).rejects.toMatchObject({ fields: { reason: ['理由を入力してください'] } });
  });

  it('no answer at all says so, and that nothing typed is lost', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const api = await import('../../src/admin/api');
    await expect(api.adminCall('get', '/stats')).rejects.toMatchObject({ status: 0, message: text.errors.network });
  });
});

describe('adminDownload', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('gives the file as a Blob with the server’s file name', async () => {
    const csv = '\ufeffemail\r\nhanako@example.com\r\n';
    vi.stubGlobal('fetch', async () => new Response(csv, { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="members-20260401.csv"' } }));
    const api = await import('../../src/admin/api');
    const { blob, fileName } = await api.adminDownload('/members/export.csv', { columns: 'email' });
    expect(fileName).toBe('members-20260401.csv');
    expect([...new Uint8Array(await blob.arrayBuffer()).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it('a 401 tells the session listener and fails with the server’s Japanese, read from the Blob', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ error: 'ログインしてください。', code: 'ADMIN_UNAUTHENTICATED' }), { status: 401, headers: { 'content-type': 'application/json' } }));
    const api = await import('../../src/admin/api');
    const gone = vi.fn();
    api.onSessionGone(gone);
    await expect(api.adminDownload('/members/export.csv')).rejects.toMatchObject({ status: 401, code: 'ADMIN_UNAUTHENTICATED', message: 'ログインしてください。' });
    expect(gone).toHaveBeenCalledTimes(1);
  });

  it('another failure says its status, and nothing comes back to save', async () => {
    vi.stubGlobal('fetch', async () => new Response('<html>bad gateway</html>', { status: 502 }));
    const api = await import('../../src/admin/api');
    await expect(api.adminDownload('/members/export.csv')).rejects.toMatchObject({ status: 502, message: text.errors.httpStatus.replace('{status}', '502') });
  });

  it('reads a Content-Disposition’s file name, the encoded one first', async () => {
    const { fileNameOf } = await import('../../src/admin/api');
    expect(fileNameOf('attachment; filename="members-20260401.csv"')).toBe('members-20260401.csv');
    expect(fileNameOf('attachment; filename=members.csv')).toBe('members.csv');
    expect(fileNameOf("attachment; filename=\"a.csv\"; filename*=UTF-8''%E4%BC%9A%E5%93%A1.csv")).toBe('会員.csv');
    expect(fileNameOf("attachment; filename*=UTF-8''%E4%ZZ; filename=\"plain.csv\"")).toBe('plain.csv');
    expect(fileNameOf('attachment')).toBeUndefined();
    expect(fileNameOf(null)).toBeUndefined();
  });
});

describe('datedFileName', () => {
  it('dates the fallback name in Japan time', async () => {
    const { datedFileName } = await import('../../src/app/save-file');
    expect(datedFileName('members', 'csv', new Date('2026-03-31T15:30:00Z'))).toBe('members-20260401.csv');
  });
});
