// Inquiry history: the member's inquiries by status (?status=, default open) and page (?page=,
// default 1), a page of the catalogue's pageSize, newest first. Each row links to the inquiry in
// full (the catalogue's child page contact_history/:id, InquiryDetail), carrying the tab and page.
import { useEffect, useState } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { Link } from '../../app/Link';
import messages from '../../../messages/ja.json';
import { format } from '../../shared/format';
import type { MasterOption } from '../../shared/api-types';
import { CONTACT_PAGE_SIZE, getInquiries, type InquiryItem } from '../../api/contact';
import { getMasterOptions } from '../../api/masters';
import { formatDateTime } from '../../shared/format-date';
import { paths } from '../../app/paths.generated';
import InquiryDetail from './InquiryDetail';

const text = messages.contactHistory;
const STATUSES = ['open', 'answered', 'closed', 'all'] as const;

type State = { state: 'loading' } | { state: 'error' } | { state: 'ok'; items: InquiryItem[] };

/** The inquiry type labels of the master list, falling back to the raw code, or '-' when empty. */
function useCategoryLabel() {
  const [types, setTypes] = useState<MasterOption[]>([]);
  useEffect(() => {
    getMasterOptions('inquiry_type').then(setTypes, () => setTypes([]));
  }, []);
  return (code: string) => (code ? (types.find((t) => t.value === code)?.label ?? code) : text.dash);
}

export default function ContactHistoryScreen() {
  const { id } = useParams();
  const categoryLabel = useCategoryLabel();
  return id ? <InquiryDetail id={id} categoryLabel={categoryLabel} /> : <InquiryList categoryLabel={categoryLabel} />;
}

function InquiryList({ categoryLabel }: { categoryLabel: (code: string) => string }) {
  const [params, setParams] = useSearchParams();
  const status = STATUSES.includes(params.get('status') as (typeof STATUSES)[number]) ? (params.get('status') as string) : 'open';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const [list, setList] = useState<State>({ state: 'loading' });

  useEffect(() => {
    setList({ state: 'loading' });
    getInquiries(page, status).then(
      (items) => setList({ state: 'ok', items: Array.isArray(items) ? items : [] }),
      (failure) => {
        console.error('inquiry history failed', failure);
        setList({ state: 'error' });
      },
    );
  }, [page, status]);

  const go = (next: { status?: string; page?: number }) =>
    setParams({ status: next.status ?? status, page: String(next.page ?? 1) });

  return (
    <section className="card">
      <p className="lead">{text.lead}</p>
      <div className="tabs" role="group" aria-label={text.filterLabel}>
        {STATUSES.map((s) => (
          <button key={s} type="button" className={s === status ? 'tab tab--active' : 'tab'} aria-pressed={s === status} onClick={() => go({ status: s })}>
            {text.statuses[s]}
          </button>
        ))}
      </div>
      {list.state === 'loading' && (
        <div className="spinner" role="status" aria-label={text.loading}>
          <span className="spinner__circle" aria-hidden="true" />
        </div>
      )}
      {list.state === 'error' && (
        <p className="notice notice--error" role="alert">
          {text.failed}
        </p>
      )}
      {list.state === 'ok' && list.items.length === 0 && <p className="empty">{text.empty}</p>}
      {list.state === 'ok' && list.items.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{text.receivedAt}</th>
              <th scope="col">{text.category}</th>
              <th scope="col">{text.content}</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((item) => (
              <tr key={item.id}>
                <td className="table__date">{formatDateTime(item.created_at)}</td>
                <td>
                  <span className={item.category ? 'pill' : 'pill pill--empty'}>{categoryLabel(item.category)}</span>
                </td>
                <td>
                  <Link
                    className="inquiry-link"
                    to={{ pathname: `${paths.contactHistory}/${encodeURIComponent(item.id)}`, search: `?status=${status}&page=${page}` }}
                  >
                    {item.ticket_no && <span className="badge badge--ticket">{item.ticket_no}</span>} {item.subject}
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.state === 'ok' && (page > 1 || list.items.length === CONTACT_PAGE_SIZE) && (
        <nav className="pager" aria-label={format(text.page, { page })}>
          <button type="button" className="button" disabled={page <= 1} onClick={() => go({ page: page - 1 })}>
            {text.previous}
          </button>
          <span>{format(text.page, { page })}</span>
          <button type="button" className="button" disabled={list.items.length < CONTACT_PAGE_SIZE} onClick={() => go({ page: page + 1 })}>
            {text.next}
          </button>
        </nav>
      )}
      <div className="links">
        <Link to={paths.contact}>{text.newInquiry}</Link>
      </div>
    </section>
  );
}
