import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import { Link as RouterLink } from 'wouter';

export const NO_SESSION_TITLE = 'No assistant session';
export const NO_SESSION_TEXT =
  'The call booth needs a UniCode first. Enter the code you received from your clinic to choose the assistant you will talk to.';

/** Shown instead of the call control when there is no stored session. */
export function NoSessionNotice() {
  return (
    <Alert
      severity="warning"
      action={
        <Button component={RouterLink} to="/" color="inherit" size="small">
          Enter a UniCode
        </Button>
      }
      sx={{ flexWrap: 'wrap' }}
    >
      <AlertTitle>{NO_SESSION_TITLE}</AlertTitle>
      {NO_SESSION_TEXT}
    </Alert>
  );
}
