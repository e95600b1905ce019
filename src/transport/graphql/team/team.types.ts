import { Field, ID, ObjectType } from 'type-graphql';
import type { Role } from '../../../modules/access/permissions';
import type { Invitation } from '../../../modules/team/invitation.rows';
import type { TeamMember, TeamSettings } from '../../../modules/team/team.service';
import type { InvitationStatus } from '../../../modules/team/team.rules';
import type { TwoFactorEnrolment } from '../../../modules/team/two-factor.service';
import { InvitationStatusEnum, RoleEnum } from '../enums';

@ObjectType('TwoFactorEnrolment', { description: 'A new TOTP secret, not yet on: confirm it with a code from the authenticator app (confirmTwoFactor).' })
export class TwoFactorEnrolmentObject {
  @Field(() => String, { description: 'Base32, for typing into an authenticator app by hand.' })
  secret!: string;

  @Field(() => String, { description: 'The otpauth:// URI the QR code holds.' })
  otpauthUri!: string;

  @Field(() => String, { description: 'The QR code of otpauthUri, as an SVG document.' })
  qrSvg!: string;

  static from(enrolment: TwoFactorEnrolment): TwoFactorEnrolmentObject {
    return Object.assign(new TwoFactorEnrolmentObject(), enrolment);
  }
}

@ObjectType('TeamMember', { description: 'A person in the merchant’s team.' })
export class TeamMemberObject {
  @Field(() => ID, { description: 'The membership’s id: what changeMemberRole, removeMember and transferOwnership take.' })
  id!: string;

  @Field(() => ID)
  userId!: string;

  @Field(() => String)
  email!: string;

  @Field(() => String)
  name!: string;

  @Field(() => RoleEnum)
  role!: Role;

  @Field(() => Boolean)
  twoFactorEnabled!: boolean;

  @Field(() => Date, { nullable: true })
  lastSignInAt!: Date | null;

  @Field(() => Date, { description: 'When they joined.' })
  createdAt!: Date;

  static from(member: TeamMember): TeamMemberObject {
    return Object.assign(new TeamMemberObject(), member);
  }
}

@ObjectType('Invitation', { description: 'An invitation to join the team, sent by email; its link works once, for 7 days.' })
export class InvitationObject {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  email!: string;

  @Field(() => RoleEnum)
  role!: Role;

  @Field(() => InvitationStatusEnum)
  status!: InvitationStatus;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date, { description: 'When its link stops working (a resend sets it 7 days from then).' })
  expiresAt!: Date;

  static from(invitation: Invitation): InvitationObject {
    return Object.assign(new InvitationObject(), invitation);
  }
}

@ObjectType('TeamSettings', { description: 'What applies to the whole team.' })
export class TeamSettingsObject {
  @Field(() => Boolean, { description: 'Every member must have 2FA: a member without it can only enrol.' })
  twoFactorRequired!: boolean;

  static from(settings: TeamSettings): TeamSettingsObject {
    return Object.assign(new TeamSettingsObject(), settings);
  }
}
