import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddRounded from '@mui/icons-material/AddRounded';
import ChevronRightRounded from '@mui/icons-material/ChevronRightRounded';
import type { Assistant } from '@talkbooth/protocol';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { ApiRequestError, errorMessage } from '../../../lib/api-client';
import { useAccount, useCan } from '../account-context';
import { isSignedOut, sessionPlatformClient } from '../console-api';
import { PageHeading, PageStatus } from '../PageStatus';
import { useLoad } from '../use-load';
import {
  EMBEDDED_MODEL,
  EMBEDDED_TRANSCRIBER,
  EMBEDDED_VOICE,
} from './assistant-editor/assistant-form';
import { platformCall } from './assistant-editor/platform-errors';

/** How much of the greeting the list shows. */
const EXCERPT_LENGTH = 120;

export function excerpt(text: string | undefined, length = EXCERPT_LENGTH): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length <= length ? flat : `${flat.slice(0, length - 1).trimEnd()}…`;
}

const updatedFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
});

function formatUpdated(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : updatedFormat.format(date);
}

/**
 * `/console/assistants`: the organisation's assistants, each opening its editor. Admins and
 * owners create new ones; viewers read.
 */
export function AssistantsPage() {
  const canEdit = useCan('admin');
  const location = useLocation();
  const deleted = (location.state as { deleted?: unknown } | null)?.deleted;
  const [loaded, reload] = useLoad(
    () => platformCall(() => sessionPlatformClient().assistant.list()),
    'assistants',
  );
  const [creating, setCreating] = useState(false);

  return (
    <>
      <PageHeading
        title="Assistants"
        action={
          canEdit && (
            <Button
              variant="contained"
              startIcon={<AddRounded aria-hidden="true" />}
              onClick={() => setCreating(true)}
            >
              New assistant
            </Button>
          )
        }
      />
      {typeof deleted === 'string' && (
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          “{deleted}” was deleted.
        </Alert>
      )}
      {!canEdit && (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          You can read the assistants; changing them needs the admin role.
        </Typography>
      )}
      <PageStatus loaded={loaded} what="the assistants" retry={reload}>
        {(assistants) => <AssistantList assistants={assistants} canEdit={canEdit} />}
      </PageStatus>
      {canEdit && <NewAssistantDialog open={creating} onClose={() => setCreating(false)} />}
    </>
  );
}

function AssistantList({ assistants, canEdit }: { assistants: Assistant[]; canEdit: boolean }) {
  if (assistants.length === 0) {
    return (
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Typography>No assistants yet.</Typography>
        <Typography color="text.secondary">
          {canEdit
            ? 'Press New assistant to create one, then write its greeting and knowledge base.'
            : 'An admin of your organisation can create one.'}
        </Typography>
      </Paper>
    );
  }
  return (
    <Paper variant="outlined">
      <List aria-label="Assistants" disablePadding>
        {assistants.map((assistant, index) => {
          const name = assistant.name?.trim() || 'Untitled assistant';
          const greeting = excerpt(assistant.firstMessage);
          return (
            <ListItem key={assistant.id} disablePadding divider={index < assistants.length - 1}>
              <ListItemButton
                component={RouterLink}
                to={`/console/assistants/${encodeURIComponent(assistant.id)}`}
                sx={{ gap: 1, alignItems: 'flex-start', py: 1.5 }}
              >
                <ListItemText
                  primary={name}
                  slotProps={{
                    primary: { sx: { fontWeight: 600, overflowWrap: 'anywhere' } },
                    secondary: { component: 'div' },
                  }}
                  secondary={
                    <>
                      <Box component="span" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
                        {greeting === '' ? 'No greeting' : `“${greeting}”`}
                      </Box>
                      <Box component="span" sx={{ display: 'block', mt: 0.5 }}>
                        Updated{' '}
                        <time dateTime={assistant.updatedAt}>
                          {formatUpdated(assistant.updatedAt)}
                        </time>
                      </Box>
                    </>
                  }
                />
                <ChevronRightRounded aria-hidden="true" sx={{ alignSelf: 'center' }} />
              </ListItemButton>
            </ListItem>
          );
        })}
      </List>
    </Paper>
  );
}

/**
 * Creates an assistant with a name on the embedded engines (as the demo assistant), then
 * opens it to write the rest.
 */
function NewAssistantDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { signedOut } = useAccount();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const titleId = useId();
  const textId = useId();

  const close = () => {
    if (sending) return;
    setName('');
    setError(null);
    setFailure(null);
    onClose();
  };

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (name.trim() === '') {
      setError('Give the assistant a name.');
      return;
    }
    setError(null);
    setSending(true);
    try {
      const created = await platformCall(() =>
        sessionPlatformClient().assistant.create({
          name: name.trim(),
          transcriber: { ...EMBEDDED_TRANSCRIBER },
          model: { ...EMBEDDED_MODEL },
          voice: { ...EMBEDDED_VOICE },
        }),
      );
      void navigate(`/console/assistants/${encodeURIComponent(created.id)}`);
    } catch (caught) {
      setSending(false);
      if (isSignedOut(caught)) return signedOut();
      const fieldMessage = caught instanceof ApiRequestError ? caught.fields.name : undefined;
      if (fieldMessage !== undefined) setError(fieldMessage);
      else setFailure(errorMessage(caught));
    }
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      aria-labelledby={titleId}
      aria-describedby={textId}
      fullWidth
      maxWidth="xs"
    >
      <Box component="form" noValidate onSubmit={create}>
        <DialogTitle id={titleId}>New assistant</DialogTitle>
        <DialogContent>
          <DialogContentText id={textId} sx={{ mb: 2 }}>
            Give it a name; you write its greeting and knowledge base next.
          </DialogContentText>
          {failure && (
            <Alert severity="error" role="alert" sx={{ mb: 2 }}>
              Could not create the assistant. {failure}
            </Alert>
          )}
          <TextField
            label="Name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={error !== null}
            helperText={error ?? 'Like “Front desk” or “After-hours line”.'}
            required
            fullWidth
            autoFocus
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={sending}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={sending}
            startIcon={sending ? <CircularProgress size={16} aria-hidden="true" /> : undefined}
          >
            {sending ? 'Creating…' : 'Create and open'}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
