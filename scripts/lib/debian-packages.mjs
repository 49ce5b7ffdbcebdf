// Installs Debian packages the product or its tests need when they are missing: as root
// with apt-get, otherwise by telling the person exactly what to run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { hasCommand, mustRun, step, StepError } from './run.mjs';

/** The offline speech recogniser and its US English model. */
export const SPEECH_PACKAGES = [
  { name: 'libpocketsphinx3', present: () => hasLibrary('libpocketsphinx.so.3') },
  {
    name: 'pocketsphinx-en-us',
    present: () => fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us'),
  },
];

/**
 * What the speech tests and benchmarks use besides: the eSpeak NG and SoX command-line tools,
 * and festival with two voices unlike eSpeak's (a US HTS voice and a US diphone voice).
 */
export const SPEECH_TEST_PACKAGES = [
  { name: 'espeak-ng', present: () => hasCommand('espeak-ng') },
  { name: 'sox', present: () => hasCommand('sox') },
  { name: 'festival', present: () => hasCommand('text2wave') },
  {
    name: 'festvox-us-slt-hts',
    present: () => fs.existsSync('/usr/share/festival/voices/us/cmu_us_slt_arctic_hts'),
  },
  {
    name: 'festvox-kallpc16k',
    present: () => fs.existsSync('/usr/share/festival/voices/english/kal_diphone'),
  },
];

function hasLibrary(soname) {
  const result = spawnSync('sh', ['-c', `ldconfig -p 2>/dev/null | grep -q ${soname}`]);
  return result.status === 0;
}

let updated = false;

/** Makes sure `packages` are installed; `purpose` says why, in the message. */
export async function ensureDebianPackages(packages, purpose) {
  const missing = packages.filter((pkg) => !pkg.present()).map((pkg) => pkg.name);
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !hasCommand('apt-get')) {
    throw new StepError(
      `${purpose} needs Debian packages that are not installed: ${missing.join(', ')}.\n` +
        `  Install them with:  sudo apt-get install -y ${missing.join(' ')}\n  and run the command again.`,
    );
  }
  step(`Installing ${missing.join(', ')} from Debian (${purpose.toLowerCase()})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!updated) {
    await mustRun('apt-get', ['update', '-qq'], { env });
    updated = true;
  }
  await mustRun('apt-get', ['install', '-y', '-qq', ...missing], { env });
  const still = packages.filter((pkg) => !pkg.present()).map((pkg) => pkg.name);
  if (still.length > 0)
    throw new StepError(`apt-get ran, but ${still.join(', ')} still look missing.`);
}
