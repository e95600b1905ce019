import { z } from 'zod';
import { defineRecord, enumOf, jsonObject, restView, text, timestamp, uuid } from '../../shared/record-definition';
import { AUDIT_ACTIONS, AUDIT_ACTOR_TYPES, type AuditAction, type AuditActorType } from './audit-log';

/** One entry of the audit log as it is read back (audit_log's row). */
export interface AuditRecord {
  id: string;
  merchantId: string | null;
  actorType: AuditActorType;
  actorId: string | null;
  actorLabel: string | null;
  role: string | null;
  action: AuditAction;
  targetType: string | null;
  targetId: string | null;
  ip: string | null;
  userAgent: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  createdAt: Date;
}

/*
 * The audit log's entry, defined once (docs/design.md, "One definition per record"): the REST
 * record (GET /v1/audit-logs), GraphQL's AuditLogEntry and the CSV export's columns come from it.
 */
export const AUDIT_ENTRY = defineRecord<AuditRecord>()({
  name: 'AuditLogEntry',
  description: 'One security-relevant action: who did it (with their role), what, to what, from where and when; before and after values with secrets redacted.',
  fields: {
    id: { type: uuid },
    createdAt: { type: timestamp, description: 'When it happened.' },
    action: {
      type: text,
      description: `What happened, e.g. "webhook.secret_rotated". One of: ${AUDIT_ACTIONS.join(', ')}. A string, not an enum: actions have dots.`,
      rest: { schema: z.enum(AUDIT_ACTIONS) },
    },
    actorType: {
      type: enumOf(AUDIT_ACTOR_TYPES, 'AuditActorType'),
      description: 'user: a person in the dashboard; api_key: an API key; operator: the service’s operator (a CLI, the admin API); system: the service itself.',
    },
    actorId: { type: text, nullable: true, description: 'The person’s user id, the API key’s id, or the operator’s name when given.' },
    actorLabel: {
      type: text,
      nullable: true,
      description: 'What a reader recognises: the API key’s client_id, or the operator’s tool (e.g. "ledger:adjust", "admin_api").',
    },
    role: {
      type: text,
      nullable: true,
      description: 'The actor’s role when they acted (owner, admin, developer, finance, support, viewer); null for operators and the system.',
    },
    targetType: { type: text, nullable: true, description: 'What was acted on, e.g. "refund", "webhook_endpoint", "merchant".' },
    targetId: { type: text, nullable: true, description: 'Its id or reference.' },
    ip: { type: text, nullable: true, description: 'The address the request came from; null for a CLI.' },
    userAgent: { type: text, nullable: true, description: 'The request’s User-Agent; null for a CLI.' },
    before: {
      type: jsonObject,
      nullable: true,
      description: 'The values before the change (secrets redacted), snake_case; null when nothing was there before.',
    },
    after: { type: jsonObject, nullable: true, description: 'The values after the change (secrets redacted), snake_case.' },
  },
});

export const AuditLogEntryRest = restView(AUDIT_ENTRY, {
  id: 'AuditLogEntry',
  fields: ['id', 'createdAt', 'action', 'actorType', 'actorId', 'actorLabel', 'role', 'targetType', 'targetId', 'ip', 'userAgent', 'before', 'after'],
});
