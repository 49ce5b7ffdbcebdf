import { buildApp } from './app.js';
import { publicBaseUrl, startBanner } from './banner.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createLogger } from './logger.js';
import { shutDown } from './shutdown.js';

/** Starts the server from the environment: migrate, seed, listen, print the banner. */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`${error.message}\nFix the environment variables above and start again.`);
      process.exit(1);
    }
    throw error;
  }

  const logger = createLogger({ level: config.logLevel, pretty: process.stdout.isTTY === true });
  const built = await buildApp(config, { logger });
  const { app, demo, createdKeys, migrations, webKeyOrigins } = built;
  if (migrations.length > 0) logger.info({ migrations }, 'database migrated');
  if (demo.seeded) logger.info('demo assistant seeded');

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    await app.close();
    if (code === 'EADDRINUSE') {
      console.error(
        `Port ${config.port} is already in use. Stop the other server or set PORT to a free port.`,
      );
      process.exit(1);
    }
    throw error;
  }

  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const baseUrl = config.publicUrl ?? publicBaseUrl(config.host, port);
  process.stdout.write(
    config.role === 'voice'
      ? `Talkbooth voice worker listening on port ${port}, taking calls relayed to ${config.workerUrl ?? ''}\n`
      : `${startBanner(baseUrl, demo, createdKeys, webKeyOrigins)}\n`,
  );

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal, graceSeconds: config.shutdownGraceSeconds }, 'shutting down');
    shutDown(built, { graceMs: config.shutdownGraceSeconds * 1000, logger }).then(
      (outcome) => process.exit(outcome === 'clean' ? 0 : 1),
      (error: unknown) => {
        logger.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error('Talkbooth could not start:', error instanceof Error ? error.message : error);
  if (error instanceof Error && error.cause !== undefined) console.error('Cause:', error.cause);
  process.exit(1);
});
