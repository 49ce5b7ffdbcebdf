import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import RecordVoiceOverOutlined from '@mui/icons-material/RecordVoiceOverOutlined';
import { useClientConfig } from './client-config';
import { Link as RouterLink } from 'wouter';
import { useProductContent } from './product-content';
import { HEADER_BORDER } from './theme';

/**
 * The product name (linking to code entry) and, when known and different, the business's name.
 * A flat bar like the console's AppBar (theme.ts), built from Paper and Box: AppBar and Toolbar
 * would add their colour and position variants to every visitor page for nothing.
 */
export function AppHeader() {
  const { productName } = useClientConfig();
  const { title } = useProductContent();
  return (
    <Paper
      component="header"
      square
      elevation={0}
      sx={{ flexShrink: 0, borderBottom: HEADER_BORDER }}
    >
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 2,
          minHeight: 56,
          px: { xs: 2, sm: 3 },
        }}
      >
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
      </Box>
    </Paper>
  );
}
