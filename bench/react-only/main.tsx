// The bench's anchor for a first load: the login screen's heading and fields rendered by React
// alone (react and react-dom; no router, no form engine, none of the app's code) with the app's
// stylesheet. Lighthouse measures it in the same run as the app's pages (bench/react-only.ts).
import { createRoot } from 'react-dom/client';
import '../../src/app/styles.css';

function Login() {
  return (
    <main className="page">
      <p className="page__site">二地域居住応援プログラム 会員サイト</p>
      <h1 className="page__title">ログイン</h1>
      <form className="card" onSubmit={(event) => event.preventDefault()}>
        <div className="field">
          <label className="field__label" htmlFor="email">
            メールアドレス
          </label>
          <input id="email" className="input" type="email" autoComplete="username" />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="password">
            パスワード
          </label>
          <input id="password" className="input" type="password" autoComplete="current-password" />
        </div>
        <button type="submit" className="button button--primary">
          ログイン
        </button>
      </form>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<Login />);
