import { totpCodeAt } from '../../../src/modules/accounts/totp';
import type { MerchantCredentials } from '../../../src/modules/merchants/merchant.service';
import { graphql, request } from '../../helpers/http';
import { addPerson, captureMail, dbExecute, enableTwoFactor, invitationTokenOf, personSession, type TestPerson } from '../../helpers/team';
import { createTestApp, type TestApp } from '../../helpers/test-app';

/** The team, invitations and 2FA enrolment through their doors (GraphQL; the accept page's REST routes), on the real database. */
describe('Team accounts: members, roles, invitations, 2FA', () => {
  let app: TestApp;
  let merchant: MerchantCredentials;
  let mail: ReturnType<typeof captureMail>;

  beforeAll(async () => {
    app = await createTestApp();
    merchant = await app.createMerchant('Team Merchant');
    mail = captureMail(app);
  });
  afterAll(() => app.close());

  const gql = async (token: string, query: string, variables?: Record<string, unknown>) => graphql(app.url, query, { token, variables });
  const errorCode = (res: Awaited<ReturnType<typeof graphql>>) => res.body.errors?.[0]?.extensions?.code;
  const dashboard = { 'x-requested-with': 'XMLHttpRequest' };
  const preview = (token: string) => request(app.url, 'GET', `/dashboard/invitations/preview?token=${encodeURIComponent(token)}`, { headers: dashboard });
  const accept = (body: Record<string, unknown>) => request(app.url, 'POST', '/dashboard/invitations/accept', { headers: dashboard, body });
  const auditCount = async (action: string, merchantId = merchant.merchant.id) =>
    Number((await dbExecute<{ n: string }>(app, 'select count(*) as n from audit_log where action = ? and merchant_id = ?', [action, merchantId]))[0]!.n);
  const roleOf = async (person: TestPerson) =>
    (await dbExecute<{ role: string }>(app, 'select role from membership where id = ?', [person.membershipId]))[0]?.role;
  const session = async (person: TestPerson) => (await personSession(app, person)).accessToken;

  const CHANGE_ROLE = 'mutation($id: ID!, $role: Role!) { changeMemberRole(id: $id, role: $role) { id role } }';
  const REMOVE = 'mutation($id: ID!) { removeMember(id: $id) }';
  const TRANSFER = 'mutation($id: ID!) { transferOwnership(id: $id) { id role } }';
  const INVITE = 'mutation($email: String!, $role: Role!) { inviteMember(email: $email, role: $role) { id email role status expiresAt } }';
  const MEMBERS = '{ teamMembers { id userId email role twoFactorEnabled } }';

  describe('roles and the last owner', () => {
    let owner: TestPerson;
    let admin: TestPerson;
    let developer: TestPerson;

    beforeAll(async () => {
      owner = await addPerson(app, merchant.merchant.id, 'owner');
      admin = await addPerson(app, merchant.merchant.id, 'admin');
      developer = await addPerson(app, merchant.merchant.id, 'developer');
    });

    it('lists the team to a member; an API key is refused', async () => {
      const res = await gql(await session(developer), MEMBERS);
      expect(res.body.errors).toBeUndefined();
      const emails = res.body.data.teamMembers.map((m: { email: string }) => m.email);
      expect(emails).toEqual(expect.arrayContaining([owner.email, admin.email, developer.email]));
      const key = await gql((await app.token(merchant)).accessToken, MEMBERS);
      expect(errorCode(key)).toBe('FORBIDDEN');
    });

    it('the last owner cannot demote or remove themselves', async () => {
      const token = await session(owner);
      expect(errorCode(await gql(token, CHANGE_ROLE, { id: owner.membershipId, role: 'ADMIN' }))).toBe('FORBIDDEN');
      expect(errorCode(await gql(token, REMOVE, { id: owner.membershipId }))).toBe('INVALID_STATE');
      expect(await roleOf(owner)).toBe('owner');
    });

    it('an admin cannot grant owner, nor change or remove an owner; a developer cannot manage the team', async () => {
      const token = await session(admin);
      expect(errorCode(await gql(token, CHANGE_ROLE, { id: developer.membershipId, role: 'OWNER' }))).toBe('FORBIDDEN');
      expect(errorCode(await gql(token, CHANGE_ROLE, { id: owner.membershipId, role: 'VIEWER' }))).toBe('FORBIDDEN');
      expect(errorCode(await gql(token, REMOVE, { id: owner.membershipId }))).toBe('FORBIDDEN');
      expect(errorCode(await gql(token, CHANGE_ROLE, { id: admin.membershipId, role: 'VIEWER' }))).toBe('FORBIDDEN');
      const dev = await session(developer);
      expect(errorCode(await gql(dev, CHANGE_ROLE, { id: developer.membershipId, role: 'ADMIN' }))).toBe('FORBIDDEN');
      expect(await roleOf(owner)).toBe('owner');
      expect(await roleOf(developer)).toBe('developer');
    });

    it('lists each member’s last sign-in: none until they sign in, then the time of their latest sign-in', async () => {
      const member = await addPerson(app, merchant.merchant.id, 'viewer');
      const lastSignInOf = async () =>
        (
          (await gql(await session(admin), '{ teamMembers { userId lastSignInAt } }')).body.data.teamMembers as Array<{
            userId: string;
            lastSignInAt: string | null;
          }>
        ).find((m) => m.userId === member.userId)!.lastSignInAt;
      expect(await lastSignInOf()).toBeNull();
      const signIn = () => request(app.url, 'POST', '/dashboard/session', { headers: dashboard, body: { email: member.email, password: member.password } });
      expect((await signIn()).status).toBe(200);
      const first = app.clock.now();
      expect(await lastSignInOf()).toBe(first.toISOString());
      app.clock.advance(90_000);
      expect((await signIn()).status).toBe(200);
      expect(await lastSignInOf()).toBe(app.clock.now().toISOString());
      expect(app.clock.now().getTime()).toBe(first.getTime() + 90_000);
    });

    it('a role change ends that member’s sessions at once, and is audited with before and after', async () => {
      const { accessToken, refreshToken } = await personSession(app, developer);
      expect((await gql(accessToken, MEMBERS)).body.errors).toBeUndefined();
      const before = await auditCount('member.role_changed');
      const changed = await gql(await session(admin), CHANGE_ROLE, { id: developer.membershipId, role: 'VIEWER' });
      expect(changed.body.errors).toBeUndefined();
      expect(changed.body.data.changeMemberRole).toEqual({ id: developer.membershipId, role: 'VIEWER' });
      // At once: no poll interval waited.
      expect(errorCode(await gql(accessToken, MEMBERS))).toBe('INVALID_TOKEN');
      const refreshed = await request(app.url, 'POST', '/v1/oauth/token', { body: { grant_type: 'refresh_token', refresh_token: refreshToken } });
      expect(refreshed.status).toBe(401);
      expect(await auditCount('member.role_changed')).toBe(before + 1);
      const [entry] = await dbExecute<{ before: { role: string }; after: { role: string }; actor_id: string }>(
        app,
        `select before, after, actor_id from audit_log where action = 'member.role_changed' order by created_at desc, id desc limit 1`,
      );
      expect(entry).toMatchObject({ before: { role: 'developer' }, after: { role: 'viewer' }, actor_id: admin.userId });
      // A fresh session has the new role: a viewer cannot manage the team.
      expect(errorCode(await gql(await session(developer), INVITE, { email: 'x@example.com', role: 'VIEWER' }))).toBe('FORBIDDEN');
    });

    it('ownership is transferred in one step: the member becomes owner, the owner admin', async () => {
      const res = await gql(await session(owner), TRANSFER, { id: admin.membershipId });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.transferOwnership).toEqual({ id: admin.membershipId, role: 'OWNER' });
      expect(await roleOf(admin)).toBe('owner');
      expect(await roleOf(owner)).toBe('admin');
      expect(await auditCount('team.ownership_transferred')).toBe(1);
      const [transferred] = await dbExecute<{ before: unknown; after: unknown }>(
        app,
        `select before, after from audit_log where action = 'team.ownership_transferred' and merchant_id = ?`,
        [merchant.merchant.id],
      );
      expect(transferred).toEqual({ before: { owner: owner.email, role: 'admin' }, after: { owner: admin.email, previous_owner_role: 'admin' } });
      // The former owner's session (its token still says owner) can transfer no more: the membership says admin.
      expect(errorCode(await gql(await session(owner), TRANSFER, { id: admin.membershipId }))).toBe('FORBIDDEN');
      // The new owner can now be the one to demote the former owner, and remove them.
      const newOwner = await session(admin);
      expect((await gql(newOwner, CHANGE_ROLE, { id: owner.membershipId, role: 'DEVELOPER' })).body.data.changeMemberRole.role).toBe('DEVELOPER');
      const removed = await gql(newOwner, REMOVE, { id: owner.membershipId });
      expect(removed.body.data).toEqual({ removeMember: true });
      expect(await roleOf(owner)).toBeUndefined();
      expect(await auditCount('member.removed')).toBe(1);
    });
  });

  describe('invitations', () => {
    let inviter: TestPerson;
    let token: string;

    beforeAll(async () => {
      inviter = await addPerson(app, merchant.merchant.id, 'admin', { name: 'Ada Admin' });
      token = await session(inviter);
    });

    const invite = async (email: string, role = 'FINANCE') => {
      const res = await gql(token, INVITE, { email, role });
      expect(res.body.errors).toBeUndefined();
      return { invitation: res.body.data.inviteMember, link: invitationTokenOf(mail.at(-1)!) };
    };

    it('invites by email; the link creates the person (email verified) and their membership, once', async () => {
      const createdBefore = await auditCount('invitation.created');
      const { invitation, link } = await invite('  New.Finance@Example.com ');
      expect(await auditCount('invitation.created')).toBe(createdBefore + 1);
      expect(invitation).toMatchObject({ email: 'new.finance@example.com', role: 'FINANCE', status: 'PENDING' });
      const message = mail.at(-1)!;
      expect(message.to).toBe('new.finance@example.com');
      expect(message.text).toContain('Ada Admin invited you to join the team of Team Merchant');
      expect(message.html).toContain(`accept-invitation?token=${encodeURIComponent(link)}`);
      expect(JSON.stringify(await dbExecute(app, 'select * from invitation'))).not.toContain(link);

      const seen = await preview(link);
      expect(seen.status).toBe(200);
      expect(seen.body.data).toEqual({ merchant_name: 'Team Merchant', email: 'new.finance@example.com', role: 'finance', existing_user: false });
      expect((await accept({ token: link, password: 'short' })).status).toBe(400);
      const joined = await accept({ token: link, name: 'Fin', password: 'a long enough password' });
      expect(joined.status).toBe(200);
      expect(joined.body.data).toEqual({ merchant_id: merchant.merchant.id, email: 'new.finance@example.com', role: 'finance' });
      const [user] = await dbExecute<{ name: string; email_verified_at: Date | null; role: string }>(
        app,
        `select u.name, u.email_verified_at, m.role from app_user u join membership m on m.user_id = u.id where u.email = 'new.finance@example.com'`,
      );
      expect(user).toMatchObject({ name: 'Fin', role: 'finance' });
      expect(user!.email_verified_at).not.toBeNull();

      // Reused: refused, with the one message every unusable link gets.
      const reused = await accept({ token: link, password: 'a long enough password' });
      expect(reused.status).toBe(400);
      expect(reused.body.code).toBe('INVALID_REQUEST');
      const unknown = await preview('inv_nothing');
      expect(unknown.body.message).toBe(reused.body.message);
      expect((await preview(link)).body.message).toBe(reused.body.message);
      const listed = await gql(token, '{ invitations { id status } }');
      expect(listed.body.data.invitations).toEqual(expect.arrayContaining([{ id: invitation.id, status: 'ACCEPTED' }]));
      expect(await auditCount('invitation.accepted')).toBe(1);
      // The entries' values are snake_case, as every other entry's (docs/audit-log.md).
      const entries = await dbExecute<{ action: string; after: Record<string, unknown> }>(
        app,
        `select action, after from audit_log where target_id = ? and action in ('invitation.created', 'invitation.accepted') order by created_at, id`,
        [invitation.id],
      );
      expect(entries).toEqual([
        { action: 'invitation.created', after: { email: 'new.finance@example.com', role: 'finance', expires_at: invitation.expiresAt } },
        { action: 'invitation.accepted', after: { email: 'new.finance@example.com', role: 'finance', new_user: true } },
      ]);
    });

    it('an expired link (7 days and a second) is refused; a resend gives a new link and kills the old one', async () => {
      const { invitation, link } = await invite('late@example.com');
      app.clock.advance(7 * 24 * 3600 * 1000 + 1000);
      const expired = await preview(link);
      expect(expired.status).toBe(400);
      expect(expired.body.code).toBe('INVALID_REQUEST');
      expect((await accept({ token: link, password: 'a long enough password' })).status).toBe(400);
      const fresh = await session(inviter); // the clock moved past the old access token's hour
      const statuses = await gql(fresh, '{ invitations { id status } }');
      expect(statuses.body.data.invitations).toEqual(expect.arrayContaining([{ id: invitation.id, status: 'EXPIRED' }]));

      const resent = await gql(fresh, 'mutation($id: ID!) { resendInvitation(id: $id) { id status } }', { id: invitation.id });
      expect(resent.body.data.resendInvitation).toEqual({ id: invitation.id, status: 'PENDING' });
      const newLink = invitationTokenOf(mail.at(-1)!);
      expect(newLink).not.toBe(link);
      expect((await preview(link)).status).toBe(400);
      expect((await preview(newLink)).status).toBe(200);
      token = fresh;
    });

    it('a resend of a pending invitation kills its old link; a revoked link is refused', async () => {
      const { invitation, link } = await invite('twice@example.com', 'VIEWER');
      const resentBefore = await auditCount('invitation.resent');
      await gql(token, 'mutation($id: ID!) { resendInvitation(id: $id) { id } }', { id: invitation.id });
      expect(await auditCount('invitation.resent')).toBe(resentBefore + 1);
      const newLink = invitationTokenOf(mail.at(-1)!);
      expect((await preview(link)).status).toBe(400);
      expect((await preview(newLink)).status).toBe(200);
      const revoked = await gql(token, 'mutation($id: ID!) { revokeInvitation(id: $id) { status } }', { id: invitation.id });
      expect(revoked.body.data.revokeInvitation.status).toBe('REVOKED');
      expect((await preview(newLink)).status).toBe(400);
      expect(await auditCount('invitation.revoked')).toBe(1);
    });

    it('nobody is invited as owner; a second pending invitation, or a member’s email, is refused', async () => {
      const asOwner = await gql(token, INVITE, { email: 'boss@example.com', role: 'OWNER' });
      expect(errorCode(asOwner)).toBe('INVALID_REQUEST');
      await invite('dup@example.com', 'ADMIN');
      expect(errorCode(await gql(token, INVITE, { email: 'DUP@example.com', role: 'VIEWER' }))).toBe('DUPLICATE_REQUEST');
      expect(errorCode(await gql(token, INVITE, { email: inviter.email, role: 'VIEWER' }))).toBe('DUPLICATE_REQUEST');
    });

    it('an existing account joins another merchant with its own password', async () => {
      const other = await app.createMerchant('Other Merchant');
      const otherOwner = await addPerson(app, other.merchant.id, 'owner');
      const res = await gql(await session(otherOwner), INVITE, { email: inviter.email, role: 'SUPPORT' });
      expect(res.body.errors).toBeUndefined();
      const link = invitationTokenOf(mail.at(-1)!);
      expect((await preview(link)).body.data.existing_user).toBe(true);
      const wrong = await accept({ token: link, password: 'not the password at all' });
      expect(wrong.status).toBe(400);
      expect(wrong.body.details?.[0]?.field).toBe('password');
      const joined = await accept({ token: link, password: inviter.password });
      expect(joined.status).toBe(200);
      expect(joined.body.data.merchant_id).toBe(other.merchant.id);
      const roles = await dbExecute<{ role: string }>(app, 'select role from membership where user_id = ? order by role', [inviter.userId]);
      expect(roles.map((r) => r.role)).toEqual(['admin', 'support']);
    });

    it('a member of another merchant sees none of this team and can change none of it', async () => {
      const other = await app.createMerchant('Stranger Merchant');
      const stranger = await session(await addPerson(app, other.merchant.id, 'owner'));
      const members = await gql(stranger, MEMBERS);
      expect(members.body.data.teamMembers.map((m: { userId: string }) => m.userId)).not.toContain(inviter.userId);
      const invitations = await gql(stranger, '{ invitations { email } }');
      expect(invitations.body.data.invitations).toEqual([]);
      expect(errorCode(await gql(stranger, CHANGE_ROLE, { id: inviter.membershipId, role: 'VIEWER' }))).toBe('NOT_FOUND');
      expect(errorCode(await gql(stranger, REMOVE, { id: inviter.membershipId }))).toBe('NOT_FOUND');
      expect(errorCode(await gql(stranger, TRANSFER, { id: inviter.membershipId }))).toBe('NOT_FOUND');
      const [mine] = await dbExecute<{ id: string }>(app, 'select id from invitation where merchant_id = ? limit 1', [merchant.merchant.id]);
      expect(errorCode(await gql(stranger, 'mutation($id: ID!) { revokeInvitation(id: $id) { id } }', { id: mine!.id }))).toBe('NOT_FOUND');
      expect(errorCode(await gql(stranger, 'mutation($id: ID!) { resendInvitation(id: $id) { id } }', { id: mine!.id }))).toBe('NOT_FOUND');
      expect(await roleOf(inviter)).toBe('admin');
    });

    it('the accept routes refuse a request without X-Requested-With', async () => {
      const res = await request(app.url, 'GET', '/dashboard/invitations/preview?token=x');
      expect(res.status).toBe(400);
    });
  });

  describe('two-factor enrolment', () => {
    let person: TestPerson;
    let token: string;
    let secret: string;
    let recovery: string[];

    beforeAll(async () => {
      person = await addPerson(app, merchant.merchant.id, 'support');
      token = await session(person);
    });

    const CONFIRM = 'mutation($code: String!) { confirmTwoFactor(code: $code) }';
    const DISABLE = 'mutation($password: String!, $code: String!) { disableTwoFactor(password: $password, code: $code) }';
    /** Who requires 2FA of the team must have it. */
    const adminWithTwoFactor = async () => {
      const admin = await addPerson(app, merchant.merchant.id, 'admin');
      await enableTwoFactor(app, admin.userId);
      return admin;
    };

    it('enrols with a computed TOTP code and answers 10 recovery codes once', async () => {
      const begun = await gql(token, 'mutation { beginTwoFactorEnrolment { secret otpauthUri qrSvg } }');
      expect(begun.body.errors).toBeUndefined();
      ({ secret } = begun.body.data.beginTwoFactorEnrolment);
      expect(begun.body.data.beginTwoFactorEnrolment.otpauthUri).toMatch(/^otpauth:\/\/totp\//);
      expect(begun.body.data.beginTwoFactorEnrolment.qrSvg).toMatch(/<svg/);
      const [stored] = await dbExecute<{ totp_secret_sealed: string; totp_enabled_at: Date | null }>(
        app,
        'select totp_secret_sealed, totp_enabled_at from app_user where id = ?',
        [person.userId],
      );
      expect(stored!.totp_secret_sealed).not.toContain(secret);
      expect(stored!.totp_enabled_at).toBeNull();

      const code = totpCodeAt(secret, app.clock.now());
      expect(errorCode(await gql(token, CONFIRM, { code: code === '000000' ? '111111' : '000000' }))).toBe('INVALID_REQUEST');
      const confirmed = await gql(token, CONFIRM, { code });
      expect(confirmed.body.errors).toBeUndefined();
      recovery = confirmed.body.data.confirmTwoFactor;
      expect(recovery).toHaveLength(10);
      expect(new Set(recovery).size).toBe(10);
      const hashes = await dbExecute<{ code_hash: string }>(app, 'select code_hash from recovery_code where user_id = ?', [person.userId]);
      expect(hashes).toHaveLength(10);
      expect(JSON.stringify(hashes)).not.toContain(recovery[0]);
      expect(errorCode(await gql(token, CONFIRM, { code }))).toBe('INVALID_STATE');
      expect((await gql(token, MEMBERS)).body.data.teamMembers.find((m: { userId: string }) => m.userId === person.userId).twoFactorEnabled).toBe(true);
      expect(await auditCount('user.two_factor_enrolled')).toBe(1);
      const [enrolled] = await dbExecute<{ after: unknown }>(app, `select after from audit_log where action = 'user.two_factor_enrolled' and actor_id = ?`, [
        person.userId,
      ]);
      expect(enrolled).toEqual({ after: { email: person.email, recovery_code_count: 10 } });

      // The code that confirmed is spent: presented again, even with the right password, it is refused.
      const replay = await gql(token, DISABLE, { password: person.password, code });
      expect(errorCode(replay)).toBe('INVALID_REQUEST');
      expect(replay.body.errors?.[0]?.extensions?.details?.[0]?.field).toBe('code');
    });

    it('a sign-in code is never accepted twice; recovery codes are single use', async () => {
      const { twoFactor } = app.service.app.services;
      app.clock.advance(30_000);
      const next = totpCodeAt(secret, app.clock.now());
      expect(await twoFactor.verifySecondFactor(person.userId, next)).toBe(true);
      expect(await twoFactor.verifySecondFactor(person.userId, next)).toBe(false);
      expect(await twoFactor.verifySecondFactor(person.userId, recovery[0]!.toUpperCase())).toBe(true);
      expect(await twoFactor.verifySecondFactor(person.userId, recovery[0]!)).toBe(false);
    });

    it('is not turned off where the merchant requires it, nor without the password; then is, with a recovery code', async () => {
      token = await session(person);
      const manager = await session(await adminWithTwoFactor());
      const required = await gql(manager, 'mutation { setTwoFactorRequired(required: true) }');
      expect(required.body.data).toEqual({ setTwoFactorRequired: true });
      expect((await gql(token, '{ teamSettings { twoFactorRequired } }')).body.data.teamSettings.twoFactorRequired).toBe(true);
      expect(errorCode(await gql(token, DISABLE, { password: person.password, code: recovery[1] }))).toBe('FORBIDDEN');
      await gql(manager, 'mutation { setTwoFactorRequired(required: false) }');
      expect(await auditCount('team.two_factor_requirement_changed')).toBe(2);
      const requirement = await dbExecute<{ before: unknown; after: unknown }>(
        app,
        `select before, after from audit_log where action = 'team.two_factor_requirement_changed' and merchant_id = ? order by created_at, id`,
        [merchant.merchant.id],
      );
      expect(requirement).toEqual([
        { before: { two_factor_required: false }, after: { two_factor_required: true } },
        { before: { two_factor_required: true }, after: { two_factor_required: false } },
      ]);

      const wrong = await gql(token, DISABLE, { password: 'not my password', code: recovery[1] });
      expect(wrong.body.errors?.[0]?.extensions?.details?.[0]?.field).toBe('password');
      expect(errorCode(await gql(token, DISABLE, { password: person.password, code: recovery[0] }))).toBe('INVALID_REQUEST');
      const off = await gql(token, DISABLE, { password: person.password, code: recovery[1] });
      expect(off.body.data).toEqual({ disableTwoFactor: true });
      const [user] = await dbExecute<{ totp_enabled_at: Date | null; totp_secret_sealed: string | null }>(
        app,
        'select totp_enabled_at, totp_secret_sealed from app_user where id = ?',
        [person.userId],
      );
      expect(user).toEqual({ totp_enabled_at: null, totp_secret_sealed: null });
      expect(await auditCount('user.two_factor_removed')).toBe(1);
    });

    it('where the merchant requires 2FA, a member without it refreshes into a session that can only enrol; once enrolled, into a full one', async () => {
      const manager = await session(await adminWithTwoFactor());
      expect((await gql(manager, 'mutation { setTwoFactorRequired(required: true) }')).body.errors).toBeUndefined();
      const refresh = async (refreshToken: string) => {
        const res = await request(app.url, 'POST', '/v1/oauth/token', { body: { grant_type: 'refresh_token', refresh_token: refreshToken } });
        expect(res.status).toBe(200);
        return { accessToken: res.body.data.access_token as string, refreshToken: res.body.data.refresh_token as string };
      };
      const limited = await refresh((await personSession(app, person)).refreshToken);
      expect(errorCode(await gql(limited.accessToken, MEMBERS))).toBe('FORBIDDEN');
      const begun = await gql(limited.accessToken, 'mutation { beginTwoFactorEnrolment { secret } }');
      expect(begun.body.errors).toBeUndefined();
      app.clock.advance(30_000);
      const confirmed = await gql(limited.accessToken, CONFIRM, { code: totpCodeAt(begun.body.data.beginTwoFactorEnrolment.secret, app.clock.now()) });
      expect(confirmed.body.data.confirmTwoFactor).toHaveLength(10);
      // Confirming revoked nothing: the same session refreshes (the holder is read afresh) into full access.
      const full = await refresh(limited.refreshToken);
      expect((await gql(full.accessToken, MEMBERS)).body.errors).toBeUndefined();
      await gql(manager, 'mutation { setTwoFactorRequired(required: false) }');
    });
  });

  describe('requiring 2FA of the team', () => {
    const REQUIRE = 'mutation($required: Boolean!) { setTwoFactorRequired(required: $required) }';
    const refresh = (refreshToken: string) =>
      request(app.url, 'POST', '/v1/oauth/token', { body: { grant_type: 'refresh_token', refresh_token: refreshToken } });

    it('takes effect at once: a live token of a member without 2FA is refused (INVALID_TOKEN), members with 2FA keep working', async () => {
      const shop = await app.createMerchant('Strict Merchant');
      const owner = await addPerson(app, shop.merchant.id, 'owner');
      await enableTwoFactor(app, owner.userId);
      const enrolled = await addPerson(app, shop.merchant.id, 'developer');
      await enableTwoFactor(app, enrolled.userId);
      const without = await addPerson(app, shop.merchant.id, 'viewer');
      // The same person at another merchant, which does not require it: that session is not this team's to end.
      const elsewhere = await addPerson(app, (await app.createMerchant('Lenient Merchant')).merchant.id, 'viewer', { userId: without.userId });
      const ownerToken = await session(owner);
      const enrolledSession = await personSession(app, enrolled);
      const live = await personSession(app, without);
      const there = await session(elsewhere);
      expect((await gql(live.accessToken, MEMBERS)).body.errors).toBeUndefined();

      const required = await gql(ownerToken, REQUIRE, { required: true });
      expect(required.body).toEqual({ data: { setTwoFactorRequired: true } });
      // At once, through both doors: no refresh, no poll interval waited. Its refresh token is dead too.
      expect(errorCode(await gql(live.accessToken, MEMBERS))).toBe('INVALID_TOKEN');
      const rest = await request(app.url, 'GET', '/v1/merchant', { token: live.accessToken });
      expect([rest.status, rest.body.code]).toEqual([401, 'INVALID_TOKEN']);
      expect((await refresh(live.refreshToken)).status).toBe(401);
      const [family] = await dbExecute<{ revoked_reason: string }>(app, 'select revoked_reason from token_family where id = ?', [live.familyId]);
      expect(family).toEqual({ revoked_reason: 'two_factor_required' });
      // Members with 2FA keep their sessions (the author's too), and the member's session elsewhere stays.
      expect((await gql(enrolledSession.accessToken, MEMBERS)).body.errors).toBeUndefined();
      expect((await refresh(enrolledSession.refreshToken)).status).toBe(200);
      expect((await gql(ownerToken, MEMBERS)).body.errors).toBeUndefined();
      expect((await gql(there, MEMBERS)).body.errors).toBeUndefined();

      // Signing in again, the member can only enrol.
      const again = await request(app.url, 'POST', '/dashboard/session', {
        headers: dashboard,
        body: { email: without.email, password: without.password, merchant_id: shop.merchant.id },
      });
      expect(again.body.data).toMatchObject({ role: 'viewer', two_factor_required: true });
      expect(errorCode(await gql(again.body.data.access_token, MEMBERS))).toBe('FORBIDDEN');

      // Turning it off ends nothing.
      expect((await gql(ownerToken, REQUIRE, { required: false })).body.errors).toBeUndefined();
      expect((await gql(again.body.data.access_token, '{ me { enrolmentOnly } }')).body.data.me.enrolmentOnly).toBe(true);
      expect((await gql(enrolledSession.accessToken, MEMBERS)).body.errors).toBeUndefined();
    });

    it('only a member with 2FA may require it: INVALID_STATE otherwise, and nothing changes', async () => {
      const shop = await app.createMerchant('Careless Merchant');
      const admin = await addPerson(app, shop.merchant.id, 'admin');
      const token = await session(admin);
      const refused = await gql(token, REQUIRE, { required: true });
      expect(errorCode(refused)).toBe('INVALID_STATE');
      expect(refused.body.errors?.[0]?.message).toContain('Turn on two-factor authentication for yourself first');
      expect((await gql(token, '{ teamSettings { twoFactorRequired } }')).body.data.teamSettings.twoFactorRequired).toBe(false);
      expect(await auditCount('team.two_factor_requirement_changed', shop.merchant.id)).toBe(0);
      expect((await gql(token, MEMBERS)).body.errors).toBeUndefined();
    });
  });
});
