// Members: search, one member in full (the API records the view), and at members/export the
// CSV of members who agreed to mail, with the columns chosen from the record's fields.
import { useState } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'react-router-dom';
import * as exportForm from 'virtual:form/admin-member-export';
import text from '../../../../messages/admin.ja.json';
import { SchemaForm } from '../../../engine/SchemaForm';
import type { ExportColumn, MemberDetail, MemberItem, Page } from '../../../shared/admin-api';
import { adminCall, adminDownload } from '../../api';
import { pageSizeOf } from '../../catalogue';
import { format } from '../../../shared/format';
import { formatDateTime, label } from '../../format';
import { datedFileName, saveFile } from '../../save-file';
import { Done, Facts, Failure, Loading, Pager, failureText, useDraft, useLoad } from '../../ui';

const SIZE = pageSizeOf('members');

export default function MembersScreen() {
  const { id } = useParams();
  const { pathname } = useLocation();
  if (/\/members\/export\/?$/.test(pathname)) return <MemberExport />;
  return id ? <Member id={id} /> : <MemberSearch />;
}

function MemberSearch() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const page = Number(params.get('page') ?? 1) || 1;
  // Each search is recorded (members.search): none runs before the operator asks.
  const list = useLoad(() => (q ? adminCall<Page<MemberItem>>('get', '/members', { query: { q, page, size: SIZE } }) : Promise.resolve(undefined)), `${q}|${page}`);
  return (
    <>
      <p>
        <Link to="/members/export">{text.members.toExport}</Link>
      </p>
      <form
        className="filters"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setParams({ q: String(new FormData(event.currentTarget).get('q') ?? '').trim(), page: '1' });
        }}
      >
        <label>
          {text.members.search}
          <input name="q" type="search" defaultValue={q} placeholder={text.members.searchPlaceholder} />
        </label>
        <button type="submit" className="button">
          {text.common.search}
        </button>
      </form>
      <p className="muted">{text.members.recorded}</p>
      {list.loading && q && <Loading />}
      <Failure message={list.error} />
      {list.data && (
        <>
          {list.data.items.length === 0 ? (
            <p>{text.common.empty}</p>
          ) : (
            <table className="table">
              <caption className="visually-hidden">{text.members.caption}</caption>
              <thead>
                <tr>
                  <th scope="col">{text.fields.registerNumber}</th>
                  <th scope="col">{text.fields.name}</th>
                  <th scope="col">{text.fields.email}</th>
                  <th scope="col">{text.fields.memberStatus}</th>
                  <th scope="col">{text.fields.registeredAt}</th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((row) => (
                  <tr key={row.id}>
                    <td>{row.register_number ?? ''}</td>
                    <td>
                      <Link to={`/members/${encodeURIComponent(row.id)}`}>{row.name}</Link>
                    </td>
                    <td>{row.email}</td>
                    <td>{label('memberStatus', row.status)}</td>
                    <td>{formatDateTime(row.registered_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <Pager page={page} size={SIZE} total={list.data.total} onPage={(p) => setParams({ q, page: String(p) })} />
        </>
      )}
    </>
  );
}

function Member({ id }: { id: string }) {
  const path = `/members/${encodeURIComponent(id)}`;
  const detail = useLoad(() => adminCall<MemberDetail>('get', path), path);
  if (detail.loading && !detail.data) return <Loading />;
  if (!detail.data) return <Failure message={detail.error} />;
  const { member, applications, inquiries, notices } = detail.data;
  return (
    <>
      <p>
        <Link to="/members">{text.members.backToSearch}</Link>
      </p>
      <section className="card">
        <h2>{text.members.record}</h2>
        <Facts rows={[[text.fields.email, member.email], [text.fields.memberStatus, label('memberStatus', member.status)], ...member.fields.map((f): [string, string] => [f.label, f.display])]} />
      </section>
      <section className="card">
        <h2>{text.members.applications}</h2>
        {applications.length === 0 ? (
          <p>{text.common.none}</p>
        ) : (
          <ul>
            {applications.map((a) => (
              <li key={a.register_number}>
                <Link to={`/applications/${encodeURIComponent(a.register_number)}`}>{a.register_number}</Link> {format(text.common.noted, { text: label('applicationStatus', a.status), note: formatDateTime(a.applied_at) })}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card">
        <h2>{text.members.inquiries}</h2>
        {inquiries.length === 0 ? (
          <p>{text.common.none}</p>
        ) : (
          <ul>
            {inquiries.map((i) => (
              <li key={i.id}>
                <Link to={`/inquiries/${encodeURIComponent(i.id)}`}>{i.ticket_no}</Link> {format(text.common.noted, { text: label('inquiryStatus', i.status), note: formatDateTime(i.created_at) })}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card">
        <h2>{text.members.notices}</h2>
        {notices.length === 0 ? (
          <p>{text.common.none}</p>
        ) : (
          <ul className="notices">
            {notices.map((n) => (
              <li key={n.id}>
                <span className="notices__date">
                  {formatDateTime(n.publish_at)} {label('noticeStatus', n.status)}
                </span>
                <p className="notices__message">{n.message}</p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function MemberExport() {
  const columns = useLoad(() => adminCall<ExportColumn[]>('get', '/members/export-columns'), 'columns');
  const draft = useDraft<{ columns: string[] }>('member-export');
  const [started, setStarted] = useState<string>();
  const [failed, setFailed] = useState<string>();
  const [busy, setBusy] = useState(false);
  // Fetched through the API client rather than a link: a session that ended takes the operator
  // to log in (the choice kept in the draft), and no error answer is saved as the CSV.
  const download = async (chosen: string[]) => {
    setBusy(true);
    setStarted(undefined);
    setFailed(undefined);
    try {
      const { blob, fileName } = await adminDownload('/members/export.csv', { columns: chosen.join(',') });
      saveFile(blob, fileName ?? datedFileName('members', 'csv'));
      setStarted(text.members.exportStarted);
    } catch (failure) {
      setFailed(failureText(failure));
    } finally {
      setBusy(false);
    }
  };
  if (columns.loading) return <Loading />;
  if (!columns.data) return <Failure message={columns.error} />;
  return (
    <>
      <p>
        <Link to="/members">{text.members.backToSearch}</Link>
      </p>
      <p className="lead">{text.members.exportLead}</p>
      <Done message={started} />
      <Failure message={failed} />
      <section className="card">
        <SchemaForm
          id="adminMemberExportForm"
          form={exportForm}
          formData={draft.data}
          onChange={draft.change}
          masters={{ memberExportColumns: columns.data.map((c) => ({ value: c.name, label: c.label })) }}
          busy={busy}
          onSubmit={(value: { columns: string[] }) => void download(value.columns)}
        />
      </section>
    </>
  );
}
