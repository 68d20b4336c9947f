import { z } from 'zod';

/**
 * AI assistants through `postdesk mcp` (docs/mcp.md): what each of the service's tools may do without a
 * person. Declared once here; the MCP server, the settings, the CLI and the screens derive from it.
 */

/** allow: the call goes to the service; ask: it becomes a proposal a person approves; deny: refused. */
export const TOOL_POLICIES = ['allow', 'ask', 'deny'] as const;
export const ToolPolicy = z.enum(TOOL_POLICIES);
export type ToolPolicy = z.infer<typeof ToolPolicy>;

/** A tool's name as the MCP spec allows it (letters, digits, `_`, `-`, `.`; at most 128). */
export const ToolName = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,128}$/, 'must be a tool name (letters, digits, _ - .)');

/**
 * Reading tools only read: `list_*`, `get_*` and `bulk_inspect`. Every other tool creates, schedules,
 * publishes, updates or deletes something.
 */
export const isReadingTool = (name: string): boolean =>
  name.startsWith('list_') || name.startsWith('get_') || name === 'bulk_inspect';

/** The policy of a tool: the person's choice, else allow for reading tools and ask for the rest. */
export const toolPolicyOf = (name: string, chosen: Readonly<Record<string, ToolPolicy>>): ToolPolicy =>
  Object.hasOwn(chosen, name) ? (chosen[name] as ToolPolicy) : isReadingTool(name) ? 'allow' : 'ask';

/** The argument every writing tool takes: answer what would be sent, send nothing. */
export const DRY_RUN_ARG = 'dry_run';

export const PROPOSAL_STATES = ['pending', 'approved', 'rejected', 'sending', 'sent', 'failed'] as const;
export type ProposalState = (typeof PROPOSAL_STATES)[number];

/** A call an assistant made that waits for a person (or did), as the Inbox and `postdesk inbox` show it. */
export const Proposal = z.object({
  id: z.string(),
  tool: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  /** sha256 of the tool and its exact arguments: an approval holds for this content only. */
  content_hash: z.string(),
  state: z.enum(PROPOSAL_STATES),
  created_at: z.string(),
  decided_at: z.string().nullable(),
  sent_at: z.string().nullable(),
  /** The service's answer once sent (its text), or why it failed. */
  result: z.string().nullable(),
});
export type Proposal = z.infer<typeof Proposal>;

export const ACTIVITY_OUTCOMES = [
  'sent',
  'failed',
  'proposed',
  'waiting',
  'rejected',
  'denied',
  'dry_run',
  'already_sent',
] as const;
export type ActivityOutcome = (typeof ACTIVITY_OUTCOMES)[number];

/** One call of an assistant and what became of it (the Activity view). */
export const ActivityEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  tool: z.string(),
  outcome: z.enum(ACTIVITY_OUTCOMES),
  proposal_id: z.string().nullable(),
  /** A short line for people: what happened. */
  detail: z.string(),
});
export type ActivityEntry = z.infer<typeof ActivityEntry>;
