// Inquiries: the list by status and, at inquiries/:id, the thread: the question, the answers,
// the mails sent; answer (with the mail's preview), correct a sent answer, assign, mark done.
import { Link, useParams, useSearchParams } from 'react-router-dom';
import text from '../../../../messages/admin.ja.json';
import type { InquiryItem, Page } from '../../../shared/admin-api';
import { adminCall } from '../../api';
import { pageSizeOf } from '../../catalogue';
import { formatDateTime, label } from '../../format';
import { Failure, Loading, Pager, useLoad } from '../../ui';
import { InquiryThread } from './InquiryThread';

const SIZE = pageSizeOf('inquiries');
const STATUSES = ['open', 'answered', 'closed', ''] as const;

export default function InquiriesScreen() {
  const { id } = useParams();
  return id ? <InquiryThread id={id} /> : <InquiryList />;
}

function InquiryList() {
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? 'open';
  const page = Number(params.get('page') ?? 1) || 1;
  const list = useLoad(() => adminCall<Page<InquiryItem>>('get', '/inquiries', { query: { status: status || undefined, page, size: SIZE } }), `${status}|${page}`);
  return (
    <>
      <div className="filters">
        <label>
          {text.inquiries.status}
          <select value={status} onChange={(event) => setParams({ status: event.target.value, page: '1' })}>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s ? label('inquiryStatus', s) : text.common.all}
              </option>
            ))}
          </select>
        </label>
      </div>
      {list.loading && <Loading />}
      <Failure message={list.error} />
      {list.data && (
        <>
          {list.data.items.length === 0 ? (
            <p>{text.common.empty}</p>
          ) : (
            <table className="table">
              <caption className="visually-hidden">{text.inquiries.caption}</caption>
              <thead>
                <tr>
                  <th scope="col">{text.fields.ticket}</th>
                  <th scope="col">{text.fields.createdAt}</th>
                  <th scope="col">{text.fields.name}</th>
                  <th scope="col">{text.fields.inquiryType}</th>
                  <th scope="col">{text.fields.status}</th>
                  <th scope="col">{text.fields.assignedTo}</th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((row) => (
                  <tr key={row.id}>
                    <td>
                      <Link to={`/inquiries/${encodeURIComponent(row.id)}`}>{row.ticket_no}</Link>
                    </td>
                    <td>{formatDateTime(row.created_at)}</td>
                    <td>
                      {row.name}
                      <br />
                      <span className="muted">{row.email}</span>
                    </td>
                    <td>{row.inquiry_type_label}</td>
                    <td>{label('inquiryStatus', row.status)}</td>
                    <td>{row.assigned_to?.name ?? text.inquiries.unassigned}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <Pager page={page} size={SIZE} total={list.data.total} onPage={(p) => setParams({ status, page: String(p) })} />
        </>
      )}
    </>
  );
}
