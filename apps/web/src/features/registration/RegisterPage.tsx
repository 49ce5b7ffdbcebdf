import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { LIMITS, registerRequestSchema } from '@talkbooth/protocol';
import type { RegisterRequest, RegisteredUser } from '@talkbooth/protocol';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { Link as RouterLink, useSearchParams } from 'wouter';
import { useDocumentTitle } from '../../app/use-document-title';
import { ApiRequestError, errorMessage } from '../../lib/api-client';
import { logger } from '../../lib/logger';
import { PasswordField } from './PasswordField';
import { registerAccount } from './register-api';

type Field = keyof RegisterRequest;
type FieldErrors = Partial<Record<Field, string>>;

export const SENDING_LABEL = 'Creating your account…';
export const CHECK_FIELDS_MESSAGE = 'Please check the highlighted fields.';

const FIELDS: readonly Field[] = ['username', 'email', 'password'];

/** Per-field messages from the shared schema, before anything is sent. */
function checkLocally(values: RegisterRequest): FieldErrors {
  const result = registerRequestSchema.safeParse(values);
  if (result.success) return {};
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && (FIELDS as readonly string[]).includes(field)) {
      errors[field as Field] ??= issue.message;
    }
  }
  return errors;
}

function serverFieldErrors(fields: Readonly<Record<string, string>>): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of FIELDS) {
    const message = fields[field];
    if (message) errors[field] = message;
  }
  return errors;
}

/** `/register`: create an account. The server's answer decides; local checks only help. */
export function RegisterPage() {
  useDocumentTitle('Register');
  const [values, setValues] = useState<RegisterRequest>({ username: '', email: '', password: '' });
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [registered, setRegistered] = useState<RegisteredUser | null>(null);
  // An invite link (`/register?invite=…`) joins the inviting organisation.
  const [searchParams] = useSearchParams();
  const invite = searchParams.get('invite') ?? undefined;
  const [sending, setSending] = useState(false);

  const change = (field: Field) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((prev) => ({ ...prev, [field]: value }));
    if (fieldErrors[field]) setFieldErrors((prev) => ({ ...prev, [field]: undefined }));
  };

  const submit = async () => {
    setFailure(null);
    setRegistered(null);
    const local = checkLocally(values);
    setFieldErrors(local);
    if (Object.keys(local).length > 0) {
      setFailure(CHECK_FIELDS_MESSAGE);
      return;
    }
    setSending(true);
    try {
      const user = await registerAccount(invite === undefined ? values : { ...values, invite });
      logger.info('Registration succeeded', { id: user.id, username: user.username });
      setRegistered(user);
      setValues((prev) => ({ ...prev, password: '' }));
    } catch (error) {
      if (error instanceof ApiRequestError) {
        logger.warn('Registration refused', {
          status: error.status,
          fields: Object.keys(error.fields),
        });
        setFieldErrors(serverFieldErrors(error.fields));
      } else {
        logger.error('Registration failed', error);
      }
      setFailure(errorMessage(error));
    } finally {
      setSending(false);
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!sending) void submit();
  };

  const fieldProps = (field: Field) => ({
    id: `register-${field}`,
    name: field,
    required: true,
    fullWidth: true,
    value: values[field],
    onChange: change(field),
    error: fieldErrors[field] != null,
    helperText: fieldErrors[field],
  });

  return (
    <Stack spacing={3}>
      <Box>
        <Typography variant="h1" gutterBottom>
          Register
        </Typography>
        <Typography color="text.secondary">
          {invite === undefined
            ? 'Create an account. All fields are required.'
            : 'You were invited to join an organisation. Create your account; all fields are required.'}
        </Typography>
      </Box>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <Box component="form" noValidate onSubmit={onSubmit} aria-busy={sending}>
          <Stack spacing={2.5}>
            <TextField
              {...fieldProps('username')}
              label="Username"
              placeholder="Username"
              autoComplete="username"
              slotProps={{ htmlInput: { maxLength: LIMITS.usernameMaxLength } }}
            />
            <TextField
              {...fieldProps('email')}
              label="Email"
              placeholder="Email"
              type="email"
              autoComplete="email"
              slotProps={{ htmlInput: { maxLength: LIMITS.emailMaxLength } }}
            />
            <PasswordField
              {...fieldProps('password')}
              label="Password"
              placeholder="Password"
              autoComplete="new-password"
              htmlInput={{ maxLength: LIMITS.passwordMaxLength }}
            />
            <Button
              type="submit"
              variant="contained"
              size="large"
              fullWidth
              disabled={sending}
              sx={{ minHeight: 48, gap: 1.5 }}
            >
              {sending && <CircularProgress size={24} color="inherit" aria-label={SENDING_LABEL} />}
              Register
            </Button>
            {registered && (
              <Alert severity="success" role="status">
                Welcome, {registered.username}! Your account has been created
                {registered.role === 'owner'
                  ? ` and owns ${registered.organisation.name}.`
                  : ` in ${registered.organisation.name} (${registered.role}).`}{' '}
                {/* The console is another app: a full page load. */}
                <Link href="/console/login">Sign in to the console</Link>
              </Alert>
            )}
            {failure && (
              <Alert severity="error" role="alert">
                {failure}
              </Alert>
            )}
          </Stack>
        </Box>
      </Paper>
      <Typography variant="body2" color="text.secondary">
        Have a UniCode?{' '}
        <Link component={RouterLink} to="/">
          Talk to the assistant
        </Link>
      </Typography>
    </Stack>
  );
}
