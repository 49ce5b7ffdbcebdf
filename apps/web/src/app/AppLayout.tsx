import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { AppHeader } from './AppHeader';
import { PAGE_COLUMN } from './page-column';
import { useProductContent } from './product-content';

function SupportLine({ support }: { support: string }) {
  const isEmail = /^[^\s@]+@[^\s@]+$/.test(support);
  return (
    <Typography variant="body2" color="text.secondary" align="center">
      Need help? Contact {isEmail ? <Link href={`mailto:${support}`}>{support}</Link> : support}
    </Typography>
  );
}

/** Header, the page, and a small footer with the business's support contact. */
export function AppLayout({ children }: { children: ReactNode }) {
  const { support } = useProductContent();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <AppHeader />
      {/* Container's layout (maxWidth "sm", its gutters) from Box: see PAGE_COLUMN. */}
      <Box component="main" sx={{ ...PAGE_COLUMN, flex: 1, py: { xs: 3, sm: 5 } }}>
        {children}
      </Box>
      <Box component="footer" sx={{ py: 3, px: 2, display: 'grid', gap: 1 }}>
        {support && <SupportLine support={support} />}
        <Typography variant="body2" align="center">
          {/* The console is another app: a full page load. */}
          <Link href="/console/login" color="text.secondary">
            Staff sign-in
          </Link>
        </Typography>
      </Box>
    </Box>
  );
}
