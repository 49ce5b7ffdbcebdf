import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import type { FormEvent } from 'react';

export const CHECKING_LABEL = 'Checking the UniCode…';

interface CodeEntryFormProps {
  code: string;
  onCodeChange: (value: string) => void;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  checking: boolean;
  /** Marks the field as in error (empty submit). */
  invalid: boolean;
  /** Shown under the button and announced (role="alert"). */
  message: string | null;
  /** Changes with every new message, so a repeated message is announced again. */
  messageKey: number;
}

/** The UniCode field and the Talk to Assistant button; Enter in the field submits. */
export function CodeEntryForm({
  code,
  onCodeChange,
  onSubmit,
  checking,
  invalid,
  message,
  messageKey,
}: CodeEntryFormProps) {
  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-busy={checking}>
      <TextField
        id="unicode"
        name="unicode"
        label="UniCode"
        variant="outlined"
        fullWidth
        value={code}
        error={invalid}
        onChange={(event) => onCodeChange(event.target.value)}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <KeyOutlined aria-hidden="true" />
              </InputAdornment>
            ),
          },
          htmlInput: {
            autoComplete: 'off',
            autoCapitalize: 'none',
            autoCorrect: 'off',
            spellCheck: false,
            'aria-describedby': message ? 'unicode-message' : undefined,
          },
        }}
      />
      <Button
        type="submit"
        variant="contained"
        size="large"
        fullWidth
        disabled={checking}
        sx={{ mt: 2, minHeight: 48, gap: 1.5 }}
      >
        {checking && <CircularProgress size={24} color="inherit" aria-label={CHECKING_LABEL} />}
        Talk to Assistant
      </Button>
      <Box id="unicode-message" sx={{ mt: 2 }}>
        {message && (
          <Alert key={messageKey} severity={invalid ? 'warning' : 'error'} role="alert">
            {message}
          </Alert>
        )}
      </Box>
    </Box>
  );
}
