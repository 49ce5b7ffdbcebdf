import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import type { CallPage } from '@talkbooth/protocol';
import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { consoleRequest } from '../console-api';
import {
  dateInputValue,
  dayStart,
  formatDateTime,
  formatDuration,
  humanize,
  isDay,
} from '../format';
import { PageHeading, PageStatus } from '../PageStatus';
import { useLoad } from '../use-load';

const STATUSES = ['queued', 'in-progress', 'ended'] as const;

/** The query string the list is asked with: the page's address keeps the filters. */
function listQuery(params: URLSearchParams): string {
  const query = new URLSearchParams();
  for (const key of ['page', 'pageSize', 'status', 'urgent']) {
    const value = params.get(key);
    if (value) query.set(key, value);
  }
  const from = params.get('from');
  const to = params.get('to');
  // A day typed into the address by hand that is not one is left out, not a crash.
  if (from && isDay(from)) query.set('from', dayStart(from));
  if (to && isDay(to)) query.set('to', dayStart(to, 1));
  return query.toString();
}

/** Briefs of a date range as a CSV file, for the practice's records. */
function BriefExport() {
  const [from, setFrom] = useState(() => dateInputValue(new Date(Date.now() - 29 * 86_400_000)));
  const [to, setTo] = useState(() => dateInputValue(new Date()));
  const invalid = from === '' || to === '' || from > to;
  // Only built for a valid range: an emptied date field has no instant.
  const href = invalid
    ? ''
    : `/console/api/briefs.csv?from=${encodeURIComponent(dayStart(from))}&to=${encodeURIComponent(dayStart(to, 1))}`;
  return (
    <Paper
      variant="outlined"
      sx={{ p: 2, mb: 3 }}
      component="section"
      aria-labelledby="export-heading"
    >
      <Typography id="export-heading" variant="h2" sx={{ fontSize: '1.1rem', mb: 1.5 }}>
        Export briefs
      </Typography>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: { sm: 'center' } }}
      >
        <TextField
          label="From"
          type="date"
          size="small"
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          label="To"
          type="date"
          size="small"
          value={to}
          onChange={(e) => setTo(e.target.value)}
          error={invalid && from !== '' && to !== ''}
          helperText={
            invalid && from !== '' && to !== '' ? 'Pick an end on or after the start.' : undefined
          }
          slotProps={{ inputLabel: { shrink: true } }}
        />
        {invalid ? (
          <Button variant="outlined" startIcon={<FileDownloadOutlined />} disabled>
            Download CSV
          </Button>
        ) : (
          <Button
            variant="outlined"
            startIcon={<FileDownloadOutlined />}
            component="a"
            href={href}
            download
          >
            Download CSV
          </Button>
        )}
      </Stack>
    </Paper>
  );
}

/** `/console/calls`: every call of the organisation, newest first, with filters. */
export function CallsPage() {
  const [params, setParams] = useSearchParams();
  const query = listQuery(params);
  const [loaded, reload] = useLoad(
    async () => (await consoleRequest(`/calls?${query}`)) as CallPage,
    query,
  );
  const set = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(key);
      else next.set(key, value);
    }
    if (!('page' in changes)) next.delete('page');
    setParams(next);
  };

  return (
    <>
      <PageHeading title="Calls and briefs" />
      <BriefExport />
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ mb: 2 }}
        component="form"
        aria-label="Filter calls"
        onSubmit={(e) => e.preventDefault()}
      >
        <FormControl size="small" sx={{ minWidth: 160 }}>
          <InputLabel id="status-filter">Status</InputLabel>
          <Select
            labelId="status-filter"
            label="Status"
            value={params.get('status') ?? ''}
            onChange={(e) => set({ status: e.target.value })}
          >
            <MenuItem value="">Any status</MenuItem>
            {STATUSES.map((s) => (
              <MenuItem key={s} value={s}>
                {humanize(s)}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <FormControl size="small" sx={{ minWidth: 160 }}>
          <InputLabel id="urgent-filter">Urgent</InputLabel>
          <Select
            labelId="urgent-filter"
            label="Urgent"
            value={params.get('urgent') ?? ''}
            onChange={(e) => set({ urgent: e.target.value })}
          >
            <MenuItem value="">All calls</MenuItem>
            <MenuItem value="true">Urgent only</MenuItem>
            <MenuItem value="false">Not urgent</MenuItem>
          </Select>
        </FormControl>
        <TextField
          label="From day"
          type="date"
          size="small"
          value={params.get('from') ?? ''}
          onChange={(e) => set({ from: e.target.value })}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          label="To day"
          type="date"
          size="small"
          value={params.get('to') ?? ''}
          onChange={(e) => set({ to: e.target.value })}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      </Stack>
      <PageStatus loaded={loaded} what="the calls" retry={reload}>
        {(page) =>
          page.total === 0 ? (
            <Typography sx={{ py: 3 }}>
              No calls{' '}
              {params.toString() === ''
                ? 'yet. Share an access code and they will appear here.'
                : 'match these filters.'}
            </Typography>
          ) : (
            <Paper variant="outlined">
              <TableContainer>
                <Table size="small" aria-label="Calls">
                  <TableHead>
                    <TableRow>
                      <TableCell>When</TableCell>
                      <TableCell>Assistant</TableCell>
                      <TableCell>Duration</TableCell>
                      <TableCell>Status</TableCell>
                      <TableCell>Ended because</TableCell>
                      <TableCell>Rating</TableCell>
                      <TableCell>Flags</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {page.items.map((call) => (
                      <TableRow key={call.id} hover>
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>
                          <Link component={RouterLink} to={`/console/calls/${call.id}`}>
                            {formatDateTime(call.createdAt)}
                          </Link>
                        </TableCell>
                        <TableCell>{call.assistantName ?? '—'}</TableCell>
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>
                          {formatDuration(call.durationSeconds)}
                        </TableCell>
                        <TableCell>{humanize(call.status)}</TableCell>
                        <TableCell>{humanize(call.endedReason)}</TableCell>
                        <TableCell>{call.rating === null ? '—' : `${call.rating} of 5`}</TableCell>
                        <TableCell>
                          <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
                            {call.urgent && <Chip size="small" color="error" label="Urgent" />}
                            {call.hasBrief && (
                              <Chip size="small" variant="outlined" label="Brief" />
                            )}
                          </Box>
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
              <TablePagination
                component="div"
                count={page.total}
                page={page.page - 1}
                rowsPerPage={page.pageSize}
                rowsPerPageOptions={[20, 50, 100]}
                onPageChange={(_e, next) => set({ page: String(next + 1) })}
                onRowsPerPageChange={(e) => set({ pageSize: e.target.value, page: null })}
              />
            </Paper>
          )
        }
      </PageStatus>
    </>
  );
}
