// The audit log (admin): every operator action and every view or export of personal data,
// newest first (schemas/records/audit.json), with filters by action, operator, member and period.
import text from '../../../../messages/admin.ja.json';
import type { AuditItem } from '../../../shared/admin-api';
import { auditDetailLines, label } from '../../format';
import { RECORD_KINDS } from '../../records/kinds';
import { RecordList } from '../../records/RecordList';

export default function AuditScreen() {
  return (
    <RecordList<AuditItem>
      kind={RECORD_KINDS.audit}
      dense
      cells={{
        actor_label: (row) => (
          <>
            {row.actor_label}
            <br />
            <span className="muted">{label('roles', row.actor_role)}</span>
          </>
        ),
        member_name: (row) => row.member_name ?? row.member_id ?? '',
      }}
      extraColumns={[
        { header: text.audit.detail, cell: (row) => <Detail action={row.action} detail={row.detail} /> },
        { header: text.audit.ip, cell: (row) => row.ip ?? '' },
      ]}
    />
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
