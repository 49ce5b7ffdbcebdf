import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import Typography from '@mui/material/Typography';
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
      {/*
        What TextField renders, from its parts: TextField also carries Select (for its `select`
        mode), and with it Menu, Popover and Modal, a third of this page's code before.
      */}
      <FormControl variant="outlined" fullWidth error={invalid}>
        <InputLabel htmlFor="unicode" id="unicode-label">
          UniCode
        </InputLabel>
        <OutlinedInput
          id="unicode"
          name="unicode"
          label="UniCode"
          value={code}
          onChange={(event) => onCodeChange(event.target.value)}
          // The icon itself, placed as InputAdornment would place it (its margin and colour).
          startAdornment={<KeyOutlined aria-hidden="true" sx={{ mr: 1, color: 'action.active' }} />}
          inputProps={{
            autoComplete: 'off',
            autoCapitalize: 'none',
            autoCorrect: 'off',
            spellCheck: false,
            'aria-describedby': message ? 'unicode-message' : undefined,
          }}
        />
      </FormControl>
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
        {/*
          A line of text, not Alert: Alert brings IconButton and its icons, some 2.6 kB gzipped
          on this page (issue 14), for a message that only follows a check.
        */}
        {message && (
          <Typography key={messageKey} role="alert" color="error" align="center">
            {message}
          </Typography>
        )}
      </Box>
    </Box>
  );
}
