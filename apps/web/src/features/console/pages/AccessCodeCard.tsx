import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';

/** The link a visitor opens to reach the assistant with this code already filled in. */
export const codeLink = (code: string) =>
  `${window.location.origin}/?unicode=${encodeURIComponent(code)}`;

/**
 * A printable card for the waiting room: the code in large type and a QR code of the
 * link that opens the call page with the code filled in.
 */
export function AccessCodeCard({
  code,
  label,
  assistantName,
}: {
  code: string;
  label: string | null;
  assistantName: string;
}) {
  const link = codeLink(code);
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    QRCode.toString(link, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }).then(
      (markup) => current && setSvg(markup),
      () => current && setSvg(null),
    );
    return () => {
      current = false;
    };
  }, [link]);
  return (
    <Box
      data-testid="access-code-card"
      sx={{
        border: '2px solid',
        borderColor: 'text.primary',
        borderRadius: 2,
        p: 3,
        textAlign: 'center',
        bgcolor: '#fff',
        color: '#000',
        maxWidth: 360,
        mx: 'auto',
      }}
    >
      <Typography sx={{ fontWeight: 700, fontSize: '1.1rem', color: 'inherit' }}>
        Talk to {assistantName}
      </Typography>
      {label && <Typography sx={{ color: 'inherit' }}>{label}</Typography>}
      {svg && (
        <Box
          role="img"
          aria-label={`QR code of ${link}`}
          sx={{
            width: 200,
            height: 200,
            mx: 'auto',
            my: 2,
            '& svg': { width: '100%', height: '100%' },
          }}
          // The SVG comes from the QR library, built from our own link: no outside markup.
          dangerouslySetInnerHTML={{ __html: svg }}
        />
      )}
      <Typography sx={{ color: 'inherit' }}>
        Scan, or open {window.location.host} and enter
      </Typography>
      <Typography
        sx={{
          fontFamily: 'monospace',
          fontSize: '1.6rem',
          fontWeight: 700,
          letterSpacing: 1,
          color: 'inherit',
          wordBreak: 'break-all',
        }}
      >
        {code}
      </Typography>
    </Box>
  );
}
