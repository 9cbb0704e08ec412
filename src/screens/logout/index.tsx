// Logout: the token and logged-in cookies go whatever the server answers; then the site top.
import { useEffect } from 'react';
import messages from '../../../messages/ja.json';
import { logout } from '../../api/user-auth';
import { endSession, token } from '../../api/session';
import { navigateTop } from '../../app/frame';
import { settings } from '../../api/settings';

export default function LogoutScreen() {
  useEffect(() => {
    const request = token() ? logout().catch((failure) => console.warn('logout call failed', failure)) : Promise.resolve();
    void request.finally(() => {
      endSession({ clearDrafts: true });
      navigateTop(settings().siteTopUrl);
    });
  }, []);
  return <p className="loading">{messages.logout.progress}</p>;
}
