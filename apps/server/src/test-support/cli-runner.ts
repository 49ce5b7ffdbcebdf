import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { redisEnvFor, type TestDatabase } from './test-database.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Where a maintenance command looks: a server's data folder, and its database when that is PostgreSQL. */
export interface CliTarget {
  dataDir: string;
  db: Pick<TestDatabase, 'kind' | 'url'>;
}

/**
 * Runs a built CLI (`dist/cli/<name>.js`, exactly what `npm run <name>` runs) on a data
 * folder (and, on PostgreSQL and Redis, their URLs), with nothing else from this
 * process's environment.
 */
export function runCli(name: string, target: CliTarget, ...args: string[]): Promise<CliResult> {
  const cli = fileURLToPath(new URL(`../../dist/cli/${name}.js`, import.meta.url));
  if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: run \`npx tsc -b\` first`);
  const database = target.db.kind === 'postgres' ? { DATABASE_URL: target.db.url } : {};
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      // The same shared Redis as the server (in the scale-out test project), if any.
      env: {
        PATH: process.env.PATH,
        DATA_DIR: target.dataDir,
        ...database,
        ...redisEnvFor(target.dataDir),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
