// Inquiries: the list (schemas/records/inquiries.json: status, the day received) and, at
// inquiries/:id, the thread: the question, the answers, the mails sent; answer (with the mail's
// preview), correct a sent answer, assign, mark done.
import { useParams } from 'react-router-dom';
import text from '../../../../messages/admin.ja.json';
import type { InquiryItem } from '../../../shared/admin-api';
import { RECORD_KINDS } from '../../records/kinds';
import { RecordList } from '../../records/RecordList';
import { InquiryThread } from './InquiryThread';

export default function InquiriesScreen() {
  const { id } = useParams();
  return id ? (
    <InquiryThread id={id} />
  ) : (
    <RecordList<InquiryItem>
      kind={RECORD_KINDS.inquiries}
      cells={{
        name: (row) => (
          <>
            {row.name}
            <br />
            <span className="muted">{row.email}</span>
          </>
        ),
        assigned_to_name: (row) => row.assigned_to?.name ?? text.inquiries.unassigned,
      }}
    />
  );
}
