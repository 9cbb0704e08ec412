import { Link } from 'react-router-dom';
import messages from '../../messages/ja.json';

export default function ComingSoon() {
  return (
    <section className="card">
      <p>{messages.app.comingSoon}</p>
      <p>
        <Link to="/mypage">{messages.app.backToTop}</Link>
      </p>
    </section>
  );
}
