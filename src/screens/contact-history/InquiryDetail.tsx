// One inquiry in full (contact_history/:id): the whole question, its status and dates, and the
// office's answer once the operator tool has given it. The way back keeps the list's tab and
// page, carried in this page's query (?status=&page=), so a reload or a shared link keeps it too.
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { Link } from '../../app/Link';
import messages from '../../../messages/ja.json';
import { ApiFailure } from '../../api/client';
import { getInquiry, type InquiryDetail as Inquiry } from '../../api/contact';
import { paths } from '../../app/paths.generated';
import { formatDateTime } from '../../shared/format-date';

const text = messages.contactHistory;

type State = { state: 'loading' } | { state: 'notFound' } | { state: 'error' } | { state: 'ok'; inquiry: Inquiry };

export default function InquiryDetail({ id, categoryLabel }: { id: string; categoryLabel: (code: string) => string }) {
  const { search } = useLocation();
  const [data, setData] = useState<State>({ state: 'loading' });

  useEffect(() => {
    setData({ state: 'loading' });
    getInquiry(id).then(
      (inquiry) => setData({ state: 'ok', inquiry }),
      (failure) => {
        if (failure instanceof ApiFailure && failure.status === 404) return setData({ state: 'notFound' });
        console.error('inquiry detail failed', failure);
        setData({ state: 'error' });
      },
    );
  }, [id]);

  const back = (
    <Link className="button" to={{ pathname: paths.contactHistory, search }}>
      {text.detail.back}
    </Link>
  );

  if (data.state === 'loading')
    return (
      <section className="card">
        <div className="spinner" role="status" aria-label={text.loading}>
          <span className="spinner__circle" aria-hidden="true" />
        </div>
      </section>
    );
  if (data.state !== 'ok')
    return (
      <section className="card">
        <p className="notice notice--error" role="alert">
          {data.state === 'notFound' ? text.detail.notFound : text.detail.failed}
        </p>
        <div className="actions">{back}</div>
      </section>
    );

  const { inquiry } = data;
  const answered = inquiry.answer !== null;
  return (
    <section className="card inquiry">
      <dl className="details">
        <div className="details__row">
          <dt>{text.detail.ticketNo}</dt>
          <dd>{inquiry.ticket_no}</dd>
        </div>
        <div className="details__row">
          <dt>{text.detail.receivedAt}</dt>
          <dd>{formatDateTime(inquiry.created_at)}</dd>
        </div>
        <div className="details__row">
          <dt>{text.detail.category}</dt>
          <dd>{categoryLabel(inquiry.category)}</dd>
        </div>
        <div className="details__row">
          <dt>{text.detail.status}</dt>
          <dd>{text.statuses[inquiry.status]}</dd>
        </div>
        <div className="details__row">
          <dt>{text.detail.updatedAt}</dt>
          <dd>{formatDateTime(inquiry.updated_at)}</dd>
        </div>
      </dl>
      <h2 className="form-section__title">{text.detail.question}</h2>
      <p className="inquiry__text">{inquiry.content}</p>
      <h2 className="form-section__title">{text.detail.answer}</h2>
      {answered ? (
        <p className="inquiry__text">{inquiry.answer}</p>
      ) : (
        <p className="empty">{inquiry.status === 'closed' ? text.detail.closedNoAnswer : text.detail.noAnswer}</p>
      )}
      <div className="actions">{back}</div>
    </section>
  );
}
