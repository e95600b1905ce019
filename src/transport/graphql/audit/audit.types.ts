import { Field, InputType, ObjectType } from 'type-graphql';
import { AUDIT_ACTOR_TYPES } from '../../../modules/audit/audit-log';
import { AUDIT_ENTRY } from '../../../modules/audit/audit.definition';
import type { AuditLogListQuery } from '../../../modules/audit/audit.queries';
import { domainEnum } from '../enums';
import { objectTypeOf } from '../record-types';
import { Connection } from '../relay';

const AuditActorTypeEnum = domainEnum(
  AUDIT_ACTOR_TYPES,
  'AuditActorType',
  'Who acted: a person (USER), an API key, an operator, or the service itself (SYSTEM).',
);

/** The AuditLogEntry type, generated from its definition (modules/audit/audit.definition.ts). */
export const AuditLogEntryObject = objectTypeOf(AUDIT_ENTRY, { enums: { AuditActorType: AuditActorTypeEnum } });
export type AuditLogEntryObject = InstanceType<typeof AuditLogEntryObject>;

@ObjectType('AuditLogConnection')
export class AuditLogConnection extends Connection(AuditLogEntryObject, 'AuditLog') {}

@InputType('AuditLogFilter', { description: 'Every given condition must hold.' })
export class AuditLogFilter implements Pick<AuditLogListQuery, 'actor' | 'action' | 'from' | 'to'> {
  @Field(() => String, {
    nullable: true,
    description: 'The actor’s id (a user’s or API key’s id) or label (an API key’s client id, an operator’s tool such as "ledger:adjust"), exactly.',
  })
  actor?: string | null;
  @Field(() => String, { nullable: true, description: 'One action, e.g. "webhook.secret_rotated" (AuditLogEntry.action lists them).' })
  action?: string | null;
  @Field(() => Date, { nullable: true, description: 'At or after this time.' }) from?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Before this time.' }) to?: Date | null;
}
