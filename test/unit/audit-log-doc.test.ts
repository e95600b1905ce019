import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AUDIT_ACTIONS } from '../../src/modules/audit/audit-log';

/**
 * docs/audit-log.md says what writes each action: its tables name every action the service records, once, and none
 * it does not (five of issue 39's were missing once). An action is named in a row's first cell, in backticks
 * (`merchant.disabled`, `merchant.enabled` share one row).
 */
test('docs/audit-log.md’s tables name exactly AUDIT_ACTIONS, each once', () => {
  const doc = readFileSync(path.join(__dirname, '../../docs/audit-log.md'), 'utf8');
  const named = doc
    .split('\n')
    .map((line) => /^\|([^|]+)\|/.exec(line)?.[1] ?? '')
    .flatMap((cell) => [...cell.matchAll(/`([a-z_]+\.[a-z_]+)`/g)].map((m) => m[1]!));
  expect([...named].sort()).toEqual([...AUDIT_ACTIONS].sort());
});
