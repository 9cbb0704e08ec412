// A catalogue route whose screen is not built yet. A member is offered my page; a visitor, who
// has no my page, the login page.
import { Link } from 'react-router-dom';
import messages from '../../messages/ja.json';
import { token } from '../api/session';
import { paths } from './paths.generated';

export default function ComingSoon() {
  const member = !!token();
  return (
    <section className="card">
      <p>{messages.app.comingSoon}</p>
      <p>
        <Link to={member ? paths.mypage : paths.login}>{member ? messages.app.backToTop : messages.app.toLogin}</Link>
      </p>
    </section>
  );
}
