// After withdrawal: the frame shows this under the withdrawal dialog (the login guard lets the
// navigation withdrawal makes through, ADR 009). A member whose session is still active has not
// withdrawn: my page instead.
import { Navigate } from 'react-router-dom';
import messages from '../../../messages/ja.json';
import { token } from '../../api/session';
import { paths } from '../../app/paths.generated';
import { navigateTop } from '../../app/frame';
import { settings } from '../../api/settings';

const text = messages.withdraw;

export default function WithdrawCompleteScreen() {
  if (token()) return <Navigate to={paths.mypage} replace />;
  return (
    <section className="card">
      <h2 className="card__title">{text.doneTitle}</h2>
      <p>{text.completeBody}</p>
      <button type="button" className="button button--primary" onClick={() => navigateTop(settings().siteTopUrl)}>
        {text.toTop}
      </button>
    </section>
  );
}
