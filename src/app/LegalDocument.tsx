import messages from '../../messages/ja.json';
import { format } from '../shared/format';

// A legal text from messages/ (terms of use, privacy notice), read-only in a scrollable box.
export interface LegalText {
  title: string;
  preamble?: string;
  articles?: Array<{ number: number; heading: string; paragraphs: string[] }>;
  paragraphs?: string[];
  supplementary?: string;
}

export function LegalDocument({ text, id, onReadToEnd }: { text: LegalText; id: string; onReadToEnd?: () => void }) {
  return (
    <div
      className="legal"
      id={id}
      tabIndex={0}
      role="document"
      aria-label={text.title}
      onScroll={(event) => {
        const box = event.currentTarget;
        if (box.scrollTop + box.clientHeight >= box.scrollHeight - 8) onReadToEnd?.();
      }}
    >
      <h3 className="legal__title">{text.title}</h3>
      {text.preamble && <p>{text.preamble}</p>}
      {text.paragraphs?.map((p) => <p key={p}>{p}</p>)}
      {text.articles?.map((article) => (
        <section key={article.number} className="legal__article">
          <h4>{format(messages.legal.articleHeading, { number: article.number, heading: article.heading })}</h4>
          {article.paragraphs.length === 1 ? (
            <p>{article.paragraphs[0]}</p>
          ) : (
            <ol>
              {article.paragraphs.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ol>
          )}
        </section>
      ))}
      {text.supplementary && <p className="legal__supplementary">{text.supplementary}</p>}
    </div>
  );
}
