import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddRounded from '@mui/icons-material/AddRounded';
import { memo, useRef, useState } from 'react';
import type { AssistantDraft, FieldErrors, IntakeQuestionDraft } from './assistant-form';
import { emptyIntakeQuestion } from './assistant-form';
import { RowActions, moved } from './RowActions';
import { readOnlyInput } from './read-only';

type IntakeFields = Pick<AssistantDraft, 'intakeTrigger' | 'intakeClosing'>;

/**
 * The pre-visit brief: the questions the assistant asks in order (each with the label its
 * answer gets in the brief), the phrases that start it, and the line that closes it.
 */
export const IntakeEditor = memo(function IntakeEditor({
  questions,
  trigger,
  closing,
  setQuestions,
  onChange,
  errors,
  readOnly,
}: {
  questions: IntakeQuestionDraft[];
  trigger: string;
  closing: string;
  /** Changes the questions from what they are now. */
  setQuestions: (update: (questions: IntakeQuestionDraft[]) => IntakeQuestionDraft[]) => void;
  onChange: (change: Partial<IntakeFields>) => void;
  errors: FieldErrors;
  readOnly: boolean;
}) {
  const addButton = useRef<HTMLButtonElement>(null);
  const [added, setAdded] = useState<string | null>(null);
  const update = (key: string, change: Partial<IntakeQuestionDraft>) =>
    setQuestions((current) => current.map((q) => (q.key === key ? { ...q, ...change } : q)));

  return (
    <Stack spacing={2}>
      {errors.intake && <FormHelperText error>{errors.intake}</FormHelperText>}
      {questions.length === 0 && (
        <Typography color="text.secondary">
          No brief questions: the assistant does not offer a brief.
          {!readOnly && ' Press Add question to write the first one.'}
        </Typography>
      )}
      <Stack component="ol" spacing={2} sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {questions.map((question, index) => {
          const label = `brief question ${index + 1}`;
          const error = (field: string) => errors[`intake.${question.key}.${field}`];
          return (
            <Box
              component="li"
              key={question.key}
              sx={{
                display: 'flex',
                flexWrap: 'wrap',
                gap: 1,
                alignItems: 'flex-start',
                pb: 2,
                borderBottom: 1,
                borderColor: 'divider',
              }}
            >
              <TextField
                label={`Question ${index + 1}`}
                value={question.ask}
                onChange={(e) => update(question.key, { ask: e.target.value })}
                error={error('ask') !== undefined}
                helperText={error('ask')}
                autoFocus={added === question.key}
                sx={{ flex: '3 1 260px' }}
                slotProps={readOnlyInput(readOnly)}
              />
              <TextField
                label={`Label of question ${index + 1}`}
                size="small"
                value={question.id}
                onChange={(e) => update(question.key, { id: e.target.value })}
                error={error('id') !== undefined}
                helperText={error('id') ?? 'Names the answer in the brief; optional.'}
                sx={{ flex: '1 1 160px' }}
                slotProps={readOnlyInput(readOnly)}
              />
              {!readOnly && (
                <RowActions
                  label={label}
                  index={index}
                  count={questions.length}
                  onMove={(by) =>
                    setQuestions((current) =>
                      moved(
                        current,
                        current.findIndex((q) => q.key === question.key),
                        by,
                      ),
                    )
                  }
                  onRemove={() => {
                    setQuestions((current) => current.filter((q) => q.key !== question.key));
                    addButton.current?.focus();
                  }}
                />
              )}
            </Box>
          );
        })}
      </Stack>
      {!readOnly && (
        <Box>
          <Button
            ref={addButton}
            variant="outlined"
            startIcon={<AddRounded aria-hidden="true" />}
            onClick={() => {
              const question = emptyIntakeQuestion();
              setAdded(question.key);
              setQuestions((current) => [...current, question]);
            }}
          >
            Add question
          </Button>
        </Box>
      )}
      <TextField
        label="Phrases that start the brief"
        multiline
        minRows={2}
        value={trigger}
        onChange={(e) => onChange({ intakeTrigger: e.target.value })}
        error={errors['intake.trigger'] !== undefined}
        helperText={
          errors['intake.trigger'] ??
          'One a line, like “take a brief”. Callers who ask for a brief in other words are understood too.'
        }
        slotProps={readOnlyInput(readOnly)}
      />
      <TextField
        label="Closing line"
        multiline
        value={closing}
        onChange={(e) => onChange({ intakeClosing: e.target.value })}
        error={errors['intake.closing'] !== undefined}
        helperText={
          errors['intake.closing'] ?? 'Said when the brief is complete; empty for the default.'
        }
        slotProps={readOnlyInput(readOnly)}
      />
    </Stack>
  );
});
