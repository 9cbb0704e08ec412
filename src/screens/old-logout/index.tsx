// The earlier generation's logout: the server session is ended, the token and the logged-in
// cookies go whatever the server answers, then the login page (the earlier version's target).
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import messages from '../../../messages/ja.json';
import { paths } from '../../app/paths.generated';
import { logout } from '../../api/user-auth';
import { endSession, token } from '../../api/session';

export default function OldLogoutScreen() {
  const navigate = useNavigate();
  useEffect(() => {
    const request = token() ? logout().catch((failure) => console.warn('logout call failed', failure)) : Promise.resolve();
    void request.finally(() => {
      endSession({ clearDrafts: true });
      navigate(paths.login, { replace: true });
    });
  }, [navigate]);
  return <p className="loading">{messages.logout.progress}</p>;
}
