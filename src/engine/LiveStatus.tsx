// A status message (WCAG 4.1.3): a notice that something happened ("the code was sent", "the
// address is verified"), shown where it applies and said politely by a screen reader as it
// appears. A region made with its words already in it is often not read, and one whose words
// come in the same render as a focus move is cut off by the focus being read. So the region goes
// in empty and its words follow SAY_AFTER_MS later, once the browser's accessibility tree has the
// empty region and focus has moved: then the focus is read and the status after it. Until then
// the words take their place unseen (no box that grows under the member's eyes).
import { useEffect, useState, type Ref } from 'react';

export const SAY_AFTER_MS = 150;

export interface LiveStatusProps {
  /** The status, one line each; none: the region waits, empty. */
  lines: readonly string[];
  className?: string;
  id?: string;
  ref?: Ref<HTMLParagraphElement>;
}

function Lines({ lines }: { lines: readonly string[] }) {
  return lines.map((line, index) => (
    <span key={index}>
      {index > 0 && <br />}
      {line}
    </span>
  ));
}

export function LiveStatus({ lines, className, id, ref }: LiveStatusProps) {
  const words = lines.join('\n');
  const [said, setSaid] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => setSaid(words), SAY_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, [words]);
  return (
    <p ref={ref} id={id} className={className} role="status">
      {said === words ? (
        <Lines lines={lines} />
      ) : (
        <span className="live-status__waiting" aria-hidden="true">
          <Lines lines={lines} />
        </span>
      )}
    </p>
  );
}
