// The audit log (admin): every operator action and every view or export of personal data,
// newest first, with filters by action, operator, member and period.
import { useSearchParams } from 'react-router-dom';
import text from '../../../../messages/admin.ja.json';
import type { AuditItem, Page } from '../../../shared/admin-api';
import { adminCall } from '../../api';
import { pageSizeOf } from '../../catalogue';
import { auditDetailLines, formatDateTime, japanLocalToIso, label } from '../../format';
import { Failure, Loading, Pager, useLoad } from '../../ui';

const SIZE = pageSizeOf('audit');
const FILTERS = ['action', 'operator', 'member', 'from', 'to'] as const;

export default function AuditScreen() {
  const [params, setParams] = useSearchParams();
  const page = Number(params.get('page') ?? 1) || 1;
  const filter = Object.fromEntries(FILTERS.map((name) => [name, params.get(name) ?? '']));
  const query = { ...filter, from: japanLocalToIso(filter.from), to: japanLocalToIso(filter.to), page, size: SIZE };
  const list = useLoad(() => adminCall<Page<AuditItem>>('get', '/audit', { query }), params.toString());
  return (
    <>
      <form
        className="filters"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          setParams({ ...Object.fromEntries(FILTERS.map((name) => [name, String(form.get(name) ?? '').trim()]).filter(([, v]) => v)), page: '1' });
        }}
      >
        <label>
          {text.audit.action}
          <select name="action" defaultValue={filter.action}>
            <option value="">{text.common.all}</option>
            {Object.entries(text.labels.actions).map(([value, name]) => (
              <option key={value} value={value}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {text.audit.operator}
          <input name="operator" defaultValue={filter.operator} />
        </label>
        <label>
          {text.audit.member}
          <input name="member" defaultValue={filter.member} />
        </label>
        <label>
          {text.audit.from}
          <input name="from" type="datetime-local" defaultValue={filter.from} />
        </label>
        <label>
          {text.audit.to}
          <input name="to" type="datetime-local" defaultValue={filter.to} />
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
            <table className="table table--dense">
              <caption className="visually-hidden">{text.audit.caption}</caption>
              <thead>
                <tr>
                  <th scope="col">{text.fields.at}</th>
                  <th scope="col">{text.fields.operator}</th>
                  <th scope="col">{text.audit.action}</th>
                  <th scope="col">{text.audit.member}</th>
                  <th scope="col">{text.audit.target}</th>
                  <th scope="col">{text.audit.detail}</th>
                  <th scope="col">{text.audit.ip}</th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((row, i) => (
                  <tr key={i}>
                    <td>{formatDateTime(row.at)}</td>
                    <td>
                      {row.actor_label}
                      <br />
                      <span className="muted">{label('roles', row.actor_role)}</span>
                    </td>
                    <td>{label('actions', row.action)}</td>
                    <td>{row.member_name ?? row.member_id ?? ''}</td>
                    <td>{row.target ?? ''}</td>
                    <td>
                      <Detail action={row.action} detail={row.detail} />
                    </td>
                    <td>{row.ip ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <Pager page={page} size={SIZE} total={list.data.total} onPage={(p) => setParams({ ...Object.fromEntries(params), page: String(p) })} />
        </>
      )}
    </>
  );
}

/** The entry's detail as labelled lines (nothing when it has none). */
function Detail({ action, detail }: { action: string; detail: AuditItem['detail'] }) {
  const lines = auditDetailLines(action, detail);
  if (lines.length === 0) return null;
  return (
    <dl className="audit-detail">
      {lines.map((line) => (
        <div key={line.key}>
          <dt>{line.label}</dt>
          <dd>{line.value}</dd>
        </div>
      ))}
    </dl>
  );
}
