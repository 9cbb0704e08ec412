// My page (shell): greeting and menu; the application and notices blocks come with the member
// area. The session-expired guard runs here.
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import messages from '../../../messages/ja.json';
import { getUserInfo, type UserInfo } from '../../api/user-info';
import { ApiFailure } from '../../api/client';
import { format } from '../../shared/format';
import { useSessionExpiry } from '../../app/use-session-expiry';

const text = messages.mypage;

export default function MypageScreen() {
  const [expired, expire] = useSessionExpiry();
  const [user, setUser] = useState<UserInfo | null>(null);
  const navigate = useNavigate();

  useEffect(() => {
    if (expired) return;
    getUserInfo()
      .then(setUser)
      .catch((failure) => {
        if (failure instanceof ApiFailure && failure.status === 401) expire();
        else console.error('user info failed', failure);
      });
  }, [expired, expire]);

  if (expired) {
    return (
      <section className="card notice notice--warning" role="alert">
        <h2>{text.sessionExpiredTitle}</h2>
        <p>{text.sessionExpiredBody}</p>
        <button type="button" className="button button--primary" onClick={() => navigate('/login')}>
          {text.toLogin}
        </button>
      </section>
    );
  }

  return (
    <section className="card">
      <p className="lead">
        {user ? format(text.welcomeName, { name: `${user.last_name_kanji} ${user.first_name_kanji}` }) : text.welcome}
      </p>
      <nav className="menu">
        <Link to="/logout">{text.logout}</Link>
      </nav>
    </section>
  );
}
