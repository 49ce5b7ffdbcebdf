import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { LIMITS, changePasswordRequestSchema } from '@talkbooth/protocol';
import type { AccountRole, ChangePasswordRequest } from '@talkbooth/protocol';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { ApiRequestError, errorMessage } from '../../../lib/api-client';
import { PasswordField } from '../../registration/PasswordField';
import { useAccount } from '../account-context';
import { consoleRequest, isSignedOut } from '../console-api';
import { PageHeading } from '../PageStatus';

type Field = keyof ChangePasswordRequest;
type FieldErrors = Partial<Record<Field, string>>;
const FIELDS: readonly Field[] = ['currentPassword', 'newPassword'];

const ROLE_TEXT: Record<AccountRole, string> = {
  owner: 'Owner: runs the team and the API keys, and changes everything else',
  admin: 'Admin: changes assistants and access codes',
  viewer: 'Viewer: reads calls, briefs and usage',
};

function fieldErrors(fields: Readonly<Record<string, string>>): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of FIELDS) if (fields[field]) errors[field] = fields[field];
  return errors;
}

/** `/console/account`: who is signed in, and changing one's own password. */
export function AccountPage() {
  const { account, signedOut } = useAccount();
  const [values, setValues] = useState<ChangePasswordRequest>({
    currentPassword: '',
    newPassword: '',
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [sending, setSending] = useState(false);

  const change = (field: Field) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((prev) => ({ ...prev, [field]: value }));
    if (errors[field]) setErrors((prev) => ({ ...prev, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    setFailure(null);
    setDone(false);
    const checked = changePasswordRequestSchema.safeParse(values);
    if (!checked.success) {
      const local: FieldErrors = {};
      for (const issue of checked.error.issues) {
        const field = issue.path[0];
        if (field === 'currentPassword' || field === 'newPassword') local[field] ??= issue.message;
      }
      setErrors(local);
      return;
    }
    setErrors({});
    setSending(true);
    try {
      await consoleRequest('/account/password', { body: values });
      setValues({ currentPassword: '', newPassword: '' });
      setDone(true);
    } catch (error) {
      if (isSignedOut(error)) {
        signedOut();
        return;
      }
      if (error instanceof ApiRequestError) setErrors(fieldErrors(error.fields));
      setFailure(errorMessage(error));
    } finally {
      setSending(false);
    }
  };

  const facts: [string, string][] = [
    ['Name', account.username],
    ['E-mail', account.email],
    ['Role', ROLE_TEXT[account.role]],
    ['Organisation', account.organisation.name],
  ];

  return (
    <>
      <PageHeading title="Your account" />
      <Stack spacing={3} sx={{ maxWidth: 640 }}>
        <Paper
          component="section"
          variant="outlined"
          aria-labelledby="account-who"
          sx={{ p: { xs: 2, sm: 3 } }}
        >
          <Typography id="account-who" variant="h2" sx={{ fontSize: '1.25rem', mb: 2 }}>
            Who you are
          </Typography>
          <Box
            component="dl"
            sx={{
              m: 0,
              display: 'grid',
              gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' },
              columnGap: 3,
              rowGap: { xs: 0.5, sm: 1.5 },
              '& dt': { fontWeight: 700 },
              '& dd': { m: 0, mb: { xs: 1.5, sm: 0 }, wordBreak: 'break-word' },
            }}
          >
            {facts.map(([term, value]) => (
              <Box key={term} sx={{ display: 'contents' }}>
                <dt>{term}</dt>
                <dd>{value}</dd>
              </Box>
            ))}
          </Box>
        </Paper>

        <Paper
          component="section"
          variant="outlined"
          aria-labelledby="account-password"
          sx={{ p: { xs: 2, sm: 3 } }}
        >
          <Typography id="account-password" variant="h2" sx={{ fontSize: '1.25rem', mb: 1 }}>
            Change your password
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            Your other sessions are signed out; this one stays signed in.
          </Typography>
          <Box
            component="form"
            noValidate
            onSubmit={submit}
            aria-labelledby="account-password"
            aria-busy={sending}
          >
            <Stack spacing={2.5}>
              {failure && (
                <Alert severity="error" role="alert">
                  {failure}
                </Alert>
              )}
              {done && (
                <Alert severity="success" role="status">
                  Your password has been changed.
                </Alert>
              )}
              {/* For password managers: whose password this is. */}
              <input type="text" hidden readOnly autoComplete="username" value={account.email} />
              <PasswordField
                id="account-current-password"
                name="currentPassword"
                label="Current password"
                autoComplete="current-password"
                required
                fullWidth
                value={values.currentPassword}
                onChange={change('currentPassword')}
                error={errors.currentPassword !== undefined}
                helperText={errors.currentPassword}
                htmlInput={{ maxLength: LIMITS.passwordMaxLength }}
              />
              <PasswordField
                id="account-new-password"
                name="newPassword"
                label="New password"
                autoComplete="new-password"
                required
                fullWidth
                value={values.newPassword}
                onChange={change('newPassword')}
                error={errors.newPassword !== undefined}
                helperText={
                  errors.newPassword ?? `At least ${LIMITS.passwordMinLength} characters.`
                }
                htmlInput={{ maxLength: LIMITS.passwordMaxLength }}
              />
              <Box>
                <Button
                  type="submit"
                  variant="contained"
                  disabled={sending}
                  startIcon={
                    sending ? (
                      <CircularProgress size={16} color="inherit" aria-hidden="true" />
                    ) : undefined
                  }
                >
                  {sending ? 'Changing…' : 'Change password'}
                </Button>
              </Box>
            </Stack>
          </Box>
        </Paper>
      </Stack>
    </>
  );
}
