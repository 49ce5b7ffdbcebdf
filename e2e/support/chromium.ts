/** Debian's Chromium (never a downloaded browser) and the flags every browser test uses. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A fake microphone playing `wavFile` once, and playback without a user gesture (DESIGN.md). */
export function microphoneArgs(wavFile: string): string[] {
  return [
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-audio-capture=${wavFile}%noloop`,
    '--autoplay-policy=no-user-gesture-required',
  ];
}
