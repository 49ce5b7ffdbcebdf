import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddRounded from '@mui/icons-material/AddRounded';
import { memo, useCallback, useRef, useState } from 'react';
import type { FieldErrors, KnowledgeDraft } from './assistant-form';
import { emptyKnowledgeEntry } from './assistant-form';
import { RowActions, moved } from './RowActions';
import { visuallyHidden } from '../../hidden-label';
import { readOnlyInput } from './read-only';

/** Changes the list from what it is now (stable: rows re-render only when theirs changes). */
export type SetEntries = (update: (entries: KnowledgeDraft[]) => KnowledgeDraft[]) => void;

/**
 * The knowledge base: entries of questions (one a line) and the answer the assistant gives to
 * them, in order; an urgent entry is answered at once when the caller describes an emergency.
 */
export const KnowledgeEditor = memo(function KnowledgeEditor({
  entries,
  setEntries,
  errors,
  readOnly,
}: {
  entries: KnowledgeDraft[];
  setEntries: SetEntries;
  errors: FieldErrors;
  readOnly: boolean;
}) {
  const addButton = useRef<HTMLButtonElement>(null);
  /** The entry just added: its first field takes the focus. */
  const [added, setAdded] = useState<string | null>(null);
  const onRemoved = useCallback(() => addButton.current?.focus(), []);

  return (
    <Stack spacing={2}>
      {errors.knowledge && <FormHelperText error>{errors.knowledge}</FormHelperText>}
      {entries.length === 0 && (
        <Typography color="text.secondary">
          No entries yet. The assistant answers only what its entries cover.
          {!readOnly && ' Press Add entry to write the first one.'}
        </Typography>
      )}
      {entries.map((entry, index) => (
        <KnowledgeEntryRow
          key={entry.key}
          entry={entry}
          index={index}
          count={entries.length}
          errors={errors}
          readOnly={readOnly}
          setEntries={setEntries}
          focusFirst={added === entry.key}
          onRemoved={onRemoved}
        />
      ))}
      {!readOnly && (
        <Box>
          <Button
            ref={addButton}
            variant="outlined"
            startIcon={<AddRounded aria-hidden="true" />}
            onClick={() => {
              const entry = emptyKnowledgeEntry();
              setAdded(entry.key);
              setEntries((current) => [...current, entry]);
            }}
          >
            Add entry
          </Button>
        </Box>
      )}
    </Stack>
  );
});

const KnowledgeEntryRow = memo(function KnowledgeEntryRow({
  entry,
  index,
  count,
  errors,
  readOnly,
  setEntries,
  focusFirst,
  onRemoved,
}: {
  entry: KnowledgeDraft;
  index: number;
  count: number;
  errors: FieldErrors;
  readOnly: boolean;
  setEntries: SetEntries;
  focusFirst: boolean;
  onRemoved: () => void;
}) {
  const label = `entry ${index + 1}`;
  const error = (field: string) => errors[`knowledge.${entry.key}.${field}`];
  const headingId = `knowledge-${entry.key}`;
  const update = (change: Partial<KnowledgeDraft>) =>
    setEntries((current) => current.map((e) => (e.key === entry.key ? { ...e, ...change } : e)));
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={headingId}
      sx={{ p: { xs: 1.5, sm: 2 } }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1.5 }}>
        <Typography
          id={headingId}
          variant="h3"
          sx={{ fontSize: '1rem', fontWeight: 700, flex: 1, minWidth: 0 }}
          noWrap
        >
          Entry {index + 1}
          {entry.id.trim() !== '' && (
            <Typography component="span" color="text.secondary" sx={{ ml: 1 }}>
              {entry.id}
            </Typography>
          )}
        </Typography>
        {!readOnly && (
          <RowActions
            label={label}
            index={index}
            count={count}
            onMove={(by) =>
              setEntries((current) =>
                moved(
                  current,
                  current.findIndex((e) => e.key === entry.key),
                  by,
                ),
              )
            }
            onRemove={() => {
              setEntries((current) => current.filter((e) => e.key !== entry.key));
              onRemoved();
            }}
          />
        )}
      </Box>
      <Stack spacing={2}>
        <TextField
          label={`Questions of ${label}`}
          multiline
          minRows={2}
          value={entry.questions}
          onChange={(e) => update({ questions: e.target.value })}
          error={error('questions') !== undefined}
          helperText={error('questions') ?? 'One question a line, in the words a caller would use.'}
          autoFocus={focusFirst}
          slotProps={readOnlyInput(readOnly)}
        />
        <TextField
          label={`Answer of ${label}`}
          multiline
          minRows={2}
          value={entry.answer}
          onChange={(e) => update({ answer: e.target.value })}
          error={error('answer') !== undefined}
          helperText={error('answer') ?? 'What the assistant says: one or two sentences.'}
          slotProps={readOnlyInput(readOnly)}
        />
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
          <TextField
            label={`Short name of ${label}`}
            size="small"
            value={entry.id}
            onChange={(e) => update({ id: e.target.value })}
            error={error('id') !== undefined}
            helperText={error('id') ?? 'Optional; made from the first question.'}
            sx={{ flex: '1 1 200px' }}
            slotProps={readOnlyInput(readOnly)}
          />
          <FormControlLabel
            control={
              <Checkbox
                checked={entry.urgent}
                onChange={(e) => update({ urgent: e.target.checked })}
                disabled={readOnly}
              />
            }
            label={
              <>
                Urgent
                <Box component="span" sx={visuallyHidden}>
                  , {label}
                </Box>
              </>
            }
            sx={{ flex: '1 1 160px' }}
          />
        </Box>
      </Stack>
    </Paper>
  );
});
