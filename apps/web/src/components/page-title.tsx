import { useEffect } from 'react';
import { pageTitle, setDocumentTitle } from '../lib/document-title';

/** Sets the tab title to 'Odontia | <title>'; renders nothing. */
export function PageTitle({ title }: { title?: string | null }) {
  useEffect(() => {
    setDocumentTitle(pageTitle(title));
  }, [title]);
  return null;
}
