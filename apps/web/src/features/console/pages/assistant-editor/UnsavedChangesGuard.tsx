import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useEffect, useId } from 'react';
import { useBlocker } from 'react-router';

/**
 * Asks before leaving with unsaved changes: another console page (the router's blocker, with
 * a dialog) and closing or reloading the tab (the browser's own question).
 */
export function UnsavedChangesGuard({ when }: { when: boolean }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      when && currentLocation.pathname !== nextLocation.pathname,
  );
  const titleId = useId();
  const textId = useId();

  useEffect(() => {
    if (!when) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers want a return value; none of them shows it any more.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [when]);

  // Saved (or discarded) meanwhile: nothing to ask any more.
  useEffect(() => {
    if (blocker.state === 'blocked' && !when) blocker.proceed();
  }, [blocker, when]);

  return (
    <Dialog
      open={blocker.state === 'blocked'}
      onClose={() => blocker.reset?.()}
      aria-labelledby={titleId}
      aria-describedby={textId}
    >
      <DialogTitle id={titleId}>Leave without saving?</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>
          This assistant has changes that are not saved. If you leave now, they are lost.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => blocker.reset?.()} autoFocus>
          Stay and keep editing
        </Button>
        <Button color="error" onClick={() => blocker.proceed?.()}>
          Leave without saving
        </Button>
      </DialogActions>
    </Dialog>
  );
}
