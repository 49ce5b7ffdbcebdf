import type { SxProps, Theme } from '@mui/material/styles';

/**
 * What `<Container maxWidth="sm">` does, as plain Box styles: a centred column at most 600 px
 * wide with the theme's gutters. The visitor pages use Box for their layout (Box is there
 * anyway), not Container and Stack, whose system builders every page would otherwise load.
 */
export const PAGE_COLUMN = {
  width: '100%',
  maxWidth: 'sm',
  mx: 'auto',
  px: { xs: 2, sm: 3 },
  boxSizing: 'border-box',
} satisfies SxProps<Theme>;

/** What `<Stack spacing={n}>` does for a column of blocks. */
export const stackColumn = (spacing: number) =>
  ({ display: 'flex', flexDirection: 'column', gap: spacing }) satisfies SxProps<Theme>;
