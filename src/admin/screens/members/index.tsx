// Members: the list (schemas/records/members.json: browsable newest first, by status, prefecture,
// registration day, mail consent, a search), one member in full (the API records the view), and
// at members/export the CSV of the members the list's filters give (without any, the active
// members who agreed to mail), with the columns chosen from the record's fields.
import { useState } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'react-router-dom';
import * as exportForm from 'virtual:form/admin-member-export';
import text from '../../../../messages/admin.ja.json';
import { SchemaForm } from '../../../engine/SchemaForm';
import type { ExportColumn, MemberDetail, MemberItem } from '../../../shared/admin-api';
import { adminCall, adminDownload } from '../../api';
import { format } from '../../../shared/format';
import { formatDateTime, label } from '../../format';
import { datedFileName, saveFile } from '../../../app/save-file';
import { Done, Facts, Failure, Loading, failureText, useDraft, useLoad } from '../../ui';
import { filterQuery, messageAt, optionLabel, paramsOf, RECORD_KINDS } from '../../records/kinds';
import { RecordFilters, RecordList, urlOf } from '../../records/RecordList';

export default function MembersScreen() {
  const { id } = useParams();
  const { pathname } = useLocation();
  if (/\/members\/export\/?$/.test(pathname)) return <MemberExport />;
  return id ? <Member id={id} /> : <MemberList />;
}

/** The members' list, newest first without a search; the export link takes its filters along. */
function MemberList() {
  const [params] = useSearchParams();
  const exported = new URLSearchParams(filterQueryOf(params));
  return (
    <>
      <p>
        <Link to={`/members/export${exported.size ? `?${exported}` : ''}`}>{text.members.toExport}</Link>
      </p>
      <p className="muted">{text.members.recorded}</p>
      <RecordList<MemberItem> kind={KIND} />
    </>
  );
}

const KIND = RECORD_KINDS.members;
/** The export takes the list's filters but the search. */
const EXPORT_FILTERS = KIND.filters.filter((f) => f.type !== 'search');
const filterQueryOf = (params: URLSearchParams) => filterQuery(KIND, params, EXPORT_FILTERS);

/** Which members the file will hold, in words: the filters set, or the export's default. */
function exportScope(query: Record<string, string>): string {
  const parts = EXPORT_FILTERS.flatMap((filter) => {
    const values = paramsOf(filter).map((param) => query[param] ?? '');
    if (values.every((v) => !v)) return [];
    const value =
      filter.type === 'period'
        ? format(text.records.periodValue, { from: values[0] ?? '', to: values[1] ?? '' })
        : filter.type === 'flag'
          ? text.records.mailAgreed
          : optionLabel(filter.labels, values[0]!);
    return [format(text.audit.detailPair, { label: messageAt(filter.label), value })];
  });
  return parts.length ? parts.join(text.audit.listSeparator) : text.records.exportDefault;
}

function Member({ id }: { id: string }) {
  const path = `/members/${encodeURIComponent(id)}`;
  const detail = useLoad(() => adminCall<MemberDetail>('get', path), path);
  if (detail.loading && !detail.data) return <Loading />;
  if (!detail.data) return <Failure message={detail.error} />;
  const { member, applications, inquiries, notices, disclosures, requests } = detail.data;
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
      <section className="card">
        <h2>{text.members.disclosures}</h2>
        <p>{text.members.disclosuresNote}</p>
        {disclosures.length === 0 ? (
          <p>{text.common.none}</p>
        ) : (
          <ul>
            {disclosures.map((d) => (
              <li key={d.id}>{d.format ? format(text.common.noted, { text: formatDateTime(d.at), note: d.format.toUpperCase() }) : formatDateTime(d.at)}</li>
            ))}
          </ul>
        )}
      </section>
      <section className="card">
        <h2>{text.members.requests}</h2>
        <p>{text.members.requestsNote}</p>
        {requests.length === 0 ? (
          <p>{text.members.noRequests}</p>
        ) : (
          <ul>
            {requests.map((r) => (
              <li key={r.id}>
                <Link to={`/requests/${encodeURIComponent(r.id)}`}>{format(text.common.noted, { text: label('requestKind', r.kind), note: formatDateTime(r.created_at) })}</Link> {format(text.requests.due, { at: formatDateTime(r.due_at) })}
                {r.overdue && <span className="tag tag--alert">{label('overdue', 'true')}</span>}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function MemberExport() {
  const [params, setParams] = useSearchParams();
  const filters = filterQueryOf(params);
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
      const { blob, fileName } = await adminDownload('/members/export.csv', { ...filters, columns: chosen.join(',') });
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
      <section className="card" aria-labelledby="export-filters">
        <h2 id="export-filters">{text.records.exportFilters}</h2>
        <RecordFilters kind={KIND} filters={EXPORT_FILTERS} onApply={(changes) => setParams((old) => urlOf(KIND, { ...Object.fromEntries(old), ...changes }), { replace: true })} />
        <p className="export-scope" role="status">
          {format(text.records.exportScope, { scope: exportScope(filters) })}
        </p>
      </section>
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
