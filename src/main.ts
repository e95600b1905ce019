import 'reflect-metadata';
import { startService } from './bootstrap';
import { loadServiceConfig } from './startup-checks';

async function main() {
  // Every missing or invalid variable named at once, each with its fix, before anything is started (issue 41).
  const config = loadServiceConfig();
  const service = await startService(config);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    service.app.fastify.log.info({ signal, deadlineMs: config.shutdownTimeoutMs }, 'shutting down');
    // Past the deadline, exit anyway: another instance's heartbeat releases any job claim left behind.
    setTimeout(() => {
      service.app.fastify.log.error({ deadlineMs: config.shutdownTimeoutMs }, 'shutdown deadline passed; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    try {
      await service.close();
      process.exit(0);
    } catch (err) {
      console.error('shutdown failed', err);
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  console.error('payments gateway failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
