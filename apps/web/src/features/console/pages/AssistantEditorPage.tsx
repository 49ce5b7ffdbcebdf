import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ArrowBackRounded from '@mui/icons-material/ArrowBackRounded';
import type { Assistant } from '@talkbooth/protocol';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { ApiRequestError, errorMessage } from '../../../lib/api-client';
import type { CallService } from '../../call-booth/call-service';
import { useAccount, useCan } from '../account-context';
import { isSignedOut, sessionPlatformClient } from '../console-api';
import { PageHeading, PageStatus } from '../PageStatus';
import { useLoad } from '../use-load';
import type {
  AssistantDraft,
  FieldErrors,
  IntakeQuestionDraft,
  KnowledgeDraft,
} from './assistant-editor/assistant-form';
import {
  buildPatch,
  hasSecret,
  isFormField,
  serverFieldErrors,
  toDraft,
  validateDraft,
} from './assistant-editor/assistant-form';
import { DeleteAssistant } from './assistant-editor/DeleteAssistant';
import { IntakeEditor } from './assistant-editor/IntakeEditor';
import { KnowledgeEditor } from './assistant-editor/KnowledgeEditor';
import { platformCall } from './assistant-editor/platform-errors';
import { readOnlyInput } from './assistant-editor/read-only';
import { Section } from './assistant-editor/Section';
import { LimitFields, ServerFields, VoiceFields } from './assistant-editor/SettingsFields';
import { TestCallPanel } from './assistant-editor/TestCallPanel';
import { UnsavedChangesGuard } from './assistant-editor/UnsavedChangesGuard';

const ASSISTANTS = '/console/assistants';

/**
 * `/console/assistants/:id`: an assistant's greeting, knowledge base, brief, voice, limits and
 * server messages, saved as a JSON Merge Patch through the platform API; a test call beside
 * it. Viewers read; admins and owners change and delete.
 */
export function AssistantEditorPage({ testCallService }: { testCallService?: CallService }) {
  const { id = '' } = useParams();
  const [loaded, reload] = useLoad(
    () => platformCall(() => sessionPlatformClient().assistant.get(id)),
    id,
  );
  return (
    <>
      <Link
        component={RouterLink}
        to={ASSISTANTS}
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mb: 2 }}
      >
        <ArrowBackRounded fontSize="small" aria-hidden="true" />
        All assistants
      </Link>
      {loaded.state !== 'ready' && <PageHeading title="Assistant" />}
      <PageStatus loaded={loaded} what="the assistant" retry={reload}>
        {(assistant) => (
          <AssistantEditor
            key={assistant.id}
            assistant={assistant}
            testCallService={testCallService}
          />
        )}
      </PageStatus>
    </>
  );
}

function AssistantEditor({
  assistant,
  testCallService,
}: {
  assistant: Assistant;
  testCallService?: CallService;
}) {
  const canEdit = useCan('admin');
  const readOnly = !canEdit;
  const { signedOut } = useAccount();
  const navigate = useNavigate();
  const [saved, setSaved] = useState(assistant);
  const [initial, setInitial] = useState(() => toDraft(assistant));
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [savedNote, setSavedNote] = useState(false);
  const [leaving, setLeaving] = useState(false);
  /** Counts failed saves: after each, the first field in error takes the focus. */
  const [errorRound, setErrorRound] = useState(0);
  const form = useRef<HTMLFormElement>(null);

  const dirty = useMemo(
    () => Object.keys(buildPatch(saved, initial, draft)).length > 0,
    [saved, initial, draft],
  );

  useEffect(() => {
    if (errorRound === 0) return;
    const invalid = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    (invalid ?? form.current?.querySelector<HTMLElement>('[data-save-failure]'))?.focus();
  }, [errorRound]);

  /** Stable, so the big parts of the form (memoised) re-render only when theirs changes. */
  const change = useCallback((next: Partial<AssistantDraft>) => {
    setSavedNote(false);
    setDraft((current) => ({ ...current, ...next }));
    // A field changed: its own message no longer applies.
    setErrors((current) => {
      const stale = Object.keys(next).filter((name) => current[name] !== undefined);
      if (stale.length === 0) return current;
      return Object.fromEntries(Object.entries(current).filter(([name]) => !stale.includes(name)));
    });
  }, []);
  const setKnowledge = useCallback((update: (entries: KnowledgeDraft[]) => KnowledgeDraft[]) => {
    setSavedNote(false);
    setDraft((current) => ({ ...current, knowledge: update(current.knowledge) }));
  }, []);
  const setIntakeQuestions = useCallback(
    (update: (questions: IntakeQuestionDraft[]) => IntakeQuestionDraft[]) => {
      setSavedNote(false);
      setDraft((current) => ({ ...current, intakeQuestions: update(current.intakeQuestions) }));
    },
    [],
  );

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (readOnly || saving) return;
    setSavedNote(false);
    const local = validateDraft(saved, initial, draft);
    if (Object.keys(local).length > 0) {
      setErrors(local);
      setFailure('Some fields need a change before saving: see the messages below.');
      setErrorRound((n) => n + 1);
      return;
    }
    const patch = buildPatch(saved, initial, draft);
    if (Object.keys(patch).length === 0) return;
    const sent = draft;
    setSaving(true);
    try {
      const updated = await platformCall(() =>
        sessionPlatformClient().assistant.update(saved.id, patch),
      );
      const next = toDraft(updated);
      setSaved(updated);
      setInitial(next);
      setDraft(next);
      setErrors({});
      setFailure(null);
      setSavedNote(true);
    } catch (error) {
      if (isSignedOut(error)) return signedOut();
      const fields = error instanceof ApiRequestError ? error.fields : {};
      const byField = serverFieldErrors(fields, sent);
      setErrors(byField);
      const unplaced = Object.entries(byField).filter(([key]) => !isFormField(key));
      const placed = Object.keys(byField).length > unplaced.length;
      setFailure(
        placed && unplaced.length === 0
          ? 'The changes were not saved: see the messages below.'
          : `The changes were not saved. ${errorMessage(error)}`,
      );
      setErrorRound((n) => n + 1);
    } finally {
      setSaving(false);
    }
  };

  const discard = () => {
    setDraft(initial);
    setErrors({});
    setFailure(null);
  };

  const title = saved.name?.trim() || 'Untitled assistant';
  return (
    <>
      <PageHeading
        title={title}
        action={
          canEdit && (
            <DeleteAssistant
              id={saved.id}
              name={title}
              onDeleted={() => {
                setLeaving(true);
                void navigate(ASSISTANTS, { state: { deleted: title } });
              }}
            />
          )
        }
      />
      <UnsavedChangesGuard when={dirty && !leaving} />
      {readOnly && (
        <Alert severity="info" role="note" sx={{ mb: 2 }}>
          You can read this assistant. Changing it needs the admin role: ask an owner of your
          organisation.
        </Alert>
      )}
      <Box
        sx={{
          display: 'grid',
          gap: 3,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 3fr) minmax(0, 2fr)' },
          alignItems: 'start',
        }}
      >
        <Box component="form" ref={form} noValidate onSubmit={save} aria-label="Assistant settings">
          <Stack spacing={3}>
            {failure && (
              <Alert severity="error" role="alert" tabIndex={-1} data-save-failure>
                {failure}
                <UnplacedErrors errors={errors} />
              </Alert>
            )}
            <Section title="Name and greeting">
              <Stack spacing={2}>
                <TextField
                  label="Name"
                  value={draft.name}
                  onChange={(e) => change({ name: e.target.value })}
                  error={errors.name !== undefined}
                  helperText={errors.name ?? 'Shown in the console and the call records.'}
                  required={!readOnly}
                  slotProps={readOnlyInput(readOnly)}
                />
                <TextField
                  label="Greeting"
                  multiline
                  minRows={2}
                  value={draft.firstMessage}
                  onChange={(e) => change({ firstMessage: e.target.value })}
                  error={errors.firstMessage !== undefined}
                  helperText={
                    errors.firstMessage ??
                    'The first thing the assistant says. {{name}} becomes the caller’s name. Empty: the assistant waits for the caller to speak.'
                  }
                  slotProps={readOnlyInput(readOnly)}
                />
              </Stack>
            </Section>
            <Section
              title="Knowledge base"
              description="What the assistant can answer: the questions callers ask, and its answer. Mark an entry urgent to have it answered at once when a caller describes an emergency."
            >
              <KnowledgeEditor
                entries={draft.knowledge}
                setEntries={setKnowledge}
                errors={errors}
                readOnly={readOnly}
              />
            </Section>
            <Section
              title="Pre-visit brief"
              description="The questions the assistant asks, in order, when a caller gives a brief for the visit."
            >
              <IntakeEditor
                questions={draft.intakeQuestions}
                trigger={draft.intakeTrigger}
                closing={draft.intakeClosing}
                setQuestions={setIntakeQuestions}
                onChange={change}
                errors={errors}
                readOnly={readOnly}
              />
            </Section>
            <Section title="Voice">
              <VoiceFields draft={draft} onChange={change} errors={errors} readOnly={readOnly} />
            </Section>
            <Section title="Call limits">
              <LimitFields draft={draft} onChange={change} errors={errors} readOnly={readOnly} />
            </Section>
            <Section
              title="Server messages"
              description="Send the call’s events to your own server (webhooks)."
            >
              <ServerFields
                draft={draft}
                onChange={change}
                errors={errors}
                readOnly={readOnly}
                secretStored={hasSecret(saved)}
              />
            </Section>
            {!readOnly && (
              <SaveBar dirty={dirty} saving={saving} savedNote={savedNote} onDiscard={discard} />
            )}
          </Stack>
        </Box>
        <TestCallPanel
          assistantId={saved.id}
          canCall={canEdit}
          unsaved={dirty}
          service={testCallService}
        />
      </Box>
    </>
  );
}

/** Messages about fields the form has no place for (listed in the failure alert). */
function UnplacedErrors({ errors }: { errors: FieldErrors }) {
  const unplaced = Object.entries(errors).filter(([key]) => !isFormField(key));
  if (unplaced.length === 0) return null;
  return (
    <Box component="ul" sx={{ m: 0, mt: 1, pl: 2.5 }}>
      {unplaced.map(([key, message]) => (
        <li key={key}>
          {key === 'body' ? '' : `${key}: `}
          {message}
        </li>
      ))}
    </Box>
  );
}

/** Save and discard, kept in view at the bottom of the screen while the form scrolls. */
function SaveBar({
  dirty,
  saving,
  savedNote,
  onDiscard,
}: {
  dirty: boolean;
  saving: boolean;
  savedNote: boolean;
  onDiscard: () => void;
}) {
  const status = saving
    ? 'Saving…'
    : dirty
      ? 'You have unsaved changes.'
      : savedNote
        ? 'All changes saved.'
        : 'No changes.';
  return (
    <Paper
      elevation={3}
      sx={{
        position: 'sticky',
        bottom: 0,
        zIndex: 1,
        p: 1.5,
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        gap: 1.5,
      }}
    >
      <Typography role="status" sx={{ flex: '1 1 160px' }}>
        {status}
      </Typography>
      <Button onClick={onDiscard} disabled={!dirty || saving}>
        Discard changes
      </Button>
      <Button
        type="submit"
        variant="contained"
        disabled={!dirty || saving}
        startIcon={saving ? <CircularProgress size={16} aria-hidden="true" /> : undefined}
      >
        {saving ? 'Saving…' : 'Save changes'}
      </Button>
    </Paper>
  );
}
