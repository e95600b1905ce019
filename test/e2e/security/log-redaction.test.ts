import { Writable } from 'node:stream';
import { Client } from 'pg';
import { createLogger } from '../../../src/shared/logger';
import { createTestApp, type TestApp } from '../../helpers/test-app';

/** A logger writing into an array, as the service's logger writes to stdout. */
function capturingLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: createLogger('info', stream), lines };
}

const SECRET = 'pii-jane.doe@example.com';

/** The error a statement fails with (the test fails if it succeeds). */
const failure = (statement: Promise<unknown>): Promise<Error> =>
  statement.then(
    () => {
      throw new Error('the statement was expected to fail');
    },
    (err: unknown) => err as Error,
  );

describe('database errors are logged without any value from the statement', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it('the ORM’s exception (its message quotes the SQL with parameters; pg’s detail quotes the key): identifiers kept, values gone', async () => {
    const em = app.service.orm.em.fork();
    await em.execute('create table log_probe (id int primary key, email text unique)');
    await em.execute('insert into log_probe values (?, ?)', [1, SECRET]);
    const err = await failure(em.execute('insert into log_probe values (?, ?)', [2, SECRET]));
    // The positive control: the raw error does carry the value, in its message and its properties.
    expect(`${err.message} ${JSON.stringify(err)}`).toContain(SECRET);

    const { logger, lines } = capturingLogger();
    logger.error({ err }, 'unhandled error');
    const line = JSON.parse(lines[0]!);
    expect(lines.join('')).not.toContain(SECRET);
    expect(lines.join('')).not.toContain('insert into');
    expect(line.err).toMatchObject({
      type: 'UniqueConstraintViolationException',
      code: '23505',
      constraint: 'log_probe_email_key',
      table: 'log_probe',
      message: 'duplicate key value violates unique constraint "log_probe_email_key"',
    });
    expect(line.err.stack).toMatch(/^UniqueConstraintViolationException: duplicate key value[^\n]*\n\s+at /);
  });

  it('pg’s own error (the direct statements): a value quoted in its message is cut', async () => {
    const client = new Client({ connectionString: app.db.url });
    await client.connect();
    const err = await failure(client.query('select $1::uuid', [SECRET]));
    await client.end();
    expect(err.message).toContain(SECRET);

    const { logger, lines } = capturingLogger();
    logger.error({ err }, 'unhandled error');
    expect(lines.join('')).not.toContain(SECRET);
    expect(JSON.parse(lines[0]!).err).toMatchObject({ code: '22P02', message: 'invalid input syntax for type uuid: "…"' });
  });
});
