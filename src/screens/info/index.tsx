// Member info view: every saved field, labelled from the master lists; a dash for empty values.
import { Link } from 'react-router-dom';
import messages from '../../../messages/ja.json';
import { labelOf, useProfileData } from '../../app/use-profile-data';
import { formatDate } from '../../app/format-date';
import { format } from '../../shared/format';
import { paths } from '../../app/paths.generated';
import { choiceBringing, mastersOf } from '../../shared/validation/conditions';
import * as editForm from 'virtual:form/edit-profile';

const text = messages.info;
const dash = (value: string | undefined) => (value && value.trim() ? value : messages.common.dash);
// The lists and the "other" choices the edit form's schema names.
const MASTERS = mastersOf(editForm.schema);
const OTHER = choiceBringing(editForm.schema);

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
  const purposes = user.purpose
    .split(',')
    .filter(Boolean)
    .map((code) =>
      code === OTHER.purpose_other?.value && user.purpose_other
        ? format(text.withOther, { label: labelOf(masters.purpose, code), other: user.purpose_other })
        : labelOf(masters.purpose, code),
    );
  const industry =
    user.industry === OTHER.industry_other?.value && user.industry_other
      ? format(text.withOther, { label: labelOf(masters.industry, user.industry), other: user.industry_other })
      : labelOf(masters.industry, user.industry);
  const rows: Array<[string, string, React.ReactNode?]> = [
    [text.email, user.email, <Link key="change" className="button button--small" to={paths.emailChange}>{text.changeEmail}</Link>],
    [text.nameKanji, `${user.last_name_kanji} ${user.first_name_kanji}`.trim()],
    [text.nameAlpha, `${user.last_name_alpha} ${user.first_name_alpha}`.trim()],
    [text.birthday, formatDate(user.birthday)],
    [text.gender, (text.genders as Record<string, string>)[user.gender] ?? user.gender],
    [text.job, user.jobLabel ?? labelOf(masters.job, user.job)],
    [text.industry, industry],
    [text.zip, user.zip_current ? format(text.zipFormat, { zip: user.zip_current.replace(/^(\d{3})(\d{4})$/, '$1-$2') }) : ''],
    [text.address, user.address_current],
    [text.amc, user.amc],
    [text.phone, user.phone],
    [text.purpose, purposes.join(text.listSeparator)],
    [text.purposeDetail, user.purpose_detail],
    [text.mailOpt, labelOf(masters.mail_opt, user.mail_opt)],
  ];
  return (
    <section className="card">
      <dl className="details details--wide">
        {rows.map(([label, value, action]) => (
          <div className="details__row" key={label}>
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
