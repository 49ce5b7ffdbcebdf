import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useId } from 'react';

/** One part of the editor: a titled section (h2) with a line saying what it is for. */
export function Section({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={headingId}
      sx={{ p: { xs: 2, sm: 3 } }}
    >
      <Typography
        id={headingId}
        variant="h2"
        sx={{ fontSize: '1.25rem', mb: description ? 0.5 : 2 }}
      >
        {title}
      </Typography>
      {description && (
        <Typography color="text.secondary" variant="body2" sx={{ mb: 2 }}>
          {description}
        </Typography>
      )}
      {children}
    </Paper>
  );
}
