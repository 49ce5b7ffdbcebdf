import { createTheme } from '@mui/material/styles';

/** The system font stack: no web fonts to download (the CSP allows none from elsewhere). */
const systemFonts = [
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  'Roboto',
  '"Helvetica Neue"',
  'Arial',
  '"Noto Sans"',
  'sans-serif',
].join(',');

/** The line under the page header (the visitor pages' and the console's AppBar). */
export const HEADER_BORDER = '1px solid #dde5ea';

/** A calm, light, clinical theme: deep teal for actions, soft grey-blue surfaces. */
export const theme = createTheme({
  palette: {
    mode: 'light',
    primary: { main: '#1d5f7a', contrastText: '#ffffff' },
    secondary: { main: '#4a6572' },
    background: { default: '#f4f7f9', paper: '#ffffff' },
    text: { primary: '#1b2a33', secondary: '#4b5d67' },
  },
  shape: { borderRadius: 10 },
  // A steady outline around whatever the keyboard is on (2 px, the primary colour, 2 px
  // out), in place of the ripple that MUI otherwise pulses there (turned off below).
  focusVisible: true,
  typography: {
    fontFamily: systemFonts,
    h1: { fontSize: '1.75rem', fontWeight: 600, lineHeight: 1.25 },
    h2: { fontSize: '1.375rem', fontWeight: 600, lineHeight: 1.3 },
    button: { textTransform: 'none', fontWeight: 600, fontSize: '1rem' },
  },
  components: {
    // No ripple on any button: a press shows in the button's own colour change, focus in the
    // ring above. The production build leaves the ripple's code out (vite.config.ts).
    MuiButtonBase: {
      defaultProps: { disableRipple: true },
    },
    MuiButton: {
      defaultProps: { disableElevation: true },
    },
    MuiAppBar: {
      defaultProps: { elevation: 0, color: 'inherit' },
      styleOverrides: { root: { borderBottom: HEADER_BORDER } },
    },
    MuiPaper: {
      styleOverrides: { outlined: { borderColor: '#dde5ea' } },
    },
  },
});
