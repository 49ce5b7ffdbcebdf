import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CallRounded from '@mui/icons-material/CallRounded';
import { memo, useCallback, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { CallServiceProvider } from '../../../../app/call-service-context';
import type { CallService } from '../../../call-booth/call-service';
import { CallControl } from '../../../call-booth/CallControl';
import { TranscriptLog } from '../../../call-booth/TranscriptLog';
import { useCall } from '../../../call-booth/use-call';
import type { CallLogEntry, CallLogger } from './test-call-service';
import { createTestCallService, withCallLog } from './test-call-service';

/** The log keeps this many lines (the oldest go). */
const LOG_LIMIT = 500;
let logIds = 0;

/**
 * Talk to the assistant as saved, with the booth's call control and live transcript, and see
 * the call's events as they come. Needs the microphone, and the admin role (the platform
 * lets viewers only read).
 */
export const TestCallPanel = memo(function TestCallPanel({
  assistantId,
  canCall,
  unsaved,
  service,
}: {
  assistantId: string;
  canCall: boolean;
  /** The form has changes the call will not have. */
  unsaved: boolean;
  /** Replaces the real call service (tests). */
  service?: CallService;
}) {
  const headingId = useId();
  const [log, setLog] = useState<CallLogEntry[]>([]);
  const addToLog = useCallback<CallLogger>((entry) => {
    const line = { ...entry, id: ++logIds, at: Date.now() };
    setLog((lines) => [...lines.slice(1 - LOG_LIMIT), line]);
  }, []);
  const calls = useMemo(
    () => withCallLog(service ?? createTestCallService(addToLog), addToLog),
    [service, addToLog],
  );
  /** A new round is a fresh call control (the booth's ends each call with the feedback step). */
  const [round, setRound] = useState(0);

  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={headingId}
      sx={{ p: { xs: 2, sm: 3 } }}
    >
      <Typography id={headingId} variant="h2" sx={{ fontSize: '1.25rem', mb: 1 }}>
        Test call
      </Typography>
      {!canCall ? (
        <Alert severity="info" role="note">
          Test calls need the admin role: they place a call with this assistant.
        </Alert>
      ) : (
        <CallServiceProvider service={calls}>
          {unsaved && (
            <Alert severity="warning" role="status" sx={{ mb: 2 }}>
              The test call uses the assistant as saved. Save your changes to hear them.
            </Alert>
          )}
          <TestCall
            key={round}
            assistantId={assistantId}
            focusStart={round > 0}
            onNewCall={() => setRound((r) => r + 1)}
          />
        </CallServiceProvider>
      )}
      <EventLog entries={log} onClear={() => setLog([])} />
    </Paper>
  );
});

function TestCall({
  assistantId,
  focusStart,
  onNewCall,
}: {
  assistantId: string;
  focusStart: boolean;
  onNewCall: () => void;
}) {
  const call = useCall(assistantId);
  const { phase, notice, endedNote } = call;
  const transcriptHeading = useId();
  const showTranscript = phase !== 'idle' && phase !== 'connecting';

  return (
    <Stack spacing={2}>
      {notice && (
        <Alert severity={notice.severity} role="alert">
          {notice.title && <AlertTitle>{notice.title}</AlertTitle>}
          {notice.text}
        </Alert>
      )}
      {phase === 'idle' && (
        <Box>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            Press Start test call and allow the microphone when the browser asks. Then talk to the
            assistant as a caller would.
          </Typography>
          <Button
            variant="contained"
            size="large"
            startIcon={<CallRounded aria-hidden="true" />}
            onClick={() => void call.start()}
            autoFocus={focusStart}
            sx={{ minHeight: 48 }}
          >
            Start test call
          </Button>
        </Box>
      )}
      {(phase === 'connecting' || phase === 'active' || phase === 'ending') && (
        <CallControl
          phase={phase}
          speaking={call.speaking}
          muted={call.muted}
          startedAt={call.startedAt}
          levels={call.levels}
          onStart={() => void call.start()}
          onEnd={() => void call.end()}
          onToggleMute={call.toggleMute}
          onFinish={call.finish}
        />
      )}
      {phase === 'lost' && (
        <Box>
          <Alert severity="error" role="alert" sx={{ mb: 2 }}>
            <AlertTitle>Connection lost</AlertTitle>
            The connection to the assistant was lost. The event log may say why.
          </Alert>
          <Button variant="contained" onClick={() => void call.start()}>
            Start test call again
          </Button>
        </Box>
      )}
      {phase === 'ended' && (
        <Box>
          <Alert severity="info" role="status" sx={{ mb: 2 }}>
            The test call has ended.{endedNote && ` ${endedNote}`}
          </Alert>
          <Button variant="contained" onClick={onNewCall}>
            New test call
          </Button>
        </Box>
      )}
      {showTranscript && (
        <Box>
          <Typography id={transcriptHeading} variant="h3" sx={{ fontSize: '1rem', mb: 1 }}>
            Conversation
          </Typography>
          <TranscriptLog transcript={call.transcript} labelledBy={transcriptHeading} />
        </Box>
      )}
    </Stack>
  );
}

const two = (n: number) => String(n).padStart(2, '0');

/** `14:03:27.512`: the log's times, to the millisecond. */
export function logTime(at: number): string {
  const d = new Date(at);
  const ms = String(d.getMilliseconds()).padStart(3, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${ms}`;
}

/** The call's events, newest last, with their times. */
function EventLog({ entries, onClear }: { entries: CallLogEntry[]; onClear: () => void }) {
  const headingId = useId();
  const scroller = useRef<HTMLDivElement>(null);
  /** Whether the newest line is in view: new lines keep it so, unless the reader scrolled up. */
  const atBottom = useRef(true);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && atBottom.current) element.scrollTop = element.scrollHeight;
  }, [entries]);

  return (
    <Box sx={{ mt: 3 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography id={headingId} variant="h3" sx={{ fontSize: '1rem' }}>
          Event log
        </Typography>
        <Button size="small" onClick={onClear} disabled={entries.length === 0}>
          Clear log
        </Button>
      </Box>
      <Box
        ref={scroller}
        role="log"
        aria-labelledby={headingId}
        onScroll={(event) => {
          const element = event.currentTarget;
          atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight <= 24;
        }}
        // The transcript is announced already; events would drown it.
        aria-live="off"
        tabIndex={0}
        sx={{
          maxHeight: 280,
          overflowY: 'auto',
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          px: 1.5,
          py: 1,
          fontFamily: 'monospace',
          fontSize: '0.8125rem',
          '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main' },
        }}
      >
        {entries.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            The events of a test call show here.
          </Typography>
        ) : (
          <Box component="ol" sx={{ listStyle: 'none', m: 0, p: 0 }}>
            {entries.map((entry) => (
              <Box
                component="li"
                key={entry.id}
                sx={{
                  py: 0.25,
                  overflowWrap: 'anywhere',
                  color: entry.problem ? 'error.main' : undefined,
                }}
              >
                <Box
                  component="time"
                  dateTime={new Date(entry.at).toISOString()}
                  sx={{ color: 'text.secondary', mr: 1 }}
                >
                  {logTime(entry.at)}
                </Box>
                <Box component="span" sx={{ fontWeight: 700 }}>
                  {entry.event}
                </Box>
                {entry.detail !== undefined && entry.detail !== '' && ` — ${entry.detail}`}
              </Box>
            ))}
          </Box>
        )}
      </Box>
    </Box>
  );
}
