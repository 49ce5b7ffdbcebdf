import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import type { Account } from '@talkbooth/protocol';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { errorMessage } from '../../lib/api-client';
import { AccountContext, type AccountState } from './account-context';
import { ConsoleLoginPage } from './ConsoleLoginPage';
import { ConsoleShell } from './ConsoleShell';
import { currentAccount } from './console-api';
import { AccessCodesPage } from './pages/AccessCodesPage';
import { AccountPage } from './pages/AccountPage';
import { ApiKeysPage } from './pages/ApiKeysPage';
import { AssistantEditorPage } from './pages/AssistantEditorPage';
import { AssistantsPage } from './pages/AssistantsPage';
import { BriefPrintPage } from './pages/BriefPrintPage';
import { CallPage } from './pages/CallPage';
import { CallsPage } from './pages/CallsPage';
import { TeamPage } from './pages/TeamPage';
import { UsageRoute } from './pages/UsageRoute';
import { WebhooksPage } from './pages/WebhooksPage';

type Session =
  | { state: 'checking' }
  | { state: 'failed'; message: string }
  | { state: 'signed-out' }
  | { state: 'signed-in'; account: Account };

/**
 * `/console/*`: the operator console, its own chunk. Asks who is signed in; without a
 * session every console address shows the sign-in page, and after signing in the person
 * lands where they were going.
 */
export default function ConsoleApp() {
  const [session, setSession] = useState<Session>({ state: 'checking' });
  const [round, setRound] = useState(0);
  const navigate = useNavigate();
  const location = useLocation();

  useEffect(() => {
    let current = true;
    currentAccount().then(
      (account) =>
        current &&
        setSession(account === null ? { state: 'signed-out' } : { state: 'signed-in', account }),
      (error: unknown) => current && setSession({ state: 'failed', message: errorMessage(error) }),
    );
    return () => {
      current = false;
    };
  }, [round]);

  const signedOut = useCallback(() => {
    setSession({ state: 'signed-out' });
    void navigate('/console/login');
  }, [navigate]);
  const state = useMemo<AccountState | null>(
    () => (session.state === 'signed-in' ? { account: session.account, signedOut } : null),
    [session, signedOut],
  );

  useEffect(() => {
    document.title = 'Console · Talkbooth';
  }, [location.pathname]);

  if (session.state === 'checking') {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '100vh' }} role="status">
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'center' }}>
          <CircularProgress size={24} aria-hidden="true" />
          <Typography>Opening the console…</Typography>
        </Box>
      </Box>
    );
  }
  if (session.state === 'failed') {
    return (
      <Box component="main" sx={{ p: 3 }}>
        <Alert
          severity="error"
          role="alert"
          action={
            <Button color="inherit" onClick={() => setRound((r) => r + 1)}>
              Retry
            </Button>
          }
        >
          The console could not reach the server. {session.message}
        </Alert>
      </Box>
    );
  }
  if (state === null) {
    const wanted = location.pathname === '/console/login' ? '/console/calls' : location.pathname;
    return (
      <Routes>
        <Route
          path="*"
          element={
            <ConsoleLoginPage
              onSignedIn={(account) => {
                setSession({ state: 'signed-in', account });
                void navigate(wanted + location.search, { replace: true });
              }}
            />
          }
        />
      </Routes>
    );
  }
  return (
    <AccountContext.Provider value={state}>
      <Routes>
        <Route path="calls/:id/brief" element={<BriefPrintPage />} />
        <Route element={<ConsoleShell />}>
          <Route index element={<Navigate to="/console/calls" replace />} />
          <Route path="login" element={<Navigate to="/console/calls" replace />} />
          <Route path="calls" element={<CallsPage />} />
          <Route path="calls/:id" element={<CallPage />} />
          <Route path="codes" element={<AccessCodesPage />} />
          <Route path="assistants" element={<AssistantsPage />} />
          <Route path="assistants/:id" element={<AssistantEditorPage />} />
          <Route path="usage" element={<UsageRoute />} />
          <Route path="webhooks" element={<WebhooksPage />} />
          <Route path="team" element={<TeamPage />} />
          <Route path="keys" element={<ApiKeysPage />} />
          <Route path="account" element={<AccountPage />} />
          <Route path="*" element={<Navigate to="/console/calls" replace />} />
        </Route>
      </Routes>
    </AccountContext.Provider>
  );
}
