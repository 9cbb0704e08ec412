// @vitest-environment jsdom
// The back office's one list screen (src/admin/records/RecordList.tsx) renders a list from its
// declaration (schemas/records/<kind>.json): every filter a labelled control whose value is kept
// in the page's URL and sent to the API, the sort, the declared columns with the detail link,
// the bound of the count read 「1,000件以上」 with a next page, and an empty state.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import text from '../../messages/admin.ja.json';
import { boundedCount } from '../../src/admin/format';
import { filterQuery, japanToday, RECORD_KINDS } from '../../src/admin/records/kinds';
import { RecordList } from '../../src/admin/records/RecordList';

const calls: Array<{ path: string; query: Record<string, unknown> }> = [];
let answer: { items: unknown[]; total: number; bounded?: boolean; page: number; size: number } = { items: [], total: 0, page: 1, size: 20 };

vi.mock('../../src/admin/api', () => ({
  adminCall: async (_method: string, path: string, options: { query?: Record<string, unknown> } = {}) => {
    calls.push({ path, query: options.query ?? {} });
    return answer;
  },
}));

beforeEach(() => {
  calls.length = 0;
});
afterEach(cleanup);

function Where() {
  const location = useLocation();
  return <output aria-label="where">{location.search}</output>;
}

const application = (n: number) => ({ register_number: `R-${n}`, name: `申請者 ${n}`, email: `a${n}@example.com`, applied_at: '2026-04-01T00:00:00Z', decided_at: null, status: 'pending', member_status: 'active' });
const lastQuery = () => calls.at(-1)!.query;

function show(kind: keyof typeof RECORD_KINDS, url = '/') {
  render(
    <MemoryRouter initialEntries={[url]}>
      <RecordList kind={RECORD_KINDS[kind]} />
      <Where />
    </MemoryRouter>,
  );
}

describe('the one list screen', () => {
  it('applications: the declared filters as labelled controls, the default status sent, the columns with the detail link, the caption', async () => {
    answer = { items: [application(1)], total: 1, bounded: false, page: 1, size: 20 };
    show('applications');
    const table = await screen.findByRole('table', { name: text.applications.caption });
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([text.fields.registerNumber, text.fields.name, text.fields.email, text.fields.appliedAt, text.fields.status, text.fields.decidedAt]);
    expect(within(table).getByRole('link', { name: 'R-1' }).getAttribute('href')).toBe('/applications/R-1');
    expect(within(table).getByText(text.labels.applicationStatus.pending)).toBeTruthy();
    expect((screen.getByLabelText(text.applications.status) as HTMLSelectElement).value).toBe('pending');
    expect(screen.getByRole('group', { name: text.records.appliedPeriod })).toBeTruthy();
    expect(screen.getByLabelText(text.applications.search)).toBeTruthy();
    expect((screen.getByLabelText(text.records.sort) as HTMLSelectElement).value).toBe('newest');
    expect(calls[0]).toEqual({ path: '/applications', query: { status: 'pending', sort: undefined, page: 1, size: 20 } });
    expect(screen.getByText(text.common.pageOf.replace('{page}', '1').replace('{pages}', '1').replace('{total}', '1'))).toBeTruthy();
  });

  it('a filter changed goes to the URL and the API, focus stays on it; 「今日」 sets the period; oldest first', async () => {
    answer = { items: [application(1)], total: 1, page: 1, size: 20 };
    show('applications', '/?page=3');
    await screen.findByRole('table');
    const status = screen.getByLabelText(text.applications.status);
    status.focus();
    fireEvent.change(status, { target: { value: 'approved' } });
    await waitFor(() => expect(lastQuery()).toMatchObject({ status: 'approved', page: 1 }));
    expect(screen.getByLabelText('where').textContent).toBe('?status=approved');
    expect(document.activeElement).toBe(screen.getByLabelText(text.applications.status));
    fireEvent.click(screen.getByRole('button', { name: text.records.today }));
    await waitFor(() => expect(lastQuery()).toMatchObject({ status: 'approved', applied_from: japanToday(), applied_to: japanToday() }));
    fireEvent.change(screen.getByLabelText(text.records.sort), { target: { value: 'oldest' } });
    await waitFor(() => expect(lastQuery()).toMatchObject({ sort: 'oldest', applied_from: japanToday() }));
    fireEvent.change(screen.getByLabelText(text.applications.search), { target: { value: '山田' } });
    expect(lastQuery().q).toBeUndefined();
    fireEvent.click(screen.getByRole('button', { name: text.records.filter }));
    await waitFor(() => expect(lastQuery()).toMatchObject({ q: '山田', sort: 'oldest' }));
    fireEvent.click(screen.getByRole('button', { name: text.records.clear }));
    await waitFor(() => expect(lastQuery()).toEqual({ sort: 'oldest', page: 1, size: 20 }));
    expect((screen.getByLabelText(text.applications.search) as HTMLInputElement).value).toBe('');
  });

  it('a bounded count reads 「1,000件以上」 and the next page stays open while pages are full', async () => {
    answer = { items: Array.from({ length: 20 }, (_, i) => application(i)), total: 1000, bounded: true, page: 1, size: 20 };
    show('applications', '/?page=50');
    expect(await screen.findByText(text.records.pageOfBound.replace('{page}', '50'))).toBeTruthy();
    const next = screen.getByRole('button', { name: text.common.next });
    expect((next as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(next);
    await waitFor(() => expect(lastQuery()).toMatchObject({ page: 51 }));
    expect(boundedCount({ total: 1000, bounded: true })).toBe('1,000件以上');
    expect(boundedCount({ total: 1234 })).toBe('1,234');
  });

  it('members: browsable with no search (newest first), prefecture, status, period and consent from the URL; an empty page says so', async () => {
    answer = { items: [], total: 0, page: 1, size: 20 };
    show('members', `/?prefecture=${encodeURIComponent('沖縄県')}&mail_opt=1&registered_from=2026-04-01`);
    expect(await screen.findByText(text.common.empty)).toBeTruthy();
    expect(calls[0]).toEqual({ path: '/members', query: { prefecture: '沖縄県', mail_opt: '1', registered_from: '2026-04-01', sort: undefined, page: 1, size: 20 } });
    expect((screen.getByLabelText(text.records.prefecture) as HTMLSelectElement).value).toBe('沖縄県');
    expect((screen.getByLabelText(text.records.mailConsent) as HTMLInputElement).checked).toBe(true);
    expect(screen.getAllByRole('option', { name: '北海道' })).toHaveLength(1);
    fireEvent.click(screen.getByLabelText(text.records.mailConsent));
    await waitFor(() => expect(lastQuery().mail_opt).toBeUndefined());
  });

  it('the audit log: its action offered from the actions named, its period in instants sent as Japan time', () => {
    const query = filterQuery(RECORD_KINDS.audit, new URLSearchParams('action=members.export&from=2026-04-01T09:00'));
    expect(query).toEqual({ action: 'members.export', from: '2026-04-01T09:00:00+09:00' });
    show('audit');
    const action = screen.getByLabelText(text.audit.action);
    expect(within(action).getByRole('option', { name: text.labels.actions['members.export'] })).toBeTruthy();
  });
});

describe('Japan days', () => {
  it('today in Japan turns at 15:00 UTC', () => {
    expect(japanToday(new Date('2026-01-01T14:59:00Z'))).toBe('2026-01-01');
    expect(japanToday(new Date('2026-01-01T15:00:00Z'))).toBe('2026-01-02');
  });
});
