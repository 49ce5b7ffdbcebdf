import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { VOICE_PROVIDERS } from '@talkbooth/protocol';
import { useId } from 'react';
import type { AssistantDraft, FieldErrors, SecretDraft } from './assistant-form';
import { FINAL_TRANSCRIPT, LIMITS, SERVER_MESSAGE_CHOICES } from './assistant-form';
import { readOnlyInput } from './read-only';

type Change = (change: Partial<AssistantDraft>) => void;

interface FieldsProps {
  draft: AssistantDraft;
  onChange: Change;
  errors: FieldErrors;
  readOnly: boolean;
}

/**
 * Voices of the embedded synthesiser (eSpeak NG) worth offering: a language tag, optionally
 * with `+variant`. The server takes any eSpeak language tag, voice name or identifier, and
 * falls back to en-us for one it does not know.
 */
export const ESPEAK_VOICES = [
  { id: 'en-us', label: 'English (America)' },
  { id: 'en-us+f3', label: 'English (America), female variant' },
  { id: 'en-us+m3', label: 'English (America), male variant' },
  { id: 'en-gb', label: 'English (Great Britain)' },
  { id: 'en-gb+f2', label: 'English (Great Britain), female variant' },
  { id: 'en-gb-scotland', label: 'English (Scotland)' },
  { id: 'en-gb-x-rp', label: 'English (Received Pronunciation)' },
] as const;

/** The voice the assistant speaks with. */
export function VoiceFields({ draft, onChange, errors, readOnly }: FieldsProps) {
  const listId = useId();
  const embedded = draft.voiceProvider === 'espeak';
  return (
    <Stack spacing={2}>
      <TextField
        select
        label="Voice provider"
        value={draft.voiceProvider}
        onChange={(e) => onChange({ voiceProvider: e.target.value })}
        error={errors['voice.provider'] !== undefined}
        helperText={
          errors['voice.provider'] ??
          (embedded
            ? 'espeak: the voice built into this server, offline.'
            : 'This server speaks with its built-in voice (espeak, en-us) when it has no such provider.')
        }
        disabled={readOnly}
      >
        {VOICE_PROVIDERS.map((provider) => (
          <MenuItem key={provider} value={provider}>
            {provider === 'espeak' ? 'espeak (built in)' : provider}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        label="Voice"
        value={draft.voiceId}
        onChange={(e) => onChange({ voiceId: e.target.value })}
        error={errors['voice.voiceId'] !== undefined}
        helperText={
          errors['voice.voiceId'] ??
          (embedded
            ? 'An eSpeak language such as en-us or en-gb, with +f3 or +m3 for another voice variant. Unknown names are spoken with en-us.'
            : 'The voice name at that provider.')
        }
        slotProps={{ htmlInput: { list: embedded ? listId : undefined, readOnly } }}
      />
      {embedded && (
        <datalist id={listId}>
          {ESPEAK_VOICES.map((voice) => (
            <option key={voice.id} value={voice.id}>
              {voice.label}
            </option>
          ))}
        </datalist>
      )}
    </Stack>
  );
}

/** How long a call may last, and how long it may stay silent. */
export function LimitFields({ draft, onChange, errors, readOnly }: FieldsProps) {
  const field = (name: 'maxDurationSeconds' | 'silenceTimeoutSeconds', label: string) => {
    const { min, max } = LIMITS[name];
    return (
      <TextField
        label={label}
        type="number"
        value={draft[name]}
        onChange={(e) => onChange({ [name]: e.target.value })}
        error={errors[name] !== undefined}
        helperText={errors[name] ?? `${min} to ${max} seconds; empty for the default.`}
        sx={{ flex: '1 1 220px' }}
        slotProps={{ htmlInput: { min, max, step: 1, inputMode: 'numeric', readOnly } }}
      />
    );
  };
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
      {field('maxDurationSeconds', 'Longest call (seconds)')}
      {field('silenceTimeoutSeconds', 'End after silence of (seconds)')}
    </Box>
  );
}

/** Where the call's server messages (webhooks) go, their secret, and which ones. */
export function ServerFields({
  draft,
  onChange,
  errors,
  readOnly,
  secretStored,
}: FieldsProps & { secretStored: boolean }) {
  const wanted = new Set(draft.serverMessages);
  const has = (type: string) =>
    wanted.has(type) || (type === 'transcript' && wanted.has(FINAL_TRANSCRIPT));
  const toggle = (type: string, on: boolean) => {
    const rest = draft.serverMessages.filter(
      (t) => t !== type && !(type === 'transcript' && t === FINAL_TRANSCRIPT),
    );
    onChange({ serverMessages: on ? [...rest, type] : rest });
  };
  return (
    <Stack spacing={2}>
      <TextField
        label="Server URL"
        type="url"
        value={draft.serverUrl}
        onChange={(e) => onChange({ serverUrl: e.target.value })}
        error={errors.serverUrl !== undefined}
        helperText={
          errors.serverUrl ??
          'The call’s messages are POSTed here as JSON, like https://example.org/hooks/calls. Empty for none.'
        }
        slotProps={{ htmlInput: { inputMode: 'url', autoComplete: 'off', readOnly } }}
      />
      <SecretField
        secret={draft.secret}
        stored={secretStored}
        onChange={(secret) => onChange({ secret })}
        error={errors.serverUrlSecret}
        readOnly={readOnly}
      />
      <FormControl
        component="fieldset"
        error={errors.serverMessages !== undefined}
        disabled={readOnly}
      >
        <FormLabel component="legend">Messages to send</FormLabel>
        <FormGroup>
          {SERVER_MESSAGE_CHOICES.map((choice) => (
            <FormControlLabel
              key={choice.type}
              control={
                <Checkbox
                  checked={has(choice.type)}
                  onChange={(e) => toggle(choice.type, e.target.checked)}
                />
              }
              label={
                <>
                  {choice.label}{' '}
                  <Typography component="code" variant="body2" color="text.secondary">
                    {choice.type}
                  </Typography>
                </>
              }
            />
          ))}
        </FormGroup>
        {errors.serverMessages && <FormHelperText>{errors.serverMessages}</FormHelperText>}
      </FormControl>
    </Stack>
  );
}

/**
 * The webhook secret is write-only: the form says whether one is set, never what it is, and
 * offers to replace or remove it.
 */
function SecretField({
  secret,
  stored,
  onChange,
  error,
  readOnly,
}: {
  secret: SecretDraft;
  stored: boolean;
  onChange: (secret: SecretDraft) => void;
  error: string | undefined;
  readOnly: boolean;
}) {
  const statusId = useId();
  const status = stored ? 'A secret is set.' : 'No secret is set.';
  if (readOnly || (stored && secret.mode === 'keep')) {
    return (
      <Box>
        <Typography variant="subtitle2" component="p">
          Server URL secret
        </Typography>
        <Typography id={statusId} color="text.secondary" sx={{ mb: 1 }}>
          {status} It is sent with every message (header x-vapi-secret) and never shown here.
        </Typography>
        {!readOnly && (
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
            <Button
              variant="outlined"
              aria-describedby={statusId}
              onClick={() => onChange({ mode: 'replace', value: '' })}
            >
              Replace secret
            </Button>
            <Button
              color="error"
              aria-describedby={statusId}
              onClick={() => onChange({ mode: 'remove' })}
            >
              Remove secret
            </Button>
          </Stack>
        )}
      </Box>
    );
  }
  if (secret.mode === 'remove') {
    return (
      <Box>
        <Typography variant="subtitle2" component="p">
          Server URL secret
        </Typography>
        <Typography role="status" sx={{ mb: 1 }}>
          The secret is removed when you save.
        </Typography>
        <Button variant="outlined" onClick={() => onChange({ mode: 'keep' })}>
          Keep the secret
        </Button>
      </Box>
    );
  }
  const value = secret.mode === 'replace' ? secret.value : '';
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'flex-start' }}>
      <TextField
        label={stored ? 'New server URL secret' : 'Server URL secret (optional)'}
        type="password"
        autoComplete="new-password"
        value={value}
        onChange={(e) =>
          onChange(
            e.target.value === '' && !stored
              ? { mode: 'keep' }
              : { mode: 'replace', value: e.target.value },
          )
        }
        error={error !== undefined}
        helperText={
          error ??
          'Sent with every message (header x-vapi-secret), so your server knows they come from here. Write-only.'
        }
        sx={{ flex: '1 1 260px' }}
        slotProps={readOnlyInput(readOnly)}
      />
      {stored && (
        <Button sx={{ mt: 1 }} onClick={() => onChange({ mode: 'keep' })}>
          Keep the current secret
        </Button>
      )}
    </Box>
  );
}
