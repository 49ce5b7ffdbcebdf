import { useEffect } from 'react';
import { useClientConfig } from './client-config';
import { useProductContent } from './product-content';

/** Sets document.title to "<page> · <business or product name>". */
export function useDocumentTitle(page: string): void {
  const { productName } = useClientConfig();
  const { title } = useProductContent();
  const site = title ?? productName;
  useEffect(() => {
    document.title = `${page} · ${site}`;
  }, [page, site]);
}
