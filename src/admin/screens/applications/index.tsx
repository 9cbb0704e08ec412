// Applications: the list (status, search, pages) and, at applications/:registerNumber, one in full.
import { Link, useParams, useSearchParams } from 'react-router-dom';
import text from '../../../../messages/admin.ja.json';
import type { ApplicationItem, Page } from '../../../shared/admin-api';
import { adminCall } from '../../api';
import { pageSizeOf } from '../../catalogue';
import { formatDateTime, label } from '../../format';
import { Failure, Loading, Pager, useLoad } from '../../ui';
import { ApplicationDetail } from './ApplicationDetail';

const SIZE = pageSizeOf('applications');
const STATUSES = ['pending', 'approved', 'declined', ''] as const;

export default function ApplicationsScreen() {
  const { registerNumber } = useParams();
  return registerNumber ? <ApplicationDetail registerNumber={registerNumber} /> : <ApplicationList />;
}

function ApplicationList() {
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? 'pending';
  const q = params.get('q') ?? '';
  const page = Number(params.get('page') ?? 1) || 1;
  const list = useLoad(() => adminCall<Page<ApplicationItem>>('get', '/applications', { query: { status: status || undefined, q, page, size: SIZE } }), `${status}|${q}|${page}`);
  const set = (changes: Record<string, string>) => setParams((old) => ({ ...Object.fromEntries(old), page: '1', ...changes }));
  return (
    <>
      <form
        className="filters"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          set({ q: String(new FormData(event.currentTarget).get('q') ?? '').trim() });
        }}
      >
        <label>
          {text.applications.status}
          <select value={status} onChange={(event) => set({ status: event.target.value })}>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s ? label('applicationStatus', s) : text.common.all}
              </option>
            ))}
          </select>
        </label>
        <label>
          {text.applications.search}
          <input name="q" type="search" defaultValue={q} placeholder={text.applications.searchPlaceholder} />
        </label>
        <button type="submit" className="button">
          {text.common.search}
        </button>
      </form>
      {list.loading && <Loading />}
      <Failure message={list.error} />
      {list.data && (
        <>
          {list.data.items.length === 0 ? (
            <p>{text.common.empty}</p>
          ) : (
            <table className="table">
              <caption className="visually-hidden">{text.applications.caption}</caption>
              <thead>
                <tr>
                  <th scope="col">{text.fields.registerNumber}</th>
                  <th scope="col">{text.fields.name}</th>
                  <th scope="col">{text.fields.email}</th>
                  <th scope="col">{text.fields.appliedAt}</th>
                  <th scope="col">{text.fields.status}</th>
                  <th scope="col">{text.fields.decidedAt}</th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((row) => (
                  <tr key={row.register_number}>
                    <td>
                      <Link to={`/applications/${encodeURIComponent(row.register_number)}`}>{row.register_number}</Link>
                    </td>
                    <td>{row.name}</td>
                    <td>{row.email}</td>
                    <td>{formatDateTime(row.applied_at)}</td>
                    <td>
                      {label('applicationStatus', row.status)}
                      {row.member_status === 'withdrawn' && <span className="tag">{label('memberStatus', 'withdrawn')}</span>}
                    </td>
                    <td>{formatDateTime(row.decided_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <Pager page={page} size={SIZE} total={list.data.total} onPage={(p) => set({ page: String(p) })} />
        </>
      )}
    </>
  );
}
