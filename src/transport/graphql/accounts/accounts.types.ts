import { Field, ID, ObjectType } from 'type-graphql';
import type { Role } from '../../../modules/access/permissions';
import type { AccountUser, Me, Membership } from '../../../modules/accounts/account.service';
import type { UserSession } from '../../../modules/accounts/sessions.service';
import { PrincipalKindEnum, RoleEnum } from '../enums';

@ObjectType('User', { description: 'A person with a dashboard account.' })
export class UserObject {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  email!: string;

  @Field(() => String)
  name!: string;

  @Field(() => Boolean, { description: 'Whether the email address was confirmed through the emailed link (production requires it to sign in).' })
  emailVerified!: boolean;

  @Field(() => Boolean)
  twoFactorEnabled!: boolean;

  static from(user: AccountUser): UserObject {
    return Object.assign(new UserObject(), user);
  }
}

@ObjectType('Membership', { description: 'A merchant the person belongs to, and their role there.' })
export class MembershipObject {
  @Field(() => ID)
  merchantId!: string;

  @Field(() => String)
  merchantName!: string;

  @Field(() => RoleEnum)
  role!: Role;
}

@ObjectType('Me', { description: 'Who the access token speaks for: an API key or a person, their role and what it permits.' })
export class MeObject {
  @Field(() => PrincipalKindEnum)
  kind!: 'api_key' | 'user';

  @Field(() => RoleEnum)
  role!: Role;

  @Field(() => [String], { description: 'What the role permits here, e.g. "refunds:create" (docs/access.md); none while enrolmentOnly.' })
  permissions!: string[];

  @Field(() => ID)
  merchantId!: string;

  @Field(() => String)
  merchantName!: string;

  @Field(() => Boolean, {
    description: 'The person must enrol in two-factor authentication before anything else (the merchant, or production for this role, requires it).',
  })
  enrolmentOnly!: boolean;

  @Field(() => UserObject, { nullable: true, description: 'The person; null for an API key.' })
  user!: UserObject | null;

  @Field(() => [MembershipObject], { description: 'The merchants the person belongs to (switch with POST /dashboard/session/switch); empty for an API key.' })
  memberships!: MembershipObject[];

  static from(me: Me): MeObject {
    return Object.assign(new MeObject(), {
      ...me,
      user: me.user ? UserObject.from(me.user) : null,
      memberships: me.memberships.map((m: Membership) => Object.assign(new MembershipObject(), m)),
    });
  }
}

@ObjectType('UserSession', { description: 'One of the person’s dashboard sessions (a browser signed in).' })
export class UserSessionObject {
  @Field(() => ID)
  id!: string;

  @Field(() => ID, { description: 'The merchant the session is signed in at.' })
  merchantId!: string;

  @Field(() => String, { nullable: true })
  userAgent!: string | null;

  @Field(() => String, { nullable: true, description: 'The address it signed in from.' })
  ip!: string | null;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When it last refreshed its access token.' })
  lastSeenAt!: Date | null;

  @Field(() => Boolean, { description: 'The session making this request.' })
  current!: boolean;

  static from(session: UserSession & { current: boolean }): UserSessionObject {
    return Object.assign(new UserSessionObject(), session);
  }
}
