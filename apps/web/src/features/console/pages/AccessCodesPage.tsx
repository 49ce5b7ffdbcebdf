import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import GlobalStyles from '@mui/material/GlobalStyles';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Select from '@mui/material/Select';
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
import PrintOutlined from '@mui/icons-material/PrintOutlined';
import type { AccessCode, Assistant, CreatedAccessCode } from '@talkbooth/protocol';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useCan } from '../account-context';
import { failureMessage, fieldErrors, sessionPlatformClient } from '../console-api';
import { dayStart, formatDateTime, humanize } from '../format';
import { PageHeading, PageStatus } from '../PageStatus';
import { useLoad } from '../use-load';
import { ActionsHeaderCell } from '../hidden-label';
import { AccessCodeCard } from './AccessCodeCard';

interface Data {
  codes: AccessCode[];
  assistants: Assistant[];
}

function usesLeft(code: AccessCode): string {
  if (code.maxUses === null) return 'No limit';
  return `${Math.max(0, code.maxUses - code.useCount)} of ${code.maxUses}`;
}

/** The dialog that makes a code: it is shown once, with its printable card. */
function CreateCodeDialog({
  assistants,
  onClose,
  onCreated,
}: {
  assistants: Assistant[];
  onClose: () => void;
  onCreated: () => void;
}) {
  const [assistantId, setAssistantId] = useState(assistants[0]?.id ?? '');
  const [label, setLabel] = useState('');
  const [expires, setExpires] = useState('');
  const [maxUses, setMaxUses] = useState('');
  const [fields, setFields] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedAccessCode | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const local: Record<string, string> = {};
    if (assistantId === '') local.assistantId = 'Choose the assistant the code opens.';
    if (maxUses !== '' && !(Number.isInteger(Number(maxUses)) && Number(maxUses) >= 1)) {
      local.maxUses = 'A whole number of at least 1, or leave it empty for no limit.';
    }
    if (expires !== '' && dayStart(expires, 1) <= new Date().toISOString()) {
      local.expiresAt = 'Pick a day from today on.';
    }
    setFields(local);
    if (Object.keys(local).length > 0) return;
    setSending(true);
    setFailure(null);
    try {
      const code = await sessionPlatformClient().accessCode.create({
        assistantId,
        ...(label.trim() === '' ? {} : { label: label.trim() }),
        // The code works to the end of the chosen day.
        ...(expires === '' ? {} : { expiresAt: dayStart(expires, 1) }),
        ...(maxUses === '' ? {} : { maxUses: Number(maxUses) }),
      });
      setCreated(code);
      onCreated();
    } catch (error) {
      setFields(fieldErrors(error));
      setFailure(failureMessage(error));
    } finally {
      setSending(false);
    }
  };

  if (created) {
    const name = assistants.find((a) => a.id === created.assistantId)?.name ?? 'the assistant';
    return (
      <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="created-code-title">
        {/* Printing shows the card alone, at the top of the sheet. */}
        <GlobalStyles
          styles={{
            '@media print': {
              'body *': { visibility: 'hidden' },
              '[data-testid="access-code-card"], [data-testid="access-code-card"] *': {
                visibility: 'visible',
              },
              '[data-testid="access-code-card"]': { position: 'fixed', top: 0, left: 0, right: 0 },
            },
          }}
        />
        <DialogTitle id="created-code-title">Your new access code</DialogTitle>
        <DialogContent>
          <Alert severity="warning" sx={{ mb: 2, displayPrint: 'none' }}>
            This is the only time the code is shown: only a hash of it is stored. Print the card or
            copy the code now.
          </Alert>
          <AccessCodeCard code={created.code} label={created.label} assistantName={name} />
        </DialogContent>
        <DialogActions sx={{ displayPrint: 'none' }}>
          <Button onClick={() => void navigator.clipboard?.writeText(created.code)}>
            Copy the code
          </Button>
          <Button startIcon={<PrintOutlined />} onClick={() => window.print()}>
            Print the card
          </Button>
          <Button variant="contained" onClick={onClose}>
            Done
          </Button>
        </DialogActions>
      </Dialog>
    );
  }

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="new-code-title">
      <Box component="form" noValidate onSubmit={submit}>
        <DialogTitle id="new-code-title">New access code</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {failure && (
              <Alert severity="error" role="alert">
                {failure}
              </Alert>
            )}
            <FormControl error={fields.assistantId !== undefined} required>
              <InputLabel id="code-assistant">Assistant</InputLabel>
              <Select
                labelId="code-assistant"
                label="Assistant"
                value={assistantId}
                onChange={(e) => setAssistantId(e.target.value)}
              >
                {assistants.map((a) => (
                  <MenuItem key={a.id} value={a.id}>
                    {a.name ?? a.id}
                  </MenuItem>
                ))}
              </Select>
              {fields.assistantId && <FormHelperText>{fields.assistantId}</FormHelperText>}
            </FormControl>
            <TextField
              label="Label"
              helperText={fields.label ?? 'Where the code is used, e.g. "Waiting room poster".'}
              error={fields.label !== undefined}
              value={label}
              onChange={(e) => setLabel(e.target.value)}
              slotProps={{ htmlInput: { maxLength: 200 } }}
            />
            <TextField
              label="Works until (optional)"
              type="date"
              value={expires}
              onChange={(e) => setExpires(e.target.value)}
              error={fields.expiresAt !== undefined}
              helperText={fields.expiresAt ?? 'Leave empty for a code that does not expire.'}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <TextField
              label="Maximum uses (optional)"
              type="number"
              value={maxUses}
              onChange={(e) => setMaxUses(e.target.value)}
              error={fields.maxUses !== undefined}
              helperText={fields.maxUses ?? 'Leave empty for no limit.'}
              slotProps={{ htmlInput: { min: 1, step: 1 } }}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={sending}>
            {sending ? 'Creating…' : 'Create code'}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

/** `/console/codes`: the codes visitors enter, with uses left; make one, revoke one. */
export function AccessCodesPage() {
  const canChange = useCan('admin');
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<AccessCode | null>(null);
  const [revokeError, setRevokeError] = useState<string | null>(null);
  const [loaded, reload] = useLoad<Data>(async () => {
    const client = sessionPlatformClient();
    const [codes, assistants] = await Promise.all([
      client.accessCode.list(),
      client.assistant.list(),
    ]);
    return { codes, assistants };
  }, 'codes');

  const revoke = async () => {
    if (!revoking) return;
    try {
      await sessionPlatformClient().accessCode.revoke(revoking.id);
      setRevoking(null);
      reload();
    } catch (error) {
      setRevokeError(failureMessage(error));
    }
  };

  return (
    <>
      <PageHeading
        title="Access codes"
        action={
          canChange && (
            <Button
              variant="contained"
              startIcon={<AddOutlined />}
              onClick={() => setCreating(true)}
            >
              New access code
            </Button>
          )
        }
      />
      <PageStatus loaded={loaded} what="the access codes" retry={reload}>
        {({ codes, assistants }) => (
          <>
            {creating && (
              <CreateCodeDialog
                assistants={assistants}
                onClose={() => setCreating(false)}
                onCreated={reload}
              />
            )}
            {codes.length === 0 ? (
              <Typography>
                No access codes yet. Make one and hand it to a visitor, or print its card.
              </Typography>
            ) : (
              <Paper variant="outlined">
                <TableContainer>
                  <Table size="small" aria-label="Access codes">
                    <TableHead>
                      <TableRow>
                        <TableCell>Label</TableCell>
                        <TableCell>Assistant</TableCell>
                        <TableCell>Status</TableCell>
                        <TableCell>Uses left</TableCell>
                        <TableCell>Expires</TableCell>
                        <TableCell>Created</TableCell>
                        {canChange && <ActionsHeaderCell />}
                      </TableRow>
                    </TableHead>
                    <TableBody>
                      {codes.map((code) => (
                        <TableRow key={code.id}>
                          <TableCell>{code.label ?? '—'}</TableCell>
                          <TableCell>
                            {assistants.find((a) => a.id === code.assistantId)?.name ?? '—'}
                          </TableCell>
                          <TableCell>
                            <Chip
                              size="small"
                              color={code.status === 'active' ? 'success' : 'default'}
                              label={humanize(code.status)}
                            />
                          </TableCell>
                          <TableCell>{usesLeft(code)}</TableCell>
                          <TableCell>
                            {code.expiresAt ? formatDateTime(code.expiresAt) : 'Never'}
                          </TableCell>
                          <TableCell>{formatDateTime(code.createdAt)}</TableCell>
                          {canChange && (
                            <TableCell>
                              {code.status === 'active' && (
                                <Button
                                  color="error"
                                  size="small"
                                  onClick={() => {
                                    setRevokeError(null);
                                    setRevoking(code);
                                  }}
                                  aria-label={`Revoke ${code.label ?? 'this code'}`}
                                >
                                  Revoke
                                </Button>
                              )}
                            </TableCell>
                          )}
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </TableContainer>
              </Paper>
            )}
          </>
        )}
      </PageStatus>
      <Dialog
        open={revoking !== null}
        onClose={() => setRevoking(null)}
        aria-labelledby="revoke-title"
      >
        <DialogTitle id="revoke-title">Revoke this access code?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            Visitors with the code “{revoking?.label ?? 'without a label'}” will no longer reach the
            assistant. Calls already going on are not cut off. This cannot be undone.
          </DialogContentText>
          {revokeError && (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              {revokeError}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setRevoking(null)}>Keep it</Button>
          <Button color="error" variant="contained" onClick={() => void revoke()}>
            Revoke
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
