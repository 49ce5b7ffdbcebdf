import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import PrintOutlined from '@mui/icons-material/PrintOutlined';
import type { Call } from '@talkbooth/protocol';
import { Link as RouterLink, useParams } from 'react-router';
import { viewOf } from '../call-view';
import { sessionPlatformClient } from '../console-api';
import { formatDateTime } from '../format';
import { PageStatus } from '../PageStatus';
import { useLoad } from '../use-load';
import { BriefFields } from './CallPage';

/**
 * `/console/calls/:id/brief`: the brief on one sheet for the doctor: large type, black on
 * white, no navigation; the buttons do not print.
 */
export function BriefPrintPage() {
  const { id = '' } = useParams();
  const [loaded, reload] = useLoad<Call>(() => sessionPlatformClient().call.get(id), id);
  return (
    <Box
      component="main"
      sx={{
        maxWidth: 720,
        mx: 'auto',
        p: { xs: 2, sm: 4 },
        bgcolor: 'background.paper',
        color: 'text.primary',
        '@media print': { p: 0, fontSize: '12pt' },
      }}
    >
      <Box sx={{ display: 'flex', gap: 2, mb: 3, displayPrint: 'none' }}>
        <Link component={RouterLink} to={`/console/calls/${id}`}>
          ← Back to the call
        </Link>
        <Button
          variant="contained"
          startIcon={<PrintOutlined />}
          onClick={() => window.print()}
          sx={{ ml: 'auto' }}
        >
          Print
        </Button>
      </Box>
      <PageStatus loaded={loaded} what="the brief" retry={reload}>
        {(call) => {
          const view = viewOf(call);
          return (
            <>
              <Typography variant="h1" sx={{ fontSize: '1.75rem', mb: 1 }}>
                Pre-visit brief
              </Typography>
              <Typography sx={{ mb: 1 }}>
                Taken by the assistant on {formatDateTime(call.createdAt)}.
              </Typography>
              {view.urgent && (
                <Typography sx={{ fontWeight: 700, border: '2px solid', p: 1, mb: 2 }}>
                  URGENT: the caller described something urgent and was given the emergency answer.
                </Typography>
              )}
              <Typography sx={{ mb: 2 }}>
                {view.briefConfirmed
                  ? 'The caller confirmed these answers.'
                  : 'The caller did not confirm these answers.'}
              </Typography>
              {view.brief.length === 0 ? (
                <Typography>No brief was taken on this call.</Typography>
              ) : (
                <BriefFields brief={view.brief} />
              )}
              {view.summary && (
                <>
                  <Typography variant="h2" sx={{ fontSize: '1.2rem', mt: 3, mb: 1 }}>
                    Summary
                  </Typography>
                  <Typography>{view.summary}</Typography>
                </>
              )}
              <Typography variant="body2" sx={{ mt: 4 }} color="text.secondary">
                Call {call.id}. Answers are the caller's own words as the assistant heard them.
              </Typography>
            </>
          );
        }}
      </PageStatus>
    </Box>
  );
}
