import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type {
  AccountRole,
  CreatedInvite,
  Invite,
  Member,
  PasswordReset,
  Team,
} from '@talkbooth/protocol';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { useAccount, useCan } from '../account-context';
import { consoleRequest } from '../console-api';
import { PageHeading, PageStatus } from '../PageStatus';
import { useLoad } from '../use-load';
import { ConfirmDialog } from '../ConfirmDialog';
import { CopyableSecret } from '../CopyableSecret';
import { formatDateTime } from '../format';
import { ActionsHeaderCell } from '../hidden-label';

const ROLE_NAMES: Record<AccountRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  viewer: 'Viewer',
};

const ROLE_CHOICES: readonly { role: AccountRole; text: string }[] = [
  { role: 'viewer', text: 'Viewer: reads calls, briefs and usage' },
  { role: 'admin', text: 'Admin: also changes assistants and access codes' },
  { role: 'owner', text: 'Owner: also runs the team and the API keys' },
];

/** A small native select of roles: keyboard- and phone-friendly. */
function RoleSelect({
  value,
  onChange,
  disabled,
  label,
  hiddenLabel,
  id,
}: {
  value: AccountRole;
  onChange: (role: AccountRole) => void;
  disabled?: boolean;
  label: string;
  /** The column header says it: the label is for assistive technology only. */
  hiddenLabel?: boolean;
  id?: string;
}) {
  return (
    <TextField
      select
      size="small"
      id={id}
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value as AccountRole)}
      {...(hiddenLabel ? {} : { label })}
      slotProps={{
        select: { native: true },
        htmlInput: hiddenLabel ? { 'aria-label': label } : {},
      }}
      sx={{ minWidth: 130, maxWidth: '100%' }}
    >
      {ROLE_CHOICES.map((choice) => (
        <option key={choice.role} value={choice.role}>
          {hiddenLabel ? ROLE_NAMES[choice.role] : choice.text}
        </option>
      ))}
    </TextField>
  );
}

/** `/console/team`: members and their roles, password resets and invite links (owners only). */
export function TeamPage() {
  const owner = useCan('owner');
  return (
    <>
      <PageHeading title="Team" />
      {owner ? (
        <TeamManager />
      ) : (
        <Alert severity="info">
          Only an owner of your organisation can see and manage the team. Ask an owner to invite
          someone, change a role or reset a password.
        </Alert>
      )}
    </>
  );
}

type Confirm =
  | { kind: 'reset'; member: Member }
  | { kind: 'revoke-invite'; invite: Invite }
  | { kind: 'demote-self'; member: Member; role: AccountRole };

function TeamManager() {
  const { account } = useAccount();
  const [loaded, reload] = useLoad(async () => (await consoleRequest('/team')) as Team, 'team');
  /** Roles changed on this page, over what was loaded. */
  const [saved, setSaved] = useState<Record<string, AccountRole>>({});
  const [changing, setChanging] = useState<{ id: string; role: AccountRole } | null>(null);
  const [roleMessage, setRoleMessage] = useState<{
    severity: 'success' | 'error' | 'info';
    text: string;
  } | null>(null);
  /** The question asked; kept while its dialog closes, so the text does not change then. */
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [confirmBusy, setConfirmBusy] = useState(false);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const [reset, setReset] = useState<{ member: Member; password: string } | null>(null);

  const changeRole = async (member: Member, role: AccountRole) => {
    setChanging({ id: member.id, role });
    setRoleMessage(null);
    try {
      const updated = (await consoleRequest(`/team/members/${encodeURIComponent(member.id)}`, {
        method: 'PATCH',
        body: { role },
      })) as Member;
      setSaved((prev) => ({ ...prev, [member.id]: updated.role }));
      setRoleMessage(
        member.id === account.id
          ? {
              severity: 'info',
              text: `You are now ${ROLE_NAMES[updated.role].toLowerCase()}. Reload the console to see what you may do now.`,
            }
          : {
              severity: 'success',
              text: `${member.username} is now ${ROLE_NAMES[updated.role].toLowerCase()}.`,
            },
      );
      return true;
    } catch (error) {
      setRoleMessage({
        severity: 'error',
        text: `Could not change the role of ${member.username}. ${errorMessage(error)}`,
      });
      return false;
    } finally {
      setChanging(null);
    }
  };

  const ask = (question: Confirm) => {
    setConfirmError(null);
    setConfirm(question);
    setConfirmOpen(true);
  };

  const askRole = (member: Member, role: AccountRole) => {
    if (role === (saved[member.id] ?? member.role)) return;
    // Giving up one's own ownership locks one out of this page: ask first.
    if (member.id === account.id && role !== 'owner') {
      ask({ kind: 'demote-self', member, role });
      return;
    }
    void changeRole(member, role);
  };

  const closeConfirm = () => {
    setConfirmOpen(false);
    setConfirmError(null);
  };

  const runConfirmed = async () => {
    if (confirm === null || !confirmOpen) return;
    setConfirmBusy(true);
    setConfirmError(null);
    try {
      if (confirm.kind === 'reset') {
        const answer = (await consoleRequest(
          `/team/members/${encodeURIComponent(confirm.member.id)}/reset-password`,
          { method: 'POST', body: {} },
        )) as PasswordReset;
        setReset({ member: confirm.member, password: answer.temporaryPassword });
      } else if (confirm.kind === 'revoke-invite') {
        await consoleRequest(`/team/invites/${encodeURIComponent(confirm.invite.id)}`, {
          method: 'DELETE',
        });
        reload();
      } else {
        const member = confirm.member;
        const role = confirm.role;
        setConfirmOpen(false);
        await changeRole(member, role);
        return;
      }
      setConfirmOpen(false);
    } catch (error) {
      setConfirmError(errorMessage(error));
    } finally {
      setConfirmBusy(false);
    }
  };

  return (
    <PageStatus loaded={loaded} what="the team" retry={reload}>
      {(team) => (
        <Stack spacing={4}>
          <InviteSection onCreated={reload} />

          <Box component="section" aria-labelledby="team-members">
            <Typography id="team-members" variant="h2" sx={{ fontSize: '1.25rem', mb: 1 }}>
              Members
            </Typography>
            {roleMessage && (
              <Alert
                severity={roleMessage.severity}
                role={roleMessage.severity === 'error' ? 'alert' : 'status'}
                onClose={() => setRoleMessage(null)}
                sx={{ mb: 2 }}
              >
                {roleMessage.text}
              </Alert>
            )}
            <TableContainer component={Paper} variant="outlined">
              <Table size="small" aria-labelledby="team-members" sx={{ minWidth: 560 }}>
                <TableHead>
                  <TableRow>
                    <TableCell>Name</TableCell>
                    <TableCell>E-mail</TableCell>
                    <TableCell>Role</TableCell>
                    <ActionsHeaderCell />
                  </TableRow>
                </TableHead>
                <TableBody>
                  {team.members.map((member) => {
                    const pending = changing?.id === member.id ? changing.role : undefined;
                    const role = pending ?? saved[member.id] ?? member.role;
                    return (
                      <TableRow key={member.id}>
                        <TableCell>
                          {member.username}
                          {member.id === account.id && (
                            <Typography component="span" variant="body2" color="text.secondary">
                              {' '}
                              (you)
                            </Typography>
                          )}
                        </TableCell>
                        <TableCell sx={{ wordBreak: 'break-all' }}>{member.email}</TableCell>
                        <TableCell>
                          <RoleSelect
                            hiddenLabel
                            label={`Role of ${member.username}`}
                            value={role}
                            disabled={pending !== undefined}
                            onChange={(next) => askRole(member, next)}
                          />
                        </TableCell>
                        <TableCell align="right">
                          <Button
                            size="small"
                            aria-label={`Reset the password of ${member.username}`}
                            onClick={() => ask({ kind: 'reset', member })}
                          >
                            Reset password
                          </Button>
                        </TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            </TableContainer>
          </Box>

          <Box component="section" aria-labelledby="team-invites">
            <Typography id="team-invites" variant="h2" sx={{ fontSize: '1.25rem', mb: 1 }}>
              Open invite links
            </Typography>
            {team.invites.length === 0 ? (
              <Typography color="text.secondary">
                No open invite links. A link stops working once someone has joined with it, or when
                it expires.
              </Typography>
            ) : (
              <TableContainer component={Paper} variant="outlined">
                <Table size="small" aria-labelledby="team-invites" sx={{ minWidth: 480 }}>
                  <TableHead>
                    <TableRow>
                      <TableCell>Role</TableCell>
                      <TableCell>Created</TableCell>
                      <TableCell>Expires</TableCell>
                      <ActionsHeaderCell />
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {team.invites.map((invite) => (
                      <TableRow key={invite.id}>
                        <TableCell>{ROLE_NAMES[invite.role]}</TableCell>
                        <TableCell>{formatDateTime(invite.createdAt)}</TableCell>
                        <TableCell>{formatDateTime(invite.expiresAt)}</TableCell>
                        <TableCell align="right">
                          <Button
                            size="small"
                            color="error"
                            aria-label={`Revoke the ${ROLE_NAMES[invite.role].toLowerCase()} invite created ${formatDateTime(invite.createdAt)}`}
                            onClick={() => ask({ kind: 'revoke-invite', invite })}
                          >
                            Revoke
                          </Button>
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
            )}
          </Box>

          <ConfirmDialog
            open={confirmOpen}
            busy={confirmBusy}
            error={confirmError}
            onClose={closeConfirm}
            onConfirm={() => void runConfirmed()}
            title={
              confirm?.kind === 'reset'
                ? `Reset the password of ${confirm.member.username}?`
                : confirm?.kind === 'revoke-invite'
                  ? 'Revoke this invite link?'
                  : 'Stop being an owner?'
            }
            confirmLabel={
              confirm?.kind === 'reset'
                ? 'Reset password'
                : confirm?.kind === 'revoke-invite'
                  ? 'Revoke link'
                  : 'Change my role'
            }
          >
            {confirm?.kind === 'reset' &&
              'Their current password stops working at once and they are signed out everywhere. You get a one-time password to give them.'}
            {confirm?.kind === 'revoke-invite' &&
              'Nobody can join with this link any more. You can make a new one at any time.'}
            {confirm?.kind === 'demote-self' &&
              `You become ${ROLE_NAMES[confirm.role].toLowerCase()} and can no longer manage the team or the API keys. Only another owner can make you owner again.`}
          </ConfirmDialog>

          <Dialog
            open={reset !== null}
            aria-labelledby="team-reset-title"
            fullWidth
            maxWidth="sm"
            // Closing forgets the password: only the button does it, not a stray click.
            onClose={(_event, reason) => reason !== 'backdropClick' && setReset(null)}
          >
            <DialogTitle id="team-reset-title">
              One-time password for {reset?.member.username}
            </DialogTitle>
            <DialogContent>
              <Stack spacing={2} sx={{ pt: 1 }}>
                {reset && <CopyableSecret label="One-time password" value={reset.password} />}
                <Alert severity="warning">
                  This password is shown only once. Give it to {reset?.member.username} in person or
                  over a channel you trust; they should change it under “Your account” after signing
                  in.
                </Alert>
              </Stack>
            </DialogContent>
            <DialogActions>
              <Button variant="contained" onClick={() => setReset(null)}>
                Done
              </Button>
            </DialogActions>
          </Dialog>
        </Stack>
      )}
    </PageStatus>
  );
}

/** Makes an invite link for one person, in the role picked; the link is shown once. */
function InviteSection({ onCreated }: { onCreated: () => void }) {
  const [role, setRole] = useState<AccountRole>('viewer');
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedInvite | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSending(true);
    setFailure(null);
    setCreated(null);
    try {
      setCreated((await consoleRequest('/team/invites', { body: { role } })) as CreatedInvite);
      onCreated();
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setSending(false);
    }
  };

  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby="team-invite"
      sx={{ p: { xs: 2, sm: 3 } }}
    >
      <Typography id="team-invite" variant="h2" sx={{ fontSize: '1.25rem', mb: 1 }}>
        Invite someone
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Make a link for one person to register and join your organisation in the role you pick.
      </Typography>
      <Box
        component="form"
        noValidate
        onSubmit={(event) => void submit(event)}
        aria-labelledby="team-invite"
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}
      >
        <RoleSelect
          id="team-invite-role"
          label="Role for the new person"
          value={role}
          onChange={setRole}
        />
        <Button
          type="submit"
          variant="contained"
          disabled={sending}
          startIcon={
            sending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined
          }
        >
          {sending ? 'Creating the link…' : 'Create invite link'}
        </Button>
      </Box>
      {failure && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          Could not create the invite link. {failure}
        </Alert>
      )}
      {created && (
        <Stack spacing={1} sx={{ mt: 3 }}>
          <CopyableSecret label="Invite link" value={created.url} />
          <Alert
            severity="warning"
            action={
              <Button color="inherit" size="small" onClick={() => setCreated(null)}>
                Done
              </Button>
            }
          >
            This link is shown only once: copy it now and send it to the person you invite. It lets
            one person join as {ROLE_NAMES[created.role].toLowerCase()} until{' '}
            {formatDateTime(created.expiresAt)}.
          </Alert>
        </Stack>
      )}
    </Paper>
  );
}
