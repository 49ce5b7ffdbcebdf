import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'wouter';
import { stackColumn } from './page-column';
import { useDocumentTitle } from './use-document-title';

/** Paths with more than one segment (`/a/b`) match no screen. */
export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <Box sx={stackColumn(2)}>
      <Typography variant="h1">Page not found</Typography>
      <Typography>This address does not lead to a page of this site.</Typography>
      <div>
        <Button component={RouterLink} to="/" variant="contained">
          Enter a UniCode
        </Button>
      </div>
    </Box>
  );
}
