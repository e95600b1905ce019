import 'reflect-metadata';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { pageMeta } from '../transport/rest/envelope';
import { exitWith, runWithServices } from './operator-cli';
import { serializeKycSubmission, serializeKycSubmissionDetail } from '../modules/kyc/kyc-review.serializer';

const USAGE = `usage: npm run kyc:review -- <command>
  list [--limit N] [--after CURSOR]       pending submissions, oldest first (identity numbers masked)
  show <submission_id>                    one submission, with its identity number in full
  approve <submission_id> [--operator NAME]
  reject <submission_id> --reason "…" [--operator NAME]
NAME defaults to the system user name; it is recorded as who decided (cli:NAME).`;

/**
 * npm run kyc:review -- list | show <id> | approve <id> | reject <id> --reason "…"
 * The operator's side of the KYC review queue (docs/kyc-review.md). Works with the
 * service running or stopped; a decision is written with its outbox event and the
 * job that tells subscribers, which a running service (any instance) picks up.
 * Prints JSON on stdout; logs go to stderr.
 */
async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    strict: true,
    options: {
      limit: { type: 'string' },
      after: { type: 'string' },
      reason: { type: 'string' },
      operator: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, submissionId, ...extra] = positionals;
  const needsId = command === 'show' || command === 'approve' || command === 'reject';
  if (
    values.help ||
    !command ||
    !['list', 'show', 'approve', 'reject'].includes(command) ||
    (needsId && !submissionId) ||
    (!needsId && submissionId) ||
    extra.length > 0
  ) {
    process.stderr.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }

  const operator = values.operator ?? systemUserName();
  // Decisions tell subscribers through a job, not through pub/sub.
  return runWithServices(false, async (services) => {
    switch (command) {
      case 'list': {
        const page = await services.kyc.listPendingSubmissions({ limit: values.limit, after: values.after });
        return { data: page.items.map((i) => serializeKycSubmission(i.node)), meta: pageMeta(page) };
      }
      case 'show':
        return serializeKycSubmissionDetail(await services.kyc.getSubmissionForReview(submissionId!));
      default: {
        const outcome = command === 'approve' ? 'approved' : 'rejected';
        const decided = await services.kyc.decideByOperator(submissionId!, outcome, { reason: values.reason, operator }, 'cli');
        return serializeKycSubmission(decided);
      }
    }
  });
}

/** Who runs the CLI, when the system can say (recorded as cli:NAME; --operator overrides). */
function systemUserName(): string | undefined {
  try {
    const name = os.userInfo().username;
    return /^[A-Za-z0-9._@-]{1,64}$/.test(name) ? name : undefined;
  } catch {
    return undefined;
  }
}

exitWith('kyc:review', main());
