import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import BarChartOutlined from '@mui/icons-material/BarChartOutlined';
import GroupOutlined from '@mui/icons-material/GroupOutlined';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import MenuOutlined from '@mui/icons-material/MenuOutlined';
import PhoneInTalkOutlined from '@mui/icons-material/PhoneInTalkOutlined';
import PinOutlined from '@mui/icons-material/PinOutlined';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import WebhookOutlined from '@mui/icons-material/WebhookOutlined';
import AccountCircleOutlined from '@mui/icons-material/AccountCircleOutlined';
import type { AccountRole } from '@talkbooth/protocol';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { errorMessage } from '../../lib/api-client';
import { logger } from '../../lib/logger';
import { useAccount } from './account-context';
import { signOut } from './console-api';

interface NavEntry {
  to: string;
  label: string;
  icon: ReactNode;
  /** The least role that sees it. */
  role: AccountRole;
}

export const CONSOLE_NAV: readonly NavEntry[] = [
  {
    to: '/console/calls',
    label: 'Calls and briefs',
    icon: <PhoneInTalkOutlined />,
    role: 'viewer',
  },
  { to: '/console/codes', label: 'Access codes', icon: <PinOutlined />, role: 'viewer' },
  { to: '/console/assistants', label: 'Assistants', icon: <SmartToyOutlined />, role: 'viewer' },
  { to: '/console/usage', label: 'Usage', icon: <BarChartOutlined />, role: 'viewer' },
  { to: '/console/webhooks', label: 'Webhooks', icon: <WebhookOutlined />, role: 'viewer' },
  { to: '/console/team', label: 'Team', icon: <GroupOutlined />, role: 'owner' },
  { to: '/console/keys', label: 'API keys', icon: <KeyOutlined />, role: 'owner' },
  {
    to: '/console/account',
    label: 'Your account',
    icon: <AccountCircleOutlined />,
    role: 'viewer',
  },
];

const RANK: Record<AccountRole, number> = { viewer: 0, admin: 1, owner: 2 };
const DRAWER_WIDTH = 240;

/** The console's frame: the organisation, navigation (a drawer on phones), sign-out. */
export function ConsoleShell() {
  const { account, signedOut } = useAccount();
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'));
  const [open, setOpen] = useState(false);
  const [signOutError, setSignOutError] = useState<string | null>(null);
  const location = useLocation();

  const leave = async () => {
    try {
      await signOut();
      signedOut();
    } catch (error) {
      logger.warn('sign-out failed', error);
      setSignOutError(errorMessage(error));
    }
  };

  const nav = (
    <Box component="nav" aria-label="Console">
      <List>
        {CONSOLE_NAV.filter((entry) => RANK[account.role] >= RANK[entry.role]).map((entry) => (
          <ListItem key={entry.to} disablePadding>
            <ListItemButton
              component={NavLink}
              to={entry.to}
              selected={location.pathname.startsWith(entry.to)}
              onClick={() => setOpen(false)}
            >
              <ListItemIcon aria-hidden="true">{entry.icon}</ListItemIcon>
              <ListItemText primary={entry.label} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </Box>
  );

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <AppBar
        position="fixed"
        component="header"
        sx={{ zIndex: (t) => t.zIndex.drawer + 1, displayPrint: 'none' }}
      >
        <Toolbar sx={{ gap: 1 }}>
          {!wide && (
            <IconButton
              edge="start"
              aria-label="Open the menu"
              aria-expanded={open}
              onClick={() => setOpen(true)}
            >
              <MenuOutlined />
            </IconButton>
          )}
          <Typography component="p" sx={{ fontWeight: 700, flex: 1, minWidth: 0 }} noWrap>
            {account.organisation.name}
          </Typography>
          <Typography
            variant="body2"
            color="text.secondary"
            noWrap
            sx={{ display: { xs: 'none', sm: 'block' } }}
          >
            {account.username} · {account.role}
          </Typography>
          <Button onClick={() => void leave()}>Sign out</Button>
        </Toolbar>
      </AppBar>
      {wide ? (
        <Drawer
          variant="permanent"
          sx={{
            width: DRAWER_WIDTH,
            flexShrink: 0,
            displayPrint: 'none',
            '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box' },
          }}
        >
          <Toolbar />
          {nav}
        </Drawer>
      ) : (
        <Drawer open={open} onClose={() => setOpen(false)}>
          <Box sx={{ width: DRAWER_WIDTH }}>
            <Typography sx={{ p: 2, fontWeight: 700 }}>
              {account.username} · {account.role}
            </Typography>
            <Divider />
            {nav}
          </Box>
        </Drawer>
      )}
      <Box component="main" sx={{ flex: 1, minWidth: 0, p: { xs: 2, sm: 3 } }}>
        <Toolbar sx={{ displayPrint: 'none' }} />
        {signOutError && (
          <Typography role="alert" color="error" sx={{ mb: 2 }}>
            Could not sign out: {signOutError}
          </Typography>
        )}
        <Outlet />
      </Box>
    </Box>
  );
}
