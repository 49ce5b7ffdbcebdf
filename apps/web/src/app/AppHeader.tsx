import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import RecordVoiceOverOutlined from '@mui/icons-material/RecordVoiceOverOutlined';
import { Link as RouterLink } from 'react-router';
import { useClientConfig } from './client-config';
import { useProductContent } from './product-content';

/** The product name (linking to code entry) and, when known and different, the business's name. */
export function AppHeader() {
  const { productName } = useClientConfig();
  const { title } = useProductContent();
  return (
    <AppBar position="static" component="header">
      <Toolbar sx={{ gap: 2, minHeight: { xs: 56 } }}>
        <Link
          component={RouterLink}
          to="/"
          underline="none"
          color="primary"
          sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, fontWeight: 700 }}
          aria-label={`${productName} home`}
        >
          <RecordVoiceOverOutlined aria-hidden="true" />
          <Box component="span" sx={{ fontSize: '1.125rem' }}>
            {productName}
          </Box>
        </Link>
        {title && title !== productName && (
          <Typography
            variant="body2"
            color="text.secondary"
            noWrap
            sx={{ ml: 'auto', minWidth: 0 }}
          >
            {title}
          </Typography>
        )}
      </Toolbar>
    </AppBar>
  );
}
