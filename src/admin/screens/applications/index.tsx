// Applications: the list (schemas/records/applications.json: status, the day applied, a search,
// newest or oldest first) and, at applications/:registerNumber, one in full.
import { useParams } from 'react-router-dom';
import type { ApplicationItem } from '../../../shared/admin-api';
import { label } from '../../format';
import { RECORD_KINDS } from '../../records/kinds';
import { RecordList } from '../../records/RecordList';
import { ApplicationDetail } from './ApplicationDetail';

export default function ApplicationsScreen() {
  const { registerNumber } = useParams();
  return registerNumber ? <ApplicationDetail registerNumber={registerNumber} /> : <RecordList<ApplicationItem> kind={RECORD_KINDS.applications} cells={{ status: StatusCell }} />;
}

/** The application's status, and the member's withdrawal when they have left since. */
function StatusCell(row: ApplicationItem) {
  return (
    <>
      {label('applicationStatus', row.status)}
      {row.member_status === 'withdrawn' && <span className="tag">{label('memberStatus', 'withdrawn')}</span>}
    </>
  );
}
