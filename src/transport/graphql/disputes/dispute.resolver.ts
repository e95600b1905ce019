import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { DisputeService } from '../../../modules/disputes/dispute.service';
import type { DisputeStatus } from '../../../modules/disputes/dispute.rules';
import type { ReferenceService } from '../../../modules/reference/reference.service';
import { Requires } from '../authorization';
import { AppError } from '../../../shared/errors';
import { DISPUTE_FILE_MAX_BASE64_CHARS } from '../../../modules/disputes/files/file-type';
import { decodeBase64File } from '../../../shared/file-content';
import { auditOf, type GraphQLContext } from '../context';
import { toConnection } from '../relay';
import {
  DisputeConnection,
  DisputeEvidenceInput,
  DisputeFileObject,
  DisputeObject,
  DisputeOutcomeEnum,
  DisputeStatusEnum,
  SimulateDisputeInput,
} from './dispute.types';

/** The services this file calls (the composition root passes them). */
type UsedServices = { disputes: DisputeService; reference: ReferenceService };

/** Disputes (issue 39): the same service calls as /v1/disputes. */
@Resolver(() => DisputeObject)
export class DisputeResolver {
  constructor(private readonly services: UsedServices) {}

  private object(d: Parameters<typeof DisputeObject.from>[0]): DisputeObject {
    return DisputeObject.from(d, this.services.reference);
  }

  @Requires('disputes:read')
  @Query(() => DisputeObject, { description: 'One of your disputes, by its id (dp_…).' })
  async dispute(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<DisputeObject> {
    return this.object(await this.services.disputes.get(ctx.auth.merchantId, id));
  }

  @Requires('disputes:read')
  @Query(() => DisputeConnection, { description: 'Your disputes, newest first.' })
  async disputes(
    @Ctx() ctx: GraphQLContext,
    @Arg('first', () => Int, { nullable: true }) first?: number,
    @Arg('after', () => String, { nullable: true }) after?: string,
    @Arg('status', () => DisputeStatusEnum, { nullable: true }) status?: DisputeStatus,
    @Arg('dueBefore', () => Date, { nullable: true, description: 'Only disputes whose evidence is due before this time.' }) dueBefore?: Date,
    @Arg('paymentReference', () => String, { nullable: true, description: 'Only the disputes of this payment.' }) paymentReference?: string,
  ): Promise<DisputeConnection> {
    const page = await this.services.disputes.list(ctx.auth.merchantId, { limit: first, after, status, dueBefore, paymentReference });
    return toConnection(page, (d) => this.object(d));
  }

  @Requires('disputes:read')
  @Query(() => Int, { description: 'How many of your disputes need a response (NEEDS_RESPONSE or WARNING_NEEDS_RESPONSE).' })
  async openDisputeCount(@Ctx() ctx: GraphQLContext): Promise<number> {
    return this.services.disputes.countNeedingResponse(ctx.auth.merchantId);
  }

  @Requires('disputes:manage')
  @Mutation(() => DisputeObject, { description: 'Add to a dispute’s evidence before it is submitted.' })
  async updateDisputeEvidence(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => DisputeEvidenceInput) input: DisputeEvidenceInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<DisputeObject> {
    return this.object(await this.services.disputes.updateEvidence(ctx.auth.merchantId, id, DisputeEvidenceInput.command(input), auditOf(ctx)));
  }

  @Requires('disputes:manage')
  @Mutation(() => DisputeObject, { description: 'Send the evidence to the card network (once): the dispute goes under review.' })
  async submitDispute(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<DisputeObject> {
    return this.object(await this.services.disputes.submit(ctx.auth.merchantId, id, auditOf(ctx)));
  }

  @Requires('disputes:manage')
  @Mutation(() => DisputeObject, { description: 'Accept a dispute: a chargeback is lost (its amount and fee are not given back); an inquiry is closed.' })
  async acceptDispute(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<DisputeObject> {
    return this.object(await this.services.disputes.accept(ctx.auth.merchantId, id, auditOf(ctx)));
  }

  @Requires('disputes:manage')
  @Mutation(() => DisputeFileObject, {
    description:
      'Upload a file for a dispute’s evidence (PDF, PNG or JPEG, by its content), then name it in updateDisputeEvidence’s fileIds. Up to the GraphQL body limit (about 700 KB of file); REST POST /v1/disputes/{id}/files takes up to 5 MB.',
  })
  async uploadDisputeFile(
    @Arg('disputeId', () => ID) disputeId: string,
    @Arg('filename', () => String) filename: string,
    @Arg('contentBase64', () => String, { description: 'The file’s bytes, base64 (standard or URL-safe alphabet).' }) contentBase64: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<DisputeFileObject> {
    if (contentBase64.length > DISPUTE_FILE_MAX_BASE64_CHARS) throw AppError.invalidField('contentBase64', 'is too large: at most 5 MB of file');
    const bytes = decodeBase64File(contentBase64);
    if (bytes === null) throw AppError.invalidField('contentBase64', 'must be base64');
    return DisputeFileObject.from(await this.services.disputes.uploadFile(ctx.auth.merchantId, disputeId, { filename, bytes }, auditOf(ctx)));
  }

  @Requires('payments:create')
  @Mutation(() => DisputeObject, { description: 'Sandbox: a cardholder disputes a successful card payment (REST POST /v1/sandbox/disputes).' })
  async simulateDispute(@Arg('input', () => SimulateDisputeInput) input: SimulateDisputeInput, @Ctx() ctx: GraphQLContext): Promise<DisputeObject> {
    return this.object(await this.services.disputes.simulate(ctx.auth.merchantId, input, auditOf(ctx)));
  }

  @Requires('payments:create')
  @Mutation(() => DisputeObject, { description: 'Sandbox: the card network decides a submitted dispute.' })
  async simulateDisputeOutcome(
    @Arg('id', () => ID) id: string,
    @Arg('outcome', () => DisputeOutcomeEnum) outcome: 'won' | 'lost',
    @Ctx() ctx: GraphQLContext,
  ): Promise<DisputeObject> {
    return this.object(await this.services.disputes.simulateOutcome(ctx.auth.merchantId, id, { outcome }));
  }
}
