import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { configDir, listenSecret } from '../../cli/src/config';

/** The CLI's config file: the local secret of `listen`, made once, kept for its owner only. */
describe('cli config: the listen secret', () => {
  let home: string;
  beforeEach(() => (home = mkdtempSync(path.join(tmpdir(), 'pg-cli-config-'))));
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('lives under $XDG_CONFIG_HOME/payments-gateway, else ~/.config/payments-gateway', () => {
    expect(configDir({ XDG_CONFIG_HOME: '/x/conf' })).toBe('/x/conf/payments-gateway');
    expect(configDir({})).toMatch(/\/\.config\/payments-gateway$/);
  });

  it('is made once, as the service makes webhook secrets, in a 0600 file of a 0700 directory, and read back the same', () => {
    const dir = path.join(home, 'payments-gateway');
    const secret = listenSecret(dir);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(statSync(path.join(dir, 'cli.json')).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(listenSecret(dir)).toBe(secret);
    expect(JSON.parse(readFileSync(path.join(dir, 'cli.json'), 'utf8'))).toEqual({ listen_secret: secret });
  });

  it('refuses a file that holds no secret, rather than replacing what a receiver may be configured with', () => {
    writeFileSync(path.join(home, 'cli.json'), '{"listen_secret": 42}');
    expect(() => listenSecret(home)).toThrow(/cli\.json holds no listen_secret \("whsec_…"\); remove it and a new secret is made/);
    writeFileSync(path.join(home, 'cli.json'), 'not json');
    expect(() => listenSecret(home)).toThrow(/holds no listen_secret/);
    expect(readFileSync(path.join(home, 'cli.json'), 'utf8')).toBe('not json');
  });
});
