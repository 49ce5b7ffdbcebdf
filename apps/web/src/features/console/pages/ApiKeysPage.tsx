import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddOutlined from '@mui/icons-material/AddOutlined';
import type { ApiKey, CreatedApiKey } from '@talkbooth/protocol';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { ApiRequestError, errorMessage } from '../../../lib/api-client';
import { useCan } from '../account-context';
import { consoleRequest } from '../console-api';
import { PageHeading, PageStatus } from '../PageStatus';
import { useLoad } from '../use-load';
import { ConfirmDialog } from '../ConfirmDialog';
import { CopyableSecret } from '../CopyableSecret';
import { formatDateTime } from '../format';
import { ActionsHeaderCell } from '../hidden-label';

type Kind = ApiKey['kind'];
type Field = 'kind' | 'name' | 'allowedOrigins';
type FieldErrors = Partial<Record<Field, string>>;

/** The origins typed one per line or separated by commas. */
export function parseOrigins(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
}

/**
 * The server's per-field messages on the form's fields. An origin's message comes keyed
 * by its place (`allowedOrigins.1`): it names the origin it is about.
 */
function fieldErrorsOf(
  fields: Readonly<Record<string, string>>,
  origins: readonly string[],
): FieldErrors {
  const errors: FieldErrors = {};
  for (const [key, message] of Object.entries(fields)) {
    const [field, index] = key.split('.');
    if (field === 'kind' || field === 'name') errors[field] ??= message;
    else if (field === 'allowedOrigins') {
      const origin = index === undefined ? undefined : origins[Number(index)];
      errors.allowedOrigins ??= origin === undefined ? message : `“${origin}”: ${message}`;
    }
  }
  return errors;
}

/** `/console/keys`: the organisation's platform API keys (owners only). */
export function ApiKeysPage() {
  const owner = useCan('owner');
  if (!owner) {
    return (
      <>
        <PageHeading title="API keys" />
        <Alert severity="info">
          Only an owner of your organisation can see and manage API keys. Ask an owner if you need a
          key.
        </Alert>
      </>
    );
  }
  return <KeyManager />;
}

function KeyManager() {
  const [loaded, reload] = useLoad(async () => (await consoleRequest('/keys')) as ApiKey[], 'keys');
  const [creating, setCreating] = useState(false);
  /** The key asked about; kept while the dialog closes, so its text does not change then. */
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [revokeOpen, setRevokeOpen] = useState(false);
  const [revokeBusy, setRevokeBusy] = useState(false);
  const [revokeError, setRevokeError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const revoke = async () => {
    if (revoking === null || !revokeOpen) return;
    setRevokeBusy(true);
    setRevokeError(null);
    try {
      await consoleRequest(`/keys/${encodeURIComponent(revoking.id)}/revoke`, {
        method: 'POST',
        body: {},
      });
      setNotice(`The key “${revoking.name}” is revoked.`);
      setRevokeOpen(false);
      reload();
    } catch (error) {
      setRevokeError(errorMessage(error));
    } finally {
      setRevokeBusy(false);
    }
  };

  return (
    <>
      <PageHeading
        title="API keys"
        action={
          <Button
            variant="contained"
            startIcon={<AddOutlined aria-hidden="true" />}
            onClick={() => setCreating(true)}
          >
            Create key
          </Button>
        }
      />
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Keys let your own software use the platform API. A private key is for your servers and must
        stay secret; a public key is for web pages and works only from the origins you allow.
      </Typography>
      {notice && (
        <Alert severity="success" role="status" onClose={() => setNotice(null)} sx={{ mb: 2 }}>
          {notice}
        </Alert>
      )}
      <PageStatus loaded={loaded} what="the API keys" retry={reload}>
        {(keys) =>
          keys.length === 0 ? (
            <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
              <Typography variant="h2" sx={{ fontSize: '1.25rem', mb: 1 }}>
                No API keys yet
              </Typography>
              <Typography color="text.secondary">
                Create a private key for your servers, or a public key for the call widget on your
                website.
              </Typography>
            </Paper>
          ) : (
            <TableContainer component={Paper} variant="outlined">
              <Table size="small" aria-label="API keys" sx={{ minWidth: 720 }}>
                <TableHead>
                  <TableRow>
                    <TableCell>Name</TableCell>
                    <TableCell>Kind</TableCell>
                    <TableCell>Key</TableCell>
                    <TableCell>Allowed origins</TableCell>
                    <TableCell>Created</TableCell>
                    <TableCell>Status</TableCell>
                    <ActionsHeaderCell />
                  </TableRow>
                </TableHead>
                <TableBody>
                  {keys.map((key) => (
                    <TableRow key={key.id}>
                      <TableCell>{key.name}</TableCell>
                      <TableCell>{key.kind === 'private' ? 'Private' : 'Public'}</TableCell>
                      <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
                        …{key.hint}
                      </TableCell>
                      <TableCell sx={{ wordBreak: 'break-all' }}>
                        {key.kind === 'private'
                          ? '—'
                          : key.allowedOrigins.length === 0
                            ? 'Any'
                            : key.allowedOrigins.join(', ')}
                      </TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>
                        {formatDateTime(key.createdAt)}
                      </TableCell>
                      <TableCell>
                        {key.revokedAt === null ? (
                          <Chip size="small" color="success" label="Active" />
                        ) : (
                          <Chip size="small" label={`Revoked ${formatDateTime(key.revokedAt)}`} />
                        )}
                      </TableCell>
                      <TableCell align="right">
                        {key.revokedAt === null && (
                          <Button
                            size="small"
                            color="error"
                            aria-label={`Revoke the key ${key.name}`}
                            onClick={() => {
                              setRevokeError(null);
                              setRevoking(key);
                              setRevokeOpen(true);
                            }}
                          >
                            Revoke
                          </Button>
                        )}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )
        }
      </PageStatus>

      <ConfirmDialog
        open={revokeOpen}
        title={`Revoke the key “${revoking?.name ?? ''}”?`}
        confirmLabel="Revoke key"
        busy={revokeBusy}
        error={revokeError}
        onClose={() => setRevokeOpen(false)}
        onConfirm={() => void revoke()}
      >
        Anything using this key stops working at once. This cannot be undone.
      </ConfirmDialog>

      {creating && (
        <CreateKeyDialog
          onClose={() => setCreating(false)}
          onCreated={() => {
            setNotice(null);
            reload();
          }}
        />
      )}
    </>
  );
}

/** The form for a new key, then the key itself: shown this once. */
function CreateKeyDialog({ onClose, onCreated }: { onClose: () => void; onCreated: () => void }) {
  const [kind, setKind] = useState<Kind>('private');
  const [name, setName] = useState('');
  const [origins, setOrigins] = useState('');
  const [fields, setFields] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    setFailure(null);
    if (name.trim() === '') {
      setFields({ name: 'Give the key a name.' });
      return;
    }
    const allowedOrigins = kind === 'public' ? parseOrigins(origins) : [];
    setFields({});
    setSending(true);
    try {
      const answer = (await consoleRequest('/keys', {
        body: { kind, name: name.trim(), allowedOrigins },
      })) as CreatedApiKey;
      setCreated(answer);
      onCreated();
    } catch (error) {
      if (error instanceof ApiRequestError) setFields(fieldErrorsOf(error.fields, allowedOrigins));
      setFailure(errorMessage(error));
    } finally {
      setSending(false);
    }
  };

  return (
    <Dialog
      open
      fullWidth
      maxWidth="sm"
      aria-labelledby="new-key-title"
      // Once the key shows, only "Done" closes: a stray click must not lose it.
      onClose={(_event, reason) => {
        if (sending) return;
        if (created !== null && reason === 'backdropClick') return;
        onClose();
      }}
    >
      {created === null ? (
        <Box component="form" noValidate onSubmit={submit} aria-labelledby="new-key-title">
          <DialogTitle id="new-key-title">Create an API key</DialogTitle>
          <DialogContent>
            <Stack spacing={2.5} sx={{ pt: 1 }}>
              {failure && (
                <Alert severity="error" role="alert">
                  {failure}
                </Alert>
              )}
              <FormControl error={fields.kind !== undefined}>
                <FormLabel id="new-key-kind">Kind</FormLabel>
                <RadioGroup
                  aria-labelledby="new-key-kind"
                  value={kind}
                  onChange={(event) => setKind(event.target.value as Kind)}
                >
                  <FormControlLabel
                    value="private"
                    control={<Radio />}
                    label="Private: for your servers, full access. Keep it secret."
                  />
                  <FormControlLabel
                    value="public"
                    control={<Radio />}
                    label="Public: for web pages, only from the origins you allow."
                  />
                </RadioGroup>
                {fields.kind && (
                  <Typography color="error" variant="body2">
                    {fields.kind}
                  </Typography>
                )}
              </FormControl>
              <TextField
                id="new-key-name"
                label="Name"
                required
                autoFocus
                value={name}
                onChange={(event) => {
                  setName(event.target.value);
                  if (fields.name) setFields((prev) => ({ ...prev, name: undefined }));
                }}
                error={fields.name !== undefined}
                helperText={fields.name ?? 'So you recognise it later, like “Website widget”.'}
                slotProps={{ htmlInput: { maxLength: 80 } }}
              />
              {kind === 'public' && (
                <TextField
                  id="new-key-origins"
                  label="Allowed origins"
                  multiline
                  minRows={2}
                  value={origins}
                  onChange={(event) => {
                    setOrigins(event.target.value);
                    if (fields.allowedOrigins)
                      setFields((prev) => ({ ...prev, allowedOrigins: undefined }));
                  }}
                  error={fields.allowedOrigins !== undefined}
                  helperText={
                    fields.allowedOrigins ??
                    'One per line or separated by commas, like https://clinic.example. Leave it empty to allow any website.'
                  }
                  placeholder="https://clinic.example"
                />
              )}
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose} disabled={sending}>
              Cancel
            </Button>
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
              {sending ? 'Creating…' : 'Create key'}
            </Button>
          </DialogActions>
        </Box>
      ) : (
        <>
          <DialogTitle id="new-key-title">Your new key “{created.record.name}”</DialogTitle>
          <DialogContent>
            <Stack spacing={2} sx={{ pt: 1 }}>
              <Alert severity="warning">
                Copy this key now and keep it somewhere safe. It is not shown again: if it is lost,
                revoke it and create a new one.
              </Alert>
              <CopyableSecret label="API key" value={created.key} />
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button variant="contained" onClick={onClose}>
              Done
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
