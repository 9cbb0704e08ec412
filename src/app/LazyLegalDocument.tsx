// A legal text that loads when its box comes into the member's view, or when the screen says it
// is wanted (`now`: registration, once the address is verified and the terms can be agreed to),
// for one far down a page (the terms of use at the foot of the registration page): the page's
// first render does not carry it (ADR 029). Until then the box keeps its place and says it is
// loading. Inside the parent site's frame the observer watches the parent's view (the frame is as
// tall as the page).
import { useEffect, useRef, useState } from 'react';
import messages from '../../messages/ja.json';
import { LegalDocument, type LegalText } from './LegalDocument';

export function LazyLegalDocument({ id, load, now = false }: { id: string; load: () => Promise<{ default: LegalText }>; now?: boolean }) {
  const [text, setText] = useState<LegalText>();
  const [failed, setFailed] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let live = true;
    const start = () => {
      observer?.disconnect();
      load().then(
        (module) => live && setText(module.default),
        () => live && setFailed(true),
      );
    };
    const observer = !now && typeof IntersectionObserver === 'function' ? new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && start(), { rootMargin: '50% 0px' }) : undefined;
    if (observer) observer.observe(element);
    else start();
    return () => {
      live = false;
      observer?.disconnect();
    };
  }, [load, now]);
  if (text) return <LegalDocument id={id} text={text} />;
  return (
    <div ref={box} id={id} className="legal legal--loading">
      <p className="loading">{failed ? messages.app.chunkFailedUntitled : messages.app.loading}</p>
    </div>
  );
}
