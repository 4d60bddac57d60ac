import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { loadConfig, readEnvFile } from './config';

const here = path.dirname(fileURLToPath(import.meta.url));

async function main() {
  const envFile = readEnvFile();
  const config = loadConfig(process.env, {});
  config.webDistDir ??= path.resolve(here, '../../web/dist');
  const app = await buildApp(config);
  if (envFile) app.log.info({ file: envFile }, 'settings read from .env (variables already set win)');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: draining in-flight requests');
    const force = setTimeout(() => {
      app.log.error('shutdown took over 10 s; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      await app.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
  const engine = app.services.database.engine;
  app.log.info(`Inkwell is running on ${config.publicUrl} (database: ${engine}${engine === 'sqlite' ? ` in ${config.dataDir}` : ''})`);
}

main().catch((err) => {
  // A configuration mistake is the operator's to fix: the message names the variable, a stack adds nothing.
  const message = err instanceof Error ? err.message : String(err);
  console.error(/^(Invalid configuration|DATABASE_URL)/.test(message) ? message : err);
  process.exit(1);
});
