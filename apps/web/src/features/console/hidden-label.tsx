import Box from '@mui/material/Box';
import TableCell from '@mui/material/TableCell';

/** Hidden on screen, read by screen readers. Its parent must be positioned (see below). */
export const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;

/**
 * The header of a table's actions column: named for screen readers, blank on screen. The
 * cell is positioned so the hidden label stays inside the table's scrolling box (an
 * absolute label placed against the page would widen a phone's page sideways).
 */
export function ActionsHeaderCell({ label = 'Actions' }: { label?: string }) {
  return (
    <TableCell sx={{ position: 'relative' }}>
      <Box component="span" sx={visuallyHidden}>
        {label}
      </Box>
    </TableCell>
  );
}
