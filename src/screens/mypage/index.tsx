// My page: the registration application, notices, and the member menu. When the session runs
// out, the app's session dialog says so and offers the way back to login (src/app/SessionDialog.tsx).
import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { Link } from '../../app/Link';
import messages from '../../../messages/ja.json';
import { getUserInfo, type UserInfo } from '../../api/user-info';
import { getApplications, getNotifications, type Application, type Notice } from '../../api/member';
import { format } from '../../shared/format';
import { formatDateTime } from '../../shared/format-date';
import { navigateTop } from '../../app/frame';
import { settings } from '../../api/settings';
import { paths } from '../../app/paths.generated';

const text = messages.mypage;
/** The catalogue's child page mypage/passkeys (docs/decisions/031), a chunk of its own. */
export const PASSKEYS_PATH = `${paths.mypage}/passkeys`;
const PasskeysPage = lazy(() => import('./PasskeysPage'));
type Loaded<T> = { state: 'loading' } | { state: 'ok'; value: T } | { state: 'error'; message: string };

/** Loads once when the screen opens. A dead session never reaches here: the API client ends it
 *  and the app takes the member to login, so a failure is a real failure to show. */
function useMemberData<T>(load: () => Promise<T>, failed: string): Loaded<T> {
  const [data, setData] = useState<Loaded<T>>({ state: 'loading' });
  useEffect(() => {
    let current = true;
    load().then(
      (value) => current && setData({ state: 'ok', value }),
      () => current && setData({ state: 'error', message: failed }),
    );
    return () => {
      current = false;
    };
  }, [load, failed]);
  return data;
}

function statusLabel(status: string): string {
  return (text.status as Record<string, string>)[status] ?? status;
}

export default function MypageScreen() {
  const { pathname } = useLocation();
  if (pathname.replace(/\/$/, '') === PASSKEYS_PATH) {
    return (
      <Suspense fallback={<p className="loading">{messages.app.loading}</p>}>
        <PasskeysPage />
      </Suspense>
    );
  }
  return <MypageHome />;
}

function MypageHome() {
  const user = useMemberData<UserInfo>(getUserInfo, messages.info.failed);
  const applications = useMemberData<Application[]>(getApplications, text.applicationFailed);
  const notices = useMemberData<Notice[]>(getNotifications, text.noticesFailed);

  const { monitorUrl, surveyUrl, siteTopUrl } = settings();
  return (
    <>
      <p className="lead">
        {user.state === 'ok' ? format(text.welcomeName, { name: `${user.value.last_name_kanji} ${user.value.first_name_kanji}` }) : text.welcome}
      </p>

      <section className="card" aria-labelledby="application-title">
        <h2 id="application-title" className="card__title">
          {text.applicationTitle}
        </h2>
        {applications.state === 'loading' && <p className="loading">{messages.app.loading}</p>}
        {applications.state === 'error' && <p className="notice notice--error">{applications.message}</p>}
        {applications.state === 'ok' && applications.value.length === 0 && <p>{text.applicationEmpty}</p>}
        {applications.state === 'ok' &&
          applications.value.map((application) => (
            <dl className="details" key={`${application.date}-${application.registerNumber ?? ''}`}>
              <dt>{text.applicationDate}</dt>
              <dd>{formatDateTime(application.date)}</dd>
              <dt>{text.applicationStatus}</dt>
              <dd>
                <span className={`status status--${application.status}`}>{statusLabel(application.status)}</span>
              </dd>
              <dt>{text.registerNumber}</dt>
              <dd>{application.registerNumber?.trim() ?? ''}</dd>
            </dl>
          ))}
      </section>

      <section className="card" aria-labelledby="notices-title">
        <h2 id="notices-title" className="card__title">
          {text.noticesTitle}
        </h2>
        {notices.state === 'loading' && <p className="loading">{messages.app.loading}</p>}
        {notices.state === 'error' && <p className="notice notice--error">{notices.message}</p>}
        {notices.state === 'ok' && notices.value.length === 0 && <p>{text.noticesEmpty}</p>}
        {notices.state === 'ok' && notices.value.length > 0 && (
          <ul className="notices">
            {notices.value.map((notice) => (
              <li key={notice.id}>
                <time className="notices__date" dateTime={notice.date}>
                  {formatDateTime(notice.date)}
                </time>
                <p className="notices__message">{notice.message}</p>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="card" aria-labelledby="menu-title">
        <h2 id="menu-title" className="card__title">
          {text.menuTitle}
        </h2>
        <a className="button button--secondary button--block" href={monitorUrl} target="_blank" rel="noopener noreferrer">
          {text.monitor}
          <span className="visually-hidden">{text.newTab}</span>
        </a>
        <p className="field__help">{text.monitorNote}</p>
        <nav className="menu" aria-label={text.menuTitle}>
          <Link to={paths.info}>{text.info}</Link>
          <a
            href={siteTopUrl}
            onClick={(event) => {
              event.preventDefault();
              navigateTop(siteTopUrl);
            }}
          >
            {text.top}
          </a>
          <a href={surveyUrl} target="_blank" rel="noopener noreferrer">
            {text.survey}
            <span className="visually-hidden">{text.newTab}</span>
          </a>
          <Link to={paths.contact}>{text.contact}</Link>
          <Link to={paths.contactHistory}>{text.contactHistory}</Link>
          <Link to={PASSKEYS_PATH}>{text.passkeys}</Link>
          <Link to={paths.disclosure}>{text.disclosure}</Link>
          <Link to={paths.withdraw}>{text.withdraw}</Link>
          <Link to={paths.logout}>{text.logout}</Link>
        </nav>
      </section>
    </>
  );
}
