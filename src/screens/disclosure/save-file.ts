// Saving the downloaded disclosure as the browser's own download, through a temporary object URL.

/** disclosure-20261129.html: the name the server gives the file too, dated in Japan time. */
export function fileName(extension: string, at: Date = new Date()): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(at).replaceAll('-', '');
  return `disclosure-${day}.${extension}`;
}

export function saveFile(file: Blob, name: string): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked once the browser has read it: revoking at once can cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), 40_000);
}
