import { z } from 'zod';
import { pageRequestSchema } from '../../shared/pagination';
import type { Command } from '../../shared/validation';

/** The runs' list: newest first, one connector's or all; `after`: the last run id of the previous page. */
export const listRunsSchema = z.object({
  connector: z
    .string({ error: 'must be a string' })
    .regex(/^[a-z0-9_]{1,40}$/, 'must be a connector’s name (lowercase letters, digits, _)')
    .optional(),
  limit: pageRequestSchema.shape.limit,
  after: z.uuid({ error: 'must be a run id (a UUID)' }).optional(),
});
export type ListRunsCommand = Command<typeof listRunsSchema>;

/** An operator's resolution of an exception: what was found and done, for the audit log. */
export const resolveItemSchema = z.object({
  note: z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, 'must say how the exception was resolved')
    .max(1000, 'must be at most 1000 characters')
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    .regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, 'must not contain control characters'),
});
export type ResolveItemCommand = Command<typeof resolveItemSchema>;
