import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import { useState } from 'react';

/**
 * A secret shown once (a one-time password, an invite link, an API key): read-only text
 * with a Copy button and a live message saying whether copying worked.
 */
export function CopyableSecret({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <Box>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
        <TextField
          label={label}
          value={value}
          fullWidth
          onFocus={(event) => event.target.select()}
          slotProps={{
            htmlInput: {
              readOnly: true,
              spellCheck: false,
              autoComplete: 'off',
              style: { fontFamily: 'monospace' },
            },
          }}
        />
        <Button
          variant="outlined"
          onClick={() => void copy()}
          aria-label={`Copy ${label}`}
          startIcon={<ContentCopyOutlined aria-hidden="true" />}
          sx={{ flexShrink: 0, minHeight: 56 }}
        >
          Copy
        </Button>
      </Box>
      <Typography
        role="status"
        variant="body2"
        color="text.secondary"
        sx={{ minHeight: '1.5em', mt: 0.5 }}
      >
        {copied === 'copied' && 'Copied to the clipboard.'}
        {copied === 'failed' && 'Could not copy: select the text and copy it yourself.'}
      </Typography>
    </Box>
  );
}
