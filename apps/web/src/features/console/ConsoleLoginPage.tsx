import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Account } from '@talkbooth/protocol';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { ApiRequestError, errorMessage } from '../../lib/api-client';
import { PasswordField } from '../registration/PasswordField';
import { signIn } from './console-api';

/** `/console/login`: operators sign in with e-mail and password. */
export function ConsoleLoginPage({ onSignedIn }: { onSignedIn: (account: Account) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fields, setFields] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const local: Record<string, string> = {};
    if (email.trim() === '') local.email = 'Enter your e-mail address.';
    if (password === '') local.password = 'Enter your password.';
    setFields(local);
    if (Object.keys(local).length > 0) return;
    setSending(true);
    try {
      onSignedIn(await signIn(email, password));
    } catch (error) {
      setSending(false);
      if (error instanceof ApiRequestError) setFields({ ...error.fields });
      setFailure(errorMessage(error));
    }
  };

  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2 }}>
      <Paper sx={{ p: { xs: 3, sm: 4 }, width: '100%', maxWidth: 420 }}>
        <Typography variant="h1" sx={{ fontSize: '1.75rem', mb: 1 }}>
          Sign in to the console
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          For the people who run the clinic. Visitors with an access code{' '}
          {/* The visitor pages are another app: a full page load. */}
          <Link href="/">start a call here</Link>.
        </Typography>
        <Box component="form" noValidate onSubmit={submit} aria-label="Sign in">
          <Stack spacing={2}>
            {failure && (
              <Alert severity="error" role="alert">
                {failure}
              </Alert>
            )}
            <TextField
              label="E-mail address"
              type="email"
              autoComplete="username"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              error={fields.email !== undefined}
              helperText={fields.email}
              required
              autoFocus
            />
            <PasswordField
              label="Password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              error={fields.password !== undefined}
              helperText={fields.password}
            />
            <Button
              type="submit"
              variant="contained"
              size="large"
              disabled={sending}
              startIcon={sending ? <CircularProgress size={18} aria-hidden="true" /> : undefined}
            >
              {sending ? 'Signing in…' : 'Sign in'}
            </Button>
            <Typography variant="body2">
              No account yet? <Link href="/register">Register</Link>. Forgot your password? Ask an
              owner of your organisation to reset it.
            </Typography>
          </Stack>
        </Box>
      </Paper>
    </Box>
  );
}
