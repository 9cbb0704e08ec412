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

/** `level` is the heading level of the document's title, one below the heading it sits under. */
export function LegalDocument({ text, id, onReadToEnd, level = 3 }: { text: LegalText; id: string; onReadToEnd?: () => void; level?: 2 | 3 }) {
  const Title = `h${level}` as const;
  const Article = `h${level + 1}` as 'h3' | 'h4';
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
      <Title className="legal__title">{text.title}</Title>
      {text.preamble && <p>{text.preamble}</p>}
      {text.paragraphs?.map((p) => <p key={p}>{p}</p>)}
      {text.articles?.map((article) => (
        <section key={article.number} className="legal__article">
          <Article>{format(messages.legal.articleHeading, { number: article.number, heading: article.heading })}</Article>
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
