import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { LIMITS } from '@talkbooth/protocol';
import { useState } from 'react';
import type { SyntheticEvent } from 'react';
import { errorMessage } from '../../lib/api-client';
import { logger } from '../../lib/logger';
import { submitFeedback } from './feedback-api';

export const FEEDBACK_EMPTY_HINT = 'Write a few words, or close this dialog to skip.';
export const FEEDBACK_SENDING_LABEL = 'Sending your feedback…';

export interface FeedbackDialogProps {
  open: boolean;
  /** The call the feedback is about, when known. */
  callId: string | null;
  assistantId: string | null;
  /** Why the call ended, when it was not the visitor's doing (shown above the question). */
  note?: string | null;
  /** The dialog is done: the feedback was stored, or the visitor closed it without sending. */
  onDone: (outcome: 'submitted' | 'skipped') => void;
}

/** "How was your call experience?": free text sent with `POST /api/feedback`. */
export function FeedbackDialog({
  open,
  callId,
  assistantId,
  note = null,
  onDone,
}: FeedbackDialogProps) {
  const [message, setMessage] = useState('');
  const [sending, setSending] = useState(false);
  const [hint, setHint] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const onSubmit = async (event: SyntheticEvent) => {
    event.preventDefault();
    if (sending) return;
    if (message.trim() === '') {
      setHint(FEEDBACK_EMPTY_HINT);
      return;
    }
    setHint(null);
    setFailure(null);
    setSending(true);
    try {
      const receipt = await submitFeedback({ message, callId, assistantId });
      logger.info('Feedback stored', { id: receipt.id });
      setSending(false);
      onDone('submitted');
    } catch (error) {
      logger.error('Could not store the feedback', error);
      setFailure(`Your feedback could not be sent: ${errorMessage(error)} Please try again.`);
      setSending(false);
    }
  };

  const skip = () => {
    if (sending) return;
    onDone('skipped');
  };

  return (
    <Dialog
      open={open}
      onClose={skip}
      fullWidth
      maxWidth="sm"
      aria-labelledby="feedback-title"
      aria-describedby="feedback-question"
      slotProps={{
        paper: {
          component: 'form',
          onSubmit: (event: SyntheticEvent) => void onSubmit(event),
        },
      }}
    >
      <DialogTitle id="feedback-title">Feedback</DialogTitle>
      <DialogContent>
        {note && (
          <Alert severity="info" sx={{ mb: 2 }}>
            {note}
          </Alert>
        )}
        <DialogContentText id="feedback-question" sx={{ mb: 2 }}>
          How was your call experience?
        </DialogContentText>
        <TextField
          autoFocus
          id="feedback-message"
          name="message"
          label="Your Feedback"
          multiline
          minRows={3}
          maxRows={10}
          fullWidth
          value={message}
          error={hint != null}
          helperText={hint ?? 'Tell us what went well or what could be better.'}
          onChange={(event) => {
            setMessage(event.target.value);
            if (hint && event.target.value.trim() !== '') setHint(null);
          }}
          slotProps={{ htmlInput: { maxLength: LIMITS.feedbackMaxLength } }}
        />
        {failure && (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {failure}
          </Alert>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={skip} disabled={sending} color="inherit">
          Skip
        </Button>
        <Button type="submit" variant="contained" disabled={sending} sx={{ gap: 1 }}>
          {sending && (
            <CircularProgress size={20} color="inherit" aria-label={FEEDBACK_SENDING_LABEL} />
          )}
          Submit
        </Button>
      </DialogActions>
    </Dialog>
  );
}
