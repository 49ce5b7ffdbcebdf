import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { Link as RouterLink, useLocation } from 'wouter';
import { stackColumn } from '../../app/page-column';
import { useProductContent } from '../../app/product-content';
import { useDocumentTitle } from '../../app/use-document-title';
import { logger } from '../../lib/logger';
import { saveApiResponse } from '../../lib/session-storage';
import { CODE_MESSAGES, checkUniCode, outcomeMessage } from './code-check';
import { CodeEntryForm } from './CodeEntryForm';

const STORAGE_BLOCKED =
  'This browser does not let the page keep your session. Allow site data for this site and try again.';

interface Message {
  text: string;
  /** Changes with every message, so the alert remounts and a repeat is announced again. */
  key: number;
}

const withText =
  (text: string) =>
  (prev: Message | null): Message => ({ text, key: (prev?.key ?? 0) + 1 });

interface CodeEntryPageProps {
  /** A code from the address (`/:unicode` or `?unicode=`): pre-filled and checked on load. */
  addressCode: string | null;
}

export function CodeEntryPage({ addressCode }: CodeEntryPageProps) {
  useDocumentTitle('Talk to Assistant');
  const { title, tagline } = useProductContent();
  const [, navigate] = useLocation();
  const [code, setCode] = useState(addressCode ?? '');
  const [checking, setChecking] = useState(addressCode != null);
  const [message, setMessage] = useState<Message | null>(null);
  const [emptyError, setEmptyError] = useState(false);
  const mounted = useRef(true);
  // One automatic check per page load, even when StrictMode runs effects twice.
  const autoChecked = useRef(false);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  /** `fromAddress`: the code came from the address, so Back should not land here again. */
  const check = useCallback(
    async (unicode: string, fromAddress: boolean) => {
      const outcome = await checkUniCode(unicode);
      if (!mounted.current) return;
      if (outcome.kind === 'session') {
        if (saveApiResponse(outcome.session)) {
          logger.info('UniCode accepted; opening the call booth');
          void navigate('/call-section', { replace: fromAddress });
          return;
        }
        setMessage(withText(STORAGE_BLOCKED));
      } else {
        logger.info(`UniCode check: ${outcome.kind}`);
        setMessage(withText(outcomeMessage(outcome)));
      }
      setChecking(false);
    },
    [navigate],
  );

  useEffect(() => {
    if (addressCode == null || autoChecked.current) return;
    autoChecked.current = true;
    void check(addressCode, true);
  }, [addressCode, check]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (checking) return;
    if (code === '') {
      setEmptyError(true);
      setMessage(withText(CODE_MESSAGES.empty));
      return;
    }
    setEmptyError(false);
    setMessage(null);
    setChecking(true);
    void check(code, false);
  };

  return (
    <Box sx={stackColumn(3)}>
      <Box>
        <Typography variant="h1" gutterBottom>
          Talk to Assistant
        </Typography>
        {title && (
          <Typography variant="subtitle1" component="p" color="text.secondary">
            {tagline ? `${title} · ${tagline}` : title}
          </Typography>
        )}
      </Box>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography sx={{ mb: 2 }}>
          Enter the UniCode you received from {title ?? 'your clinic'} to start a voice conversation
          with its assistant.
        </Typography>
        <CodeEntryForm
          code={code}
          onCodeChange={(value) => {
            setCode(value);
            if (emptyError && value !== '') setEmptyError(false);
          }}
          onSubmit={onSubmit}
          checking={checking}
          invalid={emptyError}
          message={message?.text ?? null}
          messageKey={message?.key ?? 0}
        />
      </Paper>
      <Typography variant="body2" color="text.secondary">
        New here?{' '}
        <Link component={RouterLink} to="/register">
          Create an account
        </Link>
      </Typography>
    </Box>
  );
}
