import { z } from 'zod';
import { ActivityEntry, Proposal, ToolName, ToolPolicy } from '../assistant';
import { BridgeError } from './bridge-error';
import { event, invoke } from './define';

/** A proposal as the Inbox shows it (the arguments are the assistant's, shown as text, never as markup). */
export const ProposalList = z.object({ proposals: z.array(Proposal) });
export type ProposalList = z.infer<typeof ProposalList>;

export const ProposalOutcome = z.object({ proposal: Proposal, error: BridgeError.nullable() });
export type ProposalOutcome = z.infer<typeof ProposalOutcome>;

const ProposalId = z.string().regex(/^prop_[0-9a-f]{12}$/, 'must be a proposal id');

/** A tool `postdesk mcp` last saw on the service, with its policy (and whether that is the default). */
export const AssistantTool = z.object({
  name: ToolName,
  reading: z.boolean(),
  policy: ToolPolicy,
  chosen: z.boolean(),
});
export type AssistantTool = z.infer<typeof AssistantTool>;

/** How an assistant connects: the service's MCP address, and whether the sandbox can be tested here. */
export const AssistantConnection = z.object({
  /** `{base_url}/api/mcp`, or null when not connected. */
  mcp_url: z.string().nullable(),
  offline: z.boolean(),
});
export type AssistantConnection = z.infer<typeof AssistantConnection>;

/** What the connection test did: each step of the OAuth flow in words, and the tools it then saw. */
export const AssistantTest = z.object({
  ok: z.boolean(),
  steps: z.array(z.string()),
  tools: z.array(z.string()),
  error: z.string().nullable(),
});
export type AssistantTest = z.infer<typeof AssistantTest>;

export const assistant = {
  /** What assistants proposed through `postdesk mcp`: the waiting ones, or all with `all`. */
  proposals: invoke(z.object({ all: z.boolean().optional() }), ProposalList),
  /** Approves a waiting proposal, which sends it at once, exactly once. */
  approve: invoke(z.object({ id: ProposalId }), ProposalOutcome),
  /** Rejects a waiting proposal: nothing is sent. */
  reject: invoke(z.object({ id: ProposalId }), ProposalOutcome),
  /** Every call of an assistant with its outcome, newest first. */
  activity: invoke(
    z.object({ limit: z.number().int().min(1).max(1000).optional() }),
    z.object({ activity: z.array(ActivityEntry) }),
  ),
  /** The tools `postdesk mcp` saw, each with its policy. */
  tools: invoke(z.object({}), z.object({ tools: z.array(AssistantTool) })),
  connection: invoke(z.object({}), AssistantConnection),
  /** The sandbox only: the MCP SDK's client through the whole OAuth flow, then the tools it lists. */
  test: invoke(z.object({}), AssistantTest),
  /** Proposals changed (a new one, a decision): how many wait now. */
  didChange: event(z.object({ waiting: z.number().int().min(0) })),
} as const;
