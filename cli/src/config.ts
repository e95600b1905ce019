import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/** What the CLI keeps between runs: the local signing secret of `listen`. */
interface CliConfig {
  listen_secret: string;
}

/** $XDG_CONFIG_HOME/payments-gateway (else ~/.config/payments-gateway; %APPDATA% on Windows). */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || (process.platform === 'win32' && env.APPDATA ? env.APPDATA : path.join(homedir(), '.config'));
  return path.join(base, 'payments-gateway');
}

/**
 * The secret `listen` signs forwarded events with: made once (`whsec_` and 32 random bytes, the service's format)
 * and kept in cli.json, readable by its owner only (0600, in a 0700 directory), so that a local receiver keeps the
 * same secret across restarts of `listen`.
 */
export function listenSecret(dir = configDir()): string {
  const file = path.join(dir, 'cli.json');
  const saved = readSecret(file);
  if (saved) return saved;
  const config: CliConfig = { listen_secret: `whsec_${randomBytes(32).toString('base64')}` };
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // flag wx: two first runs at once do not both write; the loser reads the winner's.
  try {
    writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    const other = (err as NodeJS.ErrnoException).code === 'EEXIST' && readSecret(file);
    if (other) return other;
    throw err;
  }
  chmodSync(file, 0o600); // whatever the umask
  return config.listen_secret;
}

/** The secret saved in `file`; undefined when there is no file. */
function readSecret(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let saved: Partial<CliConfig> | undefined;
  try {
    saved = JSON.parse(text) as Partial<CliConfig>;
  } catch {
    // reported below
  }
  if (typeof saved?.listen_secret === 'string' && saved.listen_secret.startsWith('whsec_')) return saved.listen_secret;
  throw new Error(`${file} holds no listen_secret ("whsec_…"); remove it and a new secret is made`);
}
