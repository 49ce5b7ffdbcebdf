import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import PrintOutlined from '@mui/icons-material/PrintOutlined';
import type { Call, CallFeedback } from '@talkbooth/protocol';
import type { ReactNode } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { callClock, questionLabel, viewOf } from '../call-view';
import { consoleRequest, sessionPlatformClient } from '../console-api';
import { formatDateTime, formatDuration, humanize } from '../format';
import { PageHeading, PageStatus } from '../PageStatus';
import { useLoad } from '../use-load';

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `section-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ p: 2, mb: 2 }}>
      <Typography id={id} variant="h2" sx={{ fontSize: '1.15rem', mb: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** The brief as labelled fields; shared with the print view. */
export function BriefFields({ brief }: { brief: [string, string | null][] }) {
  return (
    <Box
      component="dl"
      sx={{
        m: 0,
        display: 'grid',
        gridTemplateColumns: { sm: 'max-content 1fr' },
        columnGap: 3,
        rowGap: 1,
      }}
    >
      {brief.map(([question, answer]) => (
        <Box key={question} sx={{ display: 'contents' }}>
          <Typography component="dt" sx={{ fontWeight: 600 }}>
            {questionLabel(question)}
          </Typography>
          <Typography
            component="dd"
            sx={{ m: 0, mb: { xs: 1, sm: 0 } }}
            color={answer ? 'text.primary' : 'text.secondary'}
          >
            {answer ?? 'Not answered'}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

interface Loaded {
  call: Call;
  feedback: CallFeedback[];
  /** The assistant's name; null once it has been deleted. */
  assistantName: string | null;
}

async function assistantNameOf(call: Call): Promise<string | null> {
  if (call.assistantId === undefined) return null;
  try {
    return (await sessionPlatformClient().assistant.get(call.assistantId)).name ?? null;
  } catch {
    return null;
  }
}

/** `/console/calls/:id`: what was said, the brief, the summary, feedback and latency. */
export function CallPage() {
  const { id = '' } = useParams();
  const [loaded, reload] = useLoad<Loaded>(async () => {
    const [call, feedback] = await Promise.all([
      sessionPlatformClient().call.get(id),
      consoleRequest(`/calls/${encodeURIComponent(id)}/feedback`) as Promise<CallFeedback[]>,
    ]);
    return { call, feedback, assistantName: await assistantNameOf(call) };
  }, id);
  return (
    <>
      <Link component={RouterLink} to="/console/calls" sx={{ display: 'inline-block', mb: 2 }}>
        ← All calls
      </Link>
      <PageStatus loaded={loaded} what="this call" retry={reload}>
        {({ call, feedback, assistantName }) => {
          const view = viewOf(call);
          return (
            <>
              <PageHeading
                title={`Call of ${formatDateTime(call.createdAt)}`}
                action={
                  view.brief.length > 0 && (
                    <Button
                      component={RouterLink}
                      to={`/console/calls/${call.id}/brief`}
                      variant="outlined"
                      startIcon={<PrintOutlined />}
                    >
                      Print the brief
                    </Button>
                  )
                }
              />
              <Stack direction="row" spacing={1} sx={{ mb: 2, flexWrap: 'wrap', rowGap: 1 }}>
                {view.urgent && <Chip color="error" label="Urgent" />}
                {assistantName && <Chip variant="outlined" label={`Assistant: ${assistantName}`} />}
                <Chip variant="outlined" label={humanize(call.status)} />
                {call.endedReason && (
                  <Chip variant="outlined" label={`Ended: ${humanize(call.endedReason)}`} />
                )}
                <Chip
                  variant="outlined"
                  label={`Duration ${formatDuration(view.durationSeconds)}`}
                />
              </Stack>
              {view.urgent && (
                <Alert severity="error" sx={{ mb: 2 }}>
                  The caller described something urgent and was given the emergency answer.
                </Alert>
              )}
              <Section title="Summary">
                <Typography>
                  {view.summary ?? 'No summary yet (the call may still be going).'}
                </Typography>
              </Section>
              <Section title="Brief">
                {view.brief.length === 0 ? (
                  <Typography color="text.secondary">No brief was taken on this call.</Typography>
                ) : (
                  <>
                    <Typography
                      sx={{ mb: 1.5 }}
                      color={view.briefConfirmed ? 'success.main' : 'warning.main'}
                    >
                      {view.briefConfirmed
                        ? 'Confirmed by the caller.'
                        : 'Not confirmed by the caller.'}
                    </Typography>
                    <BriefFields brief={view.brief} />
                  </>
                )}
              </Section>
              <Section title="Transcript">
                {view.lines.length === 0 ? (
                  <Typography color="text.secondary">Nothing was said yet.</Typography>
                ) : (
                  <Box
                    component="ol"
                    sx={{ listStyle: 'none', p: 0, m: 0 }}
                    aria-label="Transcript"
                  >
                    {view.lines.map((line, index) => (
                      <Box component="li" key={index} sx={{ display: 'flex', gap: 1.5, py: 0.75 }}>
                        <Typography
                          component="span"
                          variant="body2"
                          color="text.secondary"
                          sx={{ minWidth: 40, fontVariantNumeric: 'tabular-nums' }}
                        >
                          {callClock(line.secondsFromStart)}
                        </Typography>
                        <Typography component="span">
                          <Box component="strong" sx={{ mr: 1 }}>
                            {line.role === 'caller' ? 'Caller:' : 'Assistant:'}
                          </Box>
                          {line.text}
                        </Typography>
                      </Box>
                    ))}
                  </Box>
                )}
              </Section>
              {call.recordingUrl && (
                <Section title="Recording">
                  <audio
                    controls
                    preload="none"
                    src={`/platform/call/${call.id}/recording`}
                    aria-label="Call recording"
                    style={{ width: '100%' }}
                  />
                </Section>
              )}
              <Section title="Visitor feedback">
                {feedback.length === 0 ? (
                  <Typography color="text.secondary">The visitor left no feedback.</Typography>
                ) : (
                  feedback.map((f, index) => (
                    <Box key={index} sx={{ mb: 1 }}>
                      <Typography sx={{ fontWeight: 600 }}>
                        {f.rating === null ? 'No rating' : `Rated ${f.rating} of 5`}
                      </Typography>
                      {f.message !== '' && <Typography>“{f.message}”</Typography>}
                    </Box>
                  ))
                )}
              </Section>
              <Section title="Response times">
                {view.turns.length === 0 ? (
                  <Typography color="text.secondary">No turns were measured.</Typography>
                ) : (
                  <TableContainer>
                    <Table size="small" aria-label="Response time per turn">
                      <TableHead>
                        <TableRow>
                          <TableCell>Turn</TableCell>
                          <TableCell>Voice to voice</TableCell>
                          <TableCell>Recognition</TableCell>
                          <TableCell>First audio</TableCell>
                          <TableCell>Model</TableCell>
                        </TableRow>
                      </TableHead>
                      <TableBody>
                        {view.turns.map((t) => (
                          <TableRow key={t.turn}>
                            <TableCell>{t.turn}</TableCell>
                            <TableCell>
                              {t.voiceToVoiceMs === null
                                ? '—'
                                : `${Math.round(t.voiceToVoiceMs)} ms`}
                            </TableCell>
                            <TableCell>
                              {t.recognitionMs === null ? '—' : `${Math.round(t.recognitionMs)} ms`}
                            </TableCell>
                            <TableCell>
                              {t.firstAudioMs === null ? '—' : `${Math.round(t.firstAudioMs)} ms`}
                            </TableCell>
                            <TableCell>{t.model ?? '—'}</TableCell>
                          </TableRow>
                        ))}
                      </TableBody>
                    </Table>
                  </TableContainer>
                )}
              </Section>
            </>
          );
        }}
      </PageStatus>
    </>
  );
}
