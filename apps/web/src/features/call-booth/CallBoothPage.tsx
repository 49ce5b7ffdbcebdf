import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useDocumentTitle } from '../../app/use-document-title';
import { useGoToTalkHome } from '../../app/use-go-to-talk-home';
import { readAssistantId, readSessionPublicKey } from './stored-session';
import { FeedbackDialog } from '../feedback/FeedbackDialog';
import { CallControl } from './CallControl';
import { NoSessionNotice } from './NoSessionNotice';
import { TranscriptLog } from './TranscriptLog';
import { useCall } from './use-call';

/** `/call-section`: talk to the assistant chosen by the UniCode, then leave feedback. */
export default function CallBoothPage() {
  useDocumentTitle('Call Booth');
  // Read once per visit; the booth does not change the stored session.
  const [assistantId] = useState(readAssistantId);
  const [publicKey] = useState(readSessionPublicKey);
  const call = useCall(assistantId, publicKey);
  const { phase, notice, callId, endedNote } = call;
  const goHome = useGoToTalkHome();
  const transcriptHeading = useId();
  const showTranscript = phase !== 'idle' && phase !== 'connecting';

  return (
    <Stack spacing={3}>
      <Box component="header">
        <Typography variant="h1" gutterBottom>
          Call Booth
        </Typography>
        <Typography color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          Assistant:{' '}
          {assistantId == null ? (
            <span>none</span>
          ) : (
            <Box component="code" data-testid="assistant-id" sx={{ fontWeight: 600 }}>
              {assistantId}
            </Box>
          )}
        </Typography>
      </Box>

      {assistantId == null ? (
        <NoSessionNotice />
      ) : (
        <>
          {notice && (
            <Alert severity={notice.severity} role="alert">
              {notice.title && <AlertTitle>{notice.title}</AlertTitle>}
              {notice.text}
            </Alert>
          )}
          <Paper variant="outlined" sx={{ p: { xs: 2, sm: 4 } }}>
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
          </Paper>
          {showTranscript && (
            <Paper component="section" variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
              <Typography id={transcriptHeading} variant="h2" gutterBottom>
                Conversation
              </Typography>
              <TranscriptLog transcript={call.transcript} labelledBy={transcriptHeading} />
            </Paper>
          )}
          <FeedbackDialog
            open={phase === 'ended'}
            callId={callId}
            assistantId={assistantId}
            note={endedNote}
            onDone={goHome}
          />
        </>
      )}
    </Stack>
  );
}
