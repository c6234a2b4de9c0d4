/** A file the window hands to the operator: its suggested name, type and text (or bytes, for a PDF receipt). */
export interface FileToSave {
  fileName: string;
  mimeType: string;
  content: string | Uint8Array<ArrayBuffer>;
}

/**
 * Saves through the browser's download: in the web host the browser saves it;
 * in Electron the same <a download> of a blob opens the system save dialog
 * (electron/shell/hardening.ts allows downloads of our own blob: URLs only).
 */
export function saveFile({ fileName, mimeType, content }: FileToSave): void {
  const url = URL.createObjectURL(new Blob([content], { type: mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // Revoked after the click has been handled: the download has its own reference by then.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}
