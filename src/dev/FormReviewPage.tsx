// Development only (`npm run dev`; the router leaves it out of production builds): every form
// of the catalogue rendered with the real engine and widgets, for product owners to review a
// schema edit after a reload. Buttons fill sample data derived from the schema, show every
// error at once, and ask the server for its verdict on the current data.
import { Link, useParams } from 'react-router-dom';
import { forms } from 'virtual:form-index';
import texts from '../../messages/form-review.ja.json';
import { basePath, routes } from '../app/catalogue';
import { format } from '../shared/format';
import { FormReviewPanel } from './FormReviewPanel';
import './form-review.css';

export function FormReviewPage() {
  const { form } = useParams();
  const listed = new Set(routes.flatMap((route) => route.forms));
  const unlisted = Object.keys(forms).filter((name) => !listed.has(name));
  const link = (name: string) => (
    <li key={name}>
      <Link to={`/_forms/${name}`} aria-current={name === form ? 'page' : undefined}>
        {name}
      </Link>
    </li>
  );
  return (
    <div className="form-review">
      <h1 className="page__title">{texts.title}</h1>
      <p className="notice notice--info">{texts.intro}</p>
      {/* Folded once a form is open, so the form sits near the top. */}
      <details className="form-review__list" open={!form}>
        <summary>{texts.listHeading}</summary>
        <nav aria-label={texts.listHeading}>
        <ul className="form-review__screens">
          {routes
            .filter((route) => route.forms.length > 0)
            .map((route) => (
              <li key={route.path}>
                {format(texts.screen, { title: route.title, path: `${basePath}/${route.path}` })}
                <ul>{route.forms.map(link)}</ul>
              </li>
            ))}
          {unlisted.length > 0 && (
            <li>
              {texts.unlisted}
              <ul>{unlisted.map(link)}</ul>
            </li>
          )}
        </ul>
        </nav>
      </details>
      {form && forms[form] ? <FormReviewPanel key={form} name={form} /> : <p>{texts.choose}</p>}
    </div>
  );
}

export default FormReviewPage;
