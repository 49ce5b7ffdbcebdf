import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import DeleteOutlineRounded from '@mui/icons-material/DeleteOutlineRounded';
import { useId, useState } from 'react';
import { errorMessage } from '../../../../lib/api-client';
import { isSignedOut, sessionPlatformClient } from '../../console-api';
import { useAccount } from '../../account-context';
import { platformCall } from './platform-errors';

/** "Delete assistant", asked once more in a dialog; `onDeleted` after the server confirmed. */
export function DeleteAssistant({
  id,
  name,
  onDeleted,
}: {
  id: string;
  name: string;
  onDeleted: () => void;
}) {
  const { signedOut } = useAccount();
  const [open, setOpen] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const titleId = useId();
  const textId = useId();

  const remove = async () => {
    setDeleting(true);
    setFailure(null);
    try {
      await platformCall(() => sessionPlatformClient().assistant.delete(id));
      setOpen(false);
      onDeleted();
    } catch (error) {
      if (isSignedOut(error)) return signedOut();
      setFailure(errorMessage(error));
    } finally {
      setDeleting(false);
    }
  };

  return (
    <>
      <Button
        color="error"
        variant="outlined"
        startIcon={<DeleteOutlineRounded aria-hidden="true" />}
        onClick={() => {
          setFailure(null);
          setOpen(true);
        }}
      >
        Delete assistant
      </Button>
      <Dialog
        open={open}
        onClose={() => !deleting && setOpen(false)}
        aria-labelledby={titleId}
        aria-describedby={textId}
      >
        <DialogTitle id={titleId}>Delete this assistant?</DialogTitle>
        <DialogContent>
          <DialogContentText id={textId}>
            “{name}” and its knowledge base are deleted for good. Calls to it can no longer be
            started. This cannot be undone.
          </DialogContentText>
          {failure && (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              Could not delete the assistant. {failure}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)} disabled={deleting} autoFocus>
            Keep it
          </Button>
          <Button
            color="error"
            variant="contained"
            onClick={() => void remove()}
            disabled={deleting}
            startIcon={deleting ? <CircularProgress size={16} aria-hidden="true" /> : undefined}
          >
            {deleting ? 'Deleting…' : 'Delete assistant'}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
