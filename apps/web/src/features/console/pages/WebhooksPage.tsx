import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import KeyboardArrowDownOutlined from '@mui/icons-material/KeyboardArrowDownOutlined';
import KeyboardArrowUpOutlined from '@mui/icons-material/KeyboardArrowUpOutlined';
import RefreshOutlined from '@mui/icons-material/RefreshOutlined';
import type { WebhookDelivery, WebhookDeliveryList } from '@talkbooth/protocol';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { useAccount } from '../account-context';
import { consoleRequest, isSignedOut } from '../console-api';
import { PageHeading, PageStatus } from '../PageStatus';
import { useLoad } from '../use-load';
import { formatDateTime } from '../format';
import { visuallyHidden } from '../hidden-label';

/** Deliveries per page. */
export const WEBHOOK_PAGE_SIZE = 25;

function deliveriesPage(before?: WebhookDelivery): Promise<WebhookDeliveryList> {
  const query = new URLSearchParams({ limit: String(WEBHOOK_PAGE_SIZE) });
  if (before) {
    query.set('before', before.createdAt);
    query.set('beforeId', before.id);
  }
  return consoleRequest(`/webhooks?${query.toString()}`) as Promise<WebhookDeliveryList>;
}

const STATUS: Record<
  WebhookDelivery['status'],
  { label: string; color: 'success' | 'error' | 'warning' }
> = {
  delivered: { label: 'Delivered', color: 'success' },
  failed: { label: 'Failed', color: 'error' },
  pending: { label: 'Pending', color: 'warning' },
};

/** The listener's last answer: its status code, the error, or nothing yet. */
function lastAnswer(delivery: WebhookDelivery): string {
  const parts: string[] = [];
  if (delivery.lastStatusCode !== null) parts.push(`HTTP ${delivery.lastStatusCode}`);
  if (delivery.lastError !== null) parts.push(delivery.lastError);
  return parts.length === 0 ? '—' : parts.join(' · ');
}

/** `/console/webhooks`: the delivery log of the assistants' Server URL messages, newest first. */
export function WebhooksPage() {
  const { signedOut } = useAccount();
  const [loaded, reload] = useLoad(() => deliveriesPage(), 'webhooks');
  /** Older pages loaded with "Load older", after the first. */
  const [older, setOlder] = useState<WebhookDeliveryList[]>([]);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderError, setOlderError] = useState<string | null>(null);

  const refresh = () => {
    setOlder([]);
    setOlderError(null);
    reload();
  };

  const loadOlder = async (last: WebhookDelivery) => {
    setLoadingOlder(true);
    setOlderError(null);
    try {
      const page = await deliveriesPage(last);
      setOlder((prev) => [...prev, page]);
    } catch (error) {
      if (isSignedOut(error)) signedOut();
      else setOlderError(errorMessage(error));
    } finally {
      setLoadingOlder(false);
    }
  };

  return (
    <>
      <PageHeading
        title="Webhooks"
        action={
          <Button
            startIcon={<RefreshOutlined aria-hidden="true" />}
            onClick={refresh}
            disabled={loaded.state === 'loading'}
          >
            Refresh
          </Button>
        }
      />
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        The call events sent to your assistants’ Server URLs, newest first. A delivery the listener
        does not take is tried again a few times before it counts as failed.
      </Typography>
      <PageStatus loaded={loaded} what="the webhook deliveries" retry={refresh}>
        {(first) => {
          const pages = [first, ...older];
          const items = pages.flatMap((page) => page.items);
          const hasMore = pages[pages.length - 1]?.hasMore ?? false;
          const last = items[items.length - 1];
          if (items.length === 0) return <EmptyState />;
          return (
            <>
              <TableContainer component={Paper} variant="outlined">
                <Table size="small" aria-label="Webhook deliveries" sx={{ minWidth: 820 }}>
                  <TableHead>
                    <TableRow>
                      <TableCell sx={{ width: 48, position: 'relative' }}>
                        <Box component="span" sx={visuallyHidden}>
                          Attempts shown
                        </Box>
                      </TableCell>
                      <TableCell>Time</TableCell>
                      <TableCell>Message type</TableCell>
                      <TableCell>URL</TableCell>
                      <TableCell>Status</TableCell>
                      <TableCell align="right">Attempts</TableCell>
                      <TableCell>Last answer</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {items.map((delivery) => (
                      <DeliveryRow key={delivery.id} delivery={delivery} />
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
              <Box
                sx={{
                  mt: 2,
                  display: 'flex',
                  flexDirection: 'column',
                  alignItems: 'flex-start',
                  gap: 1,
                }}
              >
                {olderError && (
                  <Alert severity="error" role="alert">
                    Could not load older deliveries. {olderError}
                  </Alert>
                )}
                {hasMore && last ? (
                  <Button
                    variant="outlined"
                    onClick={() => void loadOlder(last)}
                    disabled={loadingOlder}
                    startIcon={
                      loadingOlder ? <CircularProgress size={16} aria-hidden="true" /> : undefined
                    }
                  >
                    {loadingOlder ? 'Loading older deliveries…' : 'Load older'}
                  </Button>
                ) : (
                  <Typography variant="body2" color="text.secondary">
                    {items.length === 1
                      ? 'This is the only delivery.'
                      : `All ${items.length} deliveries are shown.`}
                  </Typography>
                )}
              </Box>
            </>
          );
        }}
      </PageStatus>
    </>
  );
}

function DeliveryRow({ delivery }: { delivery: WebhookDelivery }) {
  const [open, setOpen] = useState(false);
  const status = STATUS[delivery.status];
  const detailsId = `delivery-${delivery.id}-attempts`;
  const when = formatDateTime(delivery.createdAt);
  return (
    <>
      <TableRow sx={{ '& > td': { borderBottom: open ? 'unset' : undefined } }}>
        <TableCell>
          <IconButton
            size="small"
            aria-label={`Attempts of ${delivery.messageType} at ${when}`}
            aria-expanded={open}
            aria-controls={detailsId}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? <KeyboardArrowUpOutlined /> : <KeyboardArrowDownOutlined />}
          </IconButton>
        </TableCell>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>{when}</TableCell>
        <TableCell sx={{ fontFamily: 'monospace' }}>{delivery.messageType}</TableCell>
        <TableCell sx={{ wordBreak: 'break-all', maxWidth: 280 }}>{delivery.url}</TableCell>
        <TableCell>
          <Chip size="small" color={status.color} label={status.label} />
          {delivery.status === 'pending' && delivery.nextAttemptAt !== null && (
            <Typography
              variant="body2"
              color="text.secondary"
              sx={{ mt: 0.5, whiteSpace: 'nowrap' }}
            >
              next try {formatDateTime(delivery.nextAttemptAt)}
            </Typography>
          )}
        </TableCell>
        <TableCell align="right">{delivery.attemptCount}</TableCell>
        <TableCell sx={{ wordBreak: 'break-word', maxWidth: 280 }}>
          {lastAnswer(delivery)}
        </TableCell>
      </TableRow>
      <TableRow>
        <TableCell colSpan={7} sx={{ py: 0 }}>
          <Collapse in={open} timeout="auto" unmountOnExit>
            <Box id={detailsId} sx={{ py: 2 }}>
              {delivery.attempts.length === 0 ? (
                <Typography variant="body2" color="text.secondary">
                  Not tried yet.
                </Typography>
              ) : (
                <Table size="small" aria-label={`Attempts of ${delivery.messageType} at ${when}`}>
                  <TableHead>
                    <TableRow>
                      <TableCell>Attempt</TableCell>
                      <TableCell>Time</TableCell>
                      <TableCell>Status code</TableCell>
                      <TableCell>Error</TableCell>
                      <TableCell align="right">Duration</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {delivery.attempts.map((attempt) => (
                      <TableRow key={attempt.attempt}>
                        <TableCell>{attempt.attempt}</TableCell>
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>
                          {formatDateTime(attempt.at)}
                        </TableCell>
                        <TableCell>{attempt.statusCode ?? '—'}</TableCell>
                        <TableCell sx={{ wordBreak: 'break-word' }}>
                          {attempt.error ?? '—'}
                        </TableCell>
                        <TableCell align="right">{attempt.durationMs} ms</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              )}
            </Box>
          </Collapse>
        </TableCell>
      </TableRow>
    </>
  );
}

function EmptyState() {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 1 }}>
        No webhook deliveries yet
      </Typography>
      <Typography sx={{ mb: 1 }}>
        Webhooks let your own systems hear about calls as they happen. Set a Server URL on an
        assistant to receive call events: Talkbooth then sends status updates and end-of-call
        reports to that address, and every delivery and its tries are listed here.
      </Typography>
      <Link component={RouterLink} to="/console/assistants">
        Go to the assistants
      </Link>
    </Paper>
  );
}
