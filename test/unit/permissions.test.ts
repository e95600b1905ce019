import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  KEY_ROLES,
  PERMISSIONS,
  ROLES,
  ROLE_PERMISSIONS,
  SENSITIVE,
  assertPermitted,
  mayGrant,
  permits,
  roleNeedsTwoFactor,
} from '../../src/modules/access/permissions';

/** The role matrix (issue 36): docs/access.md's table is the code's, and the rules around it hold. */
describe('the role matrix', () => {
  it('docs/access.md shows exactly ROLE_PERMISSIONS', () => {
    const doc = readFileSync(path.join(__dirname, '../../docs/access.md'), 'utf8');
    const header = doc.split('\n').find((l) => l.startsWith('| Permission |'))!;
    const roles = header
      .split('|')
      .slice(2, -1)
      .map((c) => c.trim());
    expect(roles).toEqual([...ROLES]);
    const rows = doc.split('\n').filter((l) => /^\| `[a-z]+:[a-z]+` \|/.test(l));
    expect(rows.map((r) => /`([^`]+)`/.exec(r)![1])).toEqual([...PERMISSIONS]);
    for (const row of rows) {
      const permission = /`([^`]+)`/.exec(row)![1]!;
      const marks = row
        .split('|')
        .slice(2, -1)
        .map((c) => c.trim());
      roles.forEach((role, i) =>
        expect([permission, role, marks[i] === '✓']).toEqual([
          permission,
          role,
          ROLE_PERMISSIONS[role as (typeof ROLES)[number]].includes(permission as never),
        ]),
      );
    }
  });

  it('an API key never holds what only a person may do, whatever its role', () => {
    for (const role of KEY_ROLES) {
      for (const p of ['keys:manage', 'team:read', 'team:manage', 'audit:read', 'payouts:manage'] as const)
        expect(permits({ role, kind: 'api_key' }, p)).toBe(false);
    }
    expect(permits({ role: 'developer', kind: 'api_key' }, 'refunds:create')).toBe(true);
  });

  it('a role grants only roles at or below its own, never owner (ownership is transferred)', () => {
    expect(mayGrant('owner', 'admin')).toBe(true);
    expect(mayGrant('owner', 'owner')).toBe(false);
    expect(mayGrant('admin', 'admin')).toBe(true);
    expect(mayGrant('admin', 'owner')).toBe(false);
    expect(mayGrant('developer', 'finance')).toBe(true);
    expect(mayGrant('developer', 'admin')).toBe(false);
    expect(mayGrant('viewer', 'developer')).toBe(false);
    expect(mayGrant('viewer', 'viewer')).toBe(true);
  });

  it('roles that move money or manage keys or the team need 2FA in production; support and viewer do not', () => {
    expect(ROLES.filter(roleNeedsTwoFactor)).toEqual(['owner', 'admin', 'developer', 'finance']);
  });

  it('docs/access.md names exactly the permissions that make 2FA compulsory in production, and the roles they reach', () => {
    const doc = readFileSync(path.join(__dirname, '../../docs/access.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Two-factor authentication'));
    const sentence = /a role holding any of ([^(]+)\(`SENSITIVE` in `permissions\.ts`; ([^)]+)\)/.exec(section.replace(/\s+/g, ' '));
    expect(sentence).not.toBeNull();
    const listed = [...sentence![1]!.matchAll(/`([a-z]+:[a-z]+)`/g)].map((m) => m[1]);
    expect([...listed].sort()).toEqual([...SENSITIVE].sort());
    expect(sentence![2]!.split(/, | and /)).toEqual(ROLES.filter(roleNeedsTwoFactor));
  });

  it('an enrolment-only session holds nothing, and the refusal says to enrol', () => {
    const enrolling = { role: 'owner' as const, kind: 'user' as const, enrolmentOnly: true };
    expect(PERMISSIONS.filter((p) => permits(enrolling, p))).toEqual([]);
    expect(() => assertPermitted(enrolling, 'transactions:read', true)).toThrow(/Two-factor authentication is required/);
    expect(() => assertPermitted({ role: 'viewer', kind: 'user' }, 'transactions:read', true)).not.toThrow();
  });
});
