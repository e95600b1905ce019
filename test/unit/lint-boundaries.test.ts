/**
 * The layer boundaries and the cycle rule in eslint.config.mjs fire: each case lints a few lines
 * of text as if they were a file at the given path (nothing is written), with the project's own
 * config. ESLint loads its config with import(), which jest's CommonJS runtime cannot run, so the
 * linting happens in one child Node process for all cases.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

interface Case {
  filePath: string;
  code: string;
}
interface Problem {
  ruleId: string | null;
  message: string;
}

const LINT_IN_CHILD = `
import { ESLint } from 'eslint';
const cases = JSON.parse(process.argv[1]);
const eslint = new ESLint({ cwd: process.cwd() });
const out = [];
for (const { filePath, code } of cases) {
  const [result] = await eslint.lintText(code, { filePath, warnIgnored: true });
  out.push(result.messages.map((m) => ({ ruleId: m.ruleId, message: m.message })));
}
process.stdout.write(JSON.stringify(out));
`;

function lint(cases: Case[]): Problem[][] {
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', LINT_IN_CHILD, JSON.stringify(cases)], { cwd: ROOT, encoding: 'utf8' });
  return JSON.parse(stdout) as Problem[][];
}

/** A real .ts file in src/<dir> (its name does not matter), so that an import of it resolves. */
function someFileIn(dir: string): string {
  const name = readdirSync(path.join(ROOT, 'src', dir)).find((f) => f.endsWith('.ts'));
  if (!name) throw new Error(`no .ts file in src/${dir}`);
  return `${dir}/${name.replace(/\.ts$/, '')}`;
}

const rules = (problems: Problem[]) => problems.map((p) => p.ruleId);

describe('eslint.config.mjs: layer boundaries and cycles', () => {
  const db = someFileIn('db');
  const transport = someFileIn('transport/rest');
  const moduleDir = readdirSync(path.join(ROOT, 'src/modules')).sort()[0]!;
  const someModule = someFileIn(`modules/${moduleDir}`);
  const provider = someFileIn('providers');
  const events = someFileIn('events');
  const observability = someFileIn('observability');

  const cases = {
    transportImportsOrm: { filePath: 'src/transport/x.ts', code: "import { RequestContext } from '@mikro-orm/core';\nexport const x = RequestContext;\n" },
    transportImportsDb: { filePath: 'src/transport/graphql/x.ts', code: `import type * as db from '../../${db}';\nexport type X = typeof db;\n` },
    transportImportsModule: { filePath: 'src/transport/x.ts', code: `import type * as m from '../${someModule}';\nexport type X = typeof m;\n` },
    moduleImportsTransport: { filePath: `src/modules/${moduleDir}/x.ts`, code: `import * as t from '../../${transport}';\nexport const x = t;\n` },
    moduleImportsGraphql: { filePath: `src/modules/${moduleDir}/x.ts`, code: "import { ObjectType } from 'type-graphql';\nexport const x = ObjectType;\n" },
    observabilityImportsTransport: { filePath: 'src/observability/x.ts', code: `import * as t from '../${transport}';\nexport const x = t;\n` },
    observabilityImportsContainer: { filePath: 'src/observability/x.ts', code: "import type { Services } from '../container';\nexport type X = Services;\n" },
    providerImportsModule: { filePath: 'src/providers/x.ts', code: `import type * as m from '../${someModule}';\nexport type X = typeof m;\n` },
    transportImportsServiceBag: {
      filePath: 'src/transport/rest/v1/x.ts',
      code: "import type { Services } from '../../../container';\nexport type X = Services;\n",
    },
    doorEntryImportsServiceBag: {
      filePath: 'src/transport/graphql/schema.ts',
      code: "import type { Services } from '../../container';\nexport type X = Services;\n",
    },
    sharedImportsModule: { filePath: 'src/shared/x.ts', code: `import * as m from '../${someModule}';\nexport const x = m;\n` },
    jobsImportsModule: { filePath: 'src/jobs/x.ts', code: `import type * as m from '../${someModule}';\nexport type X = typeof m;\n` },
    jobsImportsUpward: {
      filePath: 'src/jobs/x.ts',
      code: [
        "import type { Services } from '../container';",
        "import type { JobPayloads } from '../job-catalogue';",
        `import type * as p from '../${provider}';`,
        `import type * as e from '../${events}';`,
        `import type * as t from '../${transport}';`,
        `import type * as o from '../${observability}';`,
        "import type * as app from '../app';",
        "import type * as boot from '../bootstrap';",
        'export type X = [Services, JobPayloads, typeof p, typeof e, typeof t, typeof o, typeof app, typeof boot];',
        '',
      ].join('\n'),
    },
    jobsImportsItsLayers: {
      filePath: 'src/jobs/x.ts',
      code: "import { Params } from '../db/sql';\nimport type { Logger } from '../shared/logger';\nimport type { Config } from '../config';\nexport type X = [Params, Logger, Config];\n",
    },
    dashboardImportsService: { filePath: 'dashboard/src/x.ts', code: "import { AppError } from '../../src/shared/errors';\nexport const x = AppError;\n" },
    sdkImportsService: { filePath: 'sdk/src/x.ts', code: "import { AppError } from '../../src/shared/errors';\nexport const x = AppError;\n" },
    sdkImportsItsTypes: { filePath: 'sdk/src/x.ts', code: "import type { paths } from './generated/openapi';\nexport type X = paths;\n" },
    cliImportsService: { filePath: 'cli/src/x.ts', code: "import { webhookBody } from '../../src/modules/webhooks/signing';\nexport const x = webhookBody;\n" },
    cliImportsSdk: { filePath: 'cli/src/x.ts', code: "import { verifyWebhook } from '../../sdk/src';\nexport const x = verifyWebhook;\n" },
    cliImportsItsOwn: { filePath: 'cli/src/x.ts', code: "import { listenSecret } from './config';\nexport const x = listenSecret;\n" },
    cycle: { filePath: 'test/fixtures/lint-cycle/a.ts', code: "import { b } from './b';\nexport const a = b;\n" },
    typeOnlyCycle: { filePath: 'test/fixtures/lint-cycle/a.ts', code: "import type { b } from './b';\nexport const a: typeof b = 'a';\n" },
  } satisfies Record<string, Case>;
  let results: Record<keyof typeof cases, Problem[]>;

  beforeAll(() => {
    const names = Object.keys(cases) as (keyof typeof cases)[];
    const out = lint(names.map((n) => cases[n]));
    results = Object.fromEntries(names.map((n, i) => [n, out[i]!])) as typeof results;
  }, 60_000);

  it('observability/ may not import the doors or the wiring', () => {
    expect(rules(results.observabilityImportsTransport)).toEqual(['import-x/no-restricted-paths']);
    expect(results.observabilityImportsTransport[0]!.message).toMatch(/observability\/ sits below the wiring and the doors/);
    expect(rules(results.observabilityImportsContainer)).toEqual(['import-x/no-restricted-paths']);
  });

  it('providers/ may not import the domain modules, not even a type', () => {
    expect(rules(results.providerImportsModule)).toEqual(['import-x/no-restricted-paths']);
    expect(results.providerImportsModule[0]!.message).toMatch(/providers\/ holds the connectors/);
  });

  it("a route module or resolver takes only the services it names, not the container's bag", () => {
    expect(rules(results.transportImportsServiceBag)).toEqual(['no-restricted-imports']);
    expect(results.transportImportsServiceBag[0]!.message).toMatch(/transport\/ takes no bag of services/);
    // Only each door's entry point, which hands the services out, sees the whole bag.
    expect(rules(results.doorEntryImportsServiceBag)).toEqual([]);
  });

  it('transport/ may not import the ORM', () => {
    expect(rules(results.transportImportsOrm)).toEqual(['no-restricted-imports']);
  });

  it('transport/ may not import db/, not even a type', () => {
    expect(rules(results.transportImportsDb)).toEqual(['import-x/no-restricted-paths']);
    expect(results.transportImportsDb[0]!.message).toMatch(/transport\/ never imports db\//);
  });

  it('transport/ may import a module (the services it calls)', () => {
    expect(results.transportImportsModule).toEqual([]);
  });

  it('modules/ may not import transport/, nor the doors’ libraries', () => {
    expect(rules(results.moduleImportsTransport)).toEqual(['import-x/no-restricted-paths']);
    expect(results.moduleImportsTransport[0]!.message).toMatch(/modules\/ never import transport\//);
    expect(rules(results.moduleImportsGraphql)).toEqual(['no-restricted-imports']);
  });

  it('shared/ may not import a module', () => {
    expect(rules(results.sharedImportsModule)).toEqual(['import-x/no-restricted-paths']);
  });

  it('jobs/ may not import a module, nor anything else above it: it is a generic runner', () => {
    expect(rules(results.jobsImportsModule)).toEqual(['import-x/no-restricted-paths']);
    expect(results.jobsImportsModule[0]!.message).toMatch(/jobs\/ is a generic runner/);
    // The container, the job catalogue, providers, events, transport, observability, app, bootstrap: one error each.
    expect(rules(results.jobsImportsUpward)).toEqual(Array(8).fill('import-x/no-restricted-paths'));
  });

  it('jobs/ may import db/, shared/ and config.ts', () => {
    expect(results.jobsImportsItsLayers).toEqual([]);
  });

  it('the dashboard may not import the service’s code: it runs on the public API alone', () => {
    expect(rules(results.dashboardImportsService)).toEqual(['import-x/no-restricted-paths']);
  });

  it('the SDK may not import the service’s code: it is a client of the public API, typed by its generated code', () => {
    expect(rules(results.sdkImportsService)).toEqual(['import-x/no-restricted-paths']);
    expect(results.sdkImportsItsTypes).toEqual([]);
  });

  it('the CLI may not import the service’s code nor the SDK’s: a package of its own on the public API', () => {
    expect(rules(results.cliImportsService)).toEqual(['import-x/no-restricted-paths']);
    expect(rules(results.cliImportsSdk)).toEqual(['import-x/no-restricted-paths']);
    expect(results.cliImportsItsOwn).toEqual([]);
  });

  it('an import cycle is an error; a type-only one is not (erased at compile time)', () => {
    expect(rules(results.cycle)).toEqual(['import-x/no-cycle']);
    expect(results.typeOnlyCycle).toEqual([]);
  });
});
