import { useEffect } from 'react';

/** Sets the tab title to "<title> · Sinilill" (or just "Sinilill") while the page is shown. */
export function useDocumentTitle(title?: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Sinilill` : 'Sinilill';
  }, [title]);
}
