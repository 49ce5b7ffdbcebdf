import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, Outlet } from 'react-router';
import { AppHeader } from './AppHeader';
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
export function AppLayout() {
  const { support } = useProductContent();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <AppHeader />
      <Container component="main" maxWidth="sm" sx={{ flex: 1, py: { xs: 3, sm: 5 } }}>
        <Outlet />
      </Container>
      <Box component="footer" sx={{ py: 3, px: 2, display: 'grid', gap: 1 }}>
        {support && <SupportLine support={support} />}
        <Typography variant="body2" align="center">
          <Link component={RouterLink} to="/console/login" color="text.secondary">
            Staff sign-in
          </Link>
        </Typography>
      </Box>
    </Box>
  );
}
