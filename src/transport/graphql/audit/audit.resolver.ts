import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { AuditLogQueries } from '../../../modules/audit/audit.queries';
import { Requires } from '../authorization';
import type { GraphQLContext } from '../context';
import { toConnection } from '../relay';
import { AuditLogConnection, AuditLogEntryObject, AuditLogFilter } from './audit.types';

/** The services this file calls (the composition root passes them). */
type UsedServices = { auditQueries: AuditLogQueries };

/** The audit log (docs/access.md); the same service call as GET /v1/audit-logs. Owners and admins only. */
@Resolver()
export class AuditResolver {
  constructor(private readonly services: UsedServices) {}

  @Requires('audit:read')
  @Query(() => AuditLogConnection, { description: 'Your audit log, newest first: who did what, with their role, from where. Owners and admins only.' })
  async auditLog(
    @Ctx() ctx: GraphQLContext,
    @Arg('filter', () => AuditLogFilter, { nullable: true }) filter?: AuditLogFilter,
    @Arg('first', () => Int, { nullable: true }) first?: number,
    @Arg('after', () => String, { nullable: true }) after?: string,
  ): Promise<AuditLogConnection> {
    const page = await this.services.auditQueries.listEntries(ctx.auth.merchantId, { ...filter, limit: first, after });
    return toConnection(page, (entry) => AuditLogEntryObject.from(entry));
  }
}
