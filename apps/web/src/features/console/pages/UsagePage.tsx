import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import type { Usage } from '@talkbooth/protocol';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { consoleRequest } from '../console-api';
import { dateInputValue, dayStart, formatDateTime } from '../format';
import { PageHeading, PageStatus } from '../PageStatus';
import { useLoad } from '../use-load';

const RANGES = [7, 30, 90] as const;

function Chart({
  title,
  summary,
  children,
}: {
  title: string;
  summary: string;
  children: ReactNode;
}) {
  const id = `chart-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <Paper variant="outlined" component="figure" aria-labelledby={id} sx={{ p: 2, m: 0 }}>
      <Typography id={id} component="figcaption" variant="h2" sx={{ fontSize: '1.05rem' }}>
        {title}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {summary}
      </Typography>
      <Box sx={{ height: 240 }}>{children}</Box>
    </Paper>
  );
}

const shortDay = (date: string) => date.slice(5);

/** `/console/usage`: calls, minutes, response times and unanswered questions per day. */
export default function UsagePage() {
  const [days, setDays] = useState<(typeof RANGES)[number]>(30);
  const today = dateInputValue(new Date());
  const from = dayStart(today, -(days - 1));
  const to = dayStart(today, 1);
  const [loaded, reload] = useLoad(
    async () =>
      (await consoleRequest(
        `/usage?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
      )) as Usage,
    String(days),
  );

  return (
    <>
      <PageHeading
        title="Usage"
        action={
          <ToggleButtonGroup
            exclusive
            size="small"
            value={days}
            onChange={(_e, value: (typeof RANGES)[number] | null) => value && setDays(value)}
            aria-label="Period"
            color="primary"
            // The theme's default for unselected buttons is too faint on this background.
            sx={{ '& .MuiToggleButton-root': { color: 'text.primary' } }}
          >
            {RANGES.map((n) => (
              <ToggleButton key={n} value={n}>
                {n} days
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
        }
      />
      <PageStatus loaded={loaded} what="the usage" retry={reload}>
        {(usage) => {
          const labels = usage.days.map((d) => shortDay(d.date));
          const calls = usage.days.reduce((n, d) => n + d.calls, 0);
          const minutes = usage.days.reduce((n, d) => n + d.minutes, 0);
          const questions = usage.days.reduce((n, d) => n + d.questions, 0);
          const unanswered = usage.days.reduce((n, d) => n + d.unanswered, 0);
          const share = usage.days.map((d) =>
            d.questions === 0 ? null : Math.round((100 * d.unanswered) / d.questions),
          );
          return (
            <>
              <Box
                sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' } }}
              >
                <Chart
                  title="Calls per day"
                  summary={`${calls} ${calls === 1 ? 'call' : 'calls'} in the last ${days} days.`}
                >
                  <BarChart
                    xAxis={[{ data: labels, scaleType: 'band' }]}
                    yAxis={[{ tickMinStep: 1 }]}
                    series={[{ data: usage.days.map((d) => d.calls), label: 'Calls' }]}
                    hideLegend
                  />
                </Chart>
                <Chart title="Minutes per day" summary={`${minutes.toFixed(1)} minutes of calls.`}>
                  <BarChart
                    xAxis={[{ data: labels, scaleType: 'band' }]}
                    series={[
                      {
                        data: usage.days.map((d) => d.minutes),
                        label: 'Minutes',
                        color: '#00796b',
                      },
                    ]}
                    hideLegend
                  />
                </Chart>
                <Chart
                  title="Response time (voice to voice)"
                  summary="How long callers waited for the assistant to start answering: the median and the slowest 5 %."
                >
                  <LineChart
                    xAxis={[{ data: labels, scaleType: 'point' }]}
                    series={[
                      {
                        data: usage.days.map((d) => d.voiceToVoiceP50Ms),
                        label: 'p50 (ms)',
                        connectNulls: true,
                        showMark: true,
                      },
                      {
                        data: usage.days.map((d) => d.voiceToVoiceP95Ms),
                        label: 'p95 (ms)',
                        connectNulls: true,
                        showMark: true,
                      },
                    ]}
                  />
                </Chart>
                <Chart
                  title="Questions without an answer"
                  summary={
                    questions === 0
                      ? 'No questions asked yet.'
                      : `${unanswered} of ${questions} caller questions (${Math.round((100 * unanswered) / questions)} %) got "I do not know".`
                  }
                >
                  <LineChart
                    xAxis={[{ data: labels, scaleType: 'point' }]}
                    yAxis={[{ min: 0, max: 100 }]}
                    series={[
                      {
                        data: share,
                        label: '% unanswered',
                        connectNulls: true,
                        showMark: true,
                        color: '#c62828',
                      },
                    ]}
                    hideLegend
                  />
                </Chart>
              </Box>
              <Paper
                variant="outlined"
                component="section"
                aria-labelledby="unanswered-heading"
                sx={{ p: 2, mt: 2 }}
              >
                <Typography id="unanswered-heading" variant="h2" sx={{ fontSize: '1.1rem', mb: 1 }}>
                  What callers asked that the assistant could not answer
                </Typography>
                {usage.unansweredQuestions.length === 0 ? (
                  <Typography color="text.secondary">Nothing in this period.</Typography>
                ) : (
                  <>
                    <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                      As the assistant heard them. Add answers to the assistant&apos;s knowledge
                      base for the ones that matter.
                    </Typography>
                    <Box component="ul" sx={{ pl: 2, m: 0 }}>
                      {usage.unansweredQuestions.map((q, index) => (
                        <li key={index}>
                          “{q.question}”{' '}
                          <Link component={RouterLink} to={`/console/calls/${q.callId}`}>
                            {formatDateTime(q.at)}
                          </Link>
                        </li>
                      ))}
                    </Box>
                  </>
                )}
              </Paper>
            </>
          );
        }}
      </PageStatus>
    </>
  );
}
