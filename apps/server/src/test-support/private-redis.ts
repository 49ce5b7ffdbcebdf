import { spawn, type ChildProcess } from 'node:child_process';

/**
 * A Redis server of the test's own on `port` (no persistence), so a test can kill it
 * without touching the machine's Redis that other tests share.
 */
export function startRedis(port: number): ChildProcess {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  child.on('error', (error) => {
    throw new Error(`redis-server could not be started (is it installed?): ${error.message}`);
  });
  return child;
}
