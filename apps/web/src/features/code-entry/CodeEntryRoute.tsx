import { useSearchParams } from 'wouter';
import { CodeEntryPage } from './CodeEntryPage';

/**
 * Code entry for `/`, `/login`, `/medibrief`, `/:unicode` (`pathCode`) and `?unicode=X`. A code
 * in the address pre-fills the field and is checked at once; `?unicode=` wins over the path.
 * The key gives each address its own page state, so a new code in the address is checked again.
 */
export function CodeEntryRoute({ pathCode }: { pathCode: string | null }) {
  const [search] = useSearchParams();
  const queryCode = search.get('unicode');
  const addressCode = queryCode != null && queryCode !== '' ? queryCode : pathCode;
  return <CodeEntryPage key={addressCode ?? ''} addressCode={addressCode} />;
}
