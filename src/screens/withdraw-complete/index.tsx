import messages from '../../../messages/ja.json';
import { navigateTop } from '../../app/frame';
import { settings } from '../../api/settings';

const text = messages.withdraw;

export default function WithdrawCompleteScreen() {
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
