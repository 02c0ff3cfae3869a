/** Saves a file the browser received (a CSV export, a template, a document whose tab was blocked). */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Opens a PDF of the server in a new tab. The server wants the Bearer header, so the document is
 * fetched as a file and shown from an object URL. Call it inside the click: the tab is opened
 * before the first await, so the browser does not take it for a pop-up; where the tab is blocked
 * anyway, the file is saved instead. A failed load closes the tab and rethrows.
 */
export async function openPdfInNewTab(
  load: () => Promise<{ blob: Blob; fileName?: string | null }>,
  fallbackName: string,
): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const { blob, fileName } = await load();
    const pdf = blob.type === 'application/pdf' ? blob : new Blob([blob], { type: 'application/pdf' });
    if (tab) {
      const url = URL.createObjectURL(pdf);
      tab.location.href = url;
      window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } else {
      saveFile(pdf, fileName ?? fallbackName);
    }
  } catch (error) {
    tab?.close();
    throw error;
  }
}
