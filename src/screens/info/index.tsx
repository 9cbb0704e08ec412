// Member info view: the address, then the member record as the edit form's schema and UI schema
// say (src/shared/member-view.ts: labels, option labels, a dash for empty values).
import { Link } from '../../app/Link';
import messages from '../../../messages/ja.json';
import { useProfileData } from '../../app/use-profile-data';
import { formatDate } from '../../shared/format-date';
import { paths } from '../../app/paths.generated';
import { mastersOf } from '../../shared/validation/conditions';
import { memberView } from '../../shared/member-view';
// The edit form's schema and UI schema alone: this screen shows the record, it renders no form.
import * as editForm from 'virtual:form-data/edit-profile';

const text = messages.info;
const dash = (value: string | undefined) => (value && value.trim() ? value : messages.common.dash);
// The lists the edit form's schema names.
const MASTERS = mastersOf(editForm.schema);

export default function InfoScreen() {
  const data = useProfileData(MASTERS);
  if (data.state === 'loading') return <p className="loading">{text.loading}</p>;
  if (data.state === 'error')
    return (
      <p className="notice notice--error" role="alert">
        {text.failed}
      </p>
    );
  const { user, masters } = data;
  const rows: Array<[string, string, React.ReactNode?]> = [
    [text.email, user.email, <Link key="change" className="button button--small" to={paths.emailChange}>{text.changeEmail}</Link>],
    ...memberView([editForm], user, { masters, texts: text, formatDate }).map(({ label, value }): [string, string] => [label, value]),
  ];
  return (
    <section className="card">
      <dl className="details details--wide">
        {rows.map(([label, value, action], index) => (
          <div className="details__row" key={index}>
            <dt>{label}</dt>
            <dd>
              {dash(value)}
              {action}
            </dd>
          </div>
        ))}
      </dl>
      <div className="actions">
        <Link className="button" to={paths.mypage}>
          {text.cancel}
        </Link>
        <Link className="button button--primary" to={paths.edit}>
          {text.edit}
        </Link>
      </div>
    </section>
  );
}
