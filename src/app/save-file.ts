// Saving a file the API answered (the back office's CSV, a member's disclosure) as the browser's own download.

/** Hands `blob` to the browser as a download named `name`, through a temporary object URL. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked once the browser has read it: revoking at once can cancel the download in some
  // browsers (FileSaver.js waits 40 s too).
  setTimeout(() => URL.revokeObjectURL(url), 40_000);
}

/** members-20260401.csv: the fallback name when the server gives none, dated in Japan time. */
export function datedFileName(prefix: string, extension: string, at: Date = new Date()): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(at).replaceAll('-', '');
  return `${prefix}-${day}.${extension}`;
}
