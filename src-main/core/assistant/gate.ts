import type { Proposal, ToolPolicy } from '../../../src-shared/assistant';
import { DRY_RUN_ARG, isReadingTool, toolPolicyOf } from '../../../src-shared/assistant';
import { errorText } from '../common/error-text';
import { contentHash, sentArguments } from './content-hash';
import type { AssistantLedger } from './proposals';

/** A tool's answer as MCP carries it: text, and whether it is an error. */
export interface ToolAnswer {
  readonly text: string;
  readonly isError: boolean;
}

/** Calls one of the service's tools with the arguments as they are to be sent. */
export type SendTool = (tool: string, args: Readonly<Record<string, unknown>>) => Promise<ToolAnswer>;

export interface GateDeps {
  readonly ledger: AssistantLedger;
  /** The person's choices, read at each call: a change in Settings holds from the next call on. */
  readonly policies: () => Readonly<Record<string, ToolPolicy>>;
  readonly send: SendTool;
}

const waiting = (p: Proposal): string =>
  `Waiting for approval in Postdesk: nothing was sent yet. This ${p.tool} call is proposal ${p.id}; ` +
  `tell the person to approve it in Postdesk's Inbox (or run \`postdesk inbox approve ${p.id}\`). Approving it ` +
  `sends it. Call ${p.tool} again with exactly the same arguments to learn the outcome; any change to them ` +
  `needs a new approval.`;

const sentText = (p: Proposal): string =>
  `Approved in Postdesk and sent once (proposal ${p.id}); it is not sent again. The service answered:\n${p.result ?? ''}`;

/**
 * Sends an approved proposal, once: whichever process claims it first (the approving one, or `postdesk mcp`
 * when the assistant calls again) sends it; any other sees it sending or sent. The answer is kept.
 */
export async function sendApproved(
  ledger: AssistantLedger,
  proposal: Proposal,
  send: SendTool,
): Promise<Proposal> {
  if (!ledger.claim(proposal.id)) return ledger.get(proposal.id) ?? proposal;
  let answer: ToolAnswer;
  try {
    answer = await send(proposal.tool, proposal.arguments);
  } catch (error) {
    answer = { text: errorText(error), isError: true };
  }
  ledger.finish(proposal.id, !answer.isError, answer.text);
  ledger.note(
    proposal.tool,
    answer.isError ? 'failed' : 'sent',
    answer.isError
      ? `approved, then refused by the service: ${answer.text.slice(0, 200)}`
      : 'approved and sent',
    proposal.id,
  );
  return ledger.get(proposal.id) ?? proposal;
}

/** What became of a proposal, as the assistant is told it. */
function answerFor(p: Proposal): ToolAnswer {
  switch (p.state) {
    case 'pending':
    case 'approved':
      return { text: waiting(p), isError: false };
    case 'sending':
      return {
        text: `Approved in Postdesk and being sent now (proposal ${p.id}); call again for the outcome.`,
        isError: false,
      };
    case 'sent':
      return { text: sentText(p), isError: false };
    case 'failed':
      return {
        text: `Approved in Postdesk, but the service refused it (proposal ${p.id}):\n${p.result ?? ''}`,
        isError: true,
      };
    case 'rejected':
      return {
        text: `The person rejected this ${p.tool} call in Postdesk (proposal ${p.id}); nothing was sent.`,
        isError: true,
      };
  }
}

/**
 * One tool call of an assistant, decided by the tool's policy. deny: refused, nothing sent. A writing tool
 * with `dry_run`: what would be sent, nothing sent. allow: sent. ask: a proposal for this exact content
 * (its hash), or what became of the one already made: an approved proposal is sent once, and only for the
 * same content; another content is another proposal. Every call is noted in the activity.
 */
export async function gateCall(
  deps: GateDeps,
  tool: string,
  args: Readonly<Record<string, unknown>>,
): Promise<ToolAnswer> {
  const { ledger } = deps;
  const policy = toolPolicyOf(tool, deps.policies());
  const sent = sentArguments(args);
  if (policy === 'deny') {
    ledger.note(tool, 'denied', 'refused: the tool is set to deny');
    return {
      text: `${tool} is turned off in Postdesk (its policy is "deny"), so nothing was sent. The person can change this in Postdesk's Settings or with \`postdesk config\`.`,
      isError: true,
    };
  }
  if (args[DRY_RUN_ARG] === true && !isReadingTool(tool)) {
    ledger.note(tool, 'dry_run', 'dry run: nothing sent');
    return {
      text:
        `Dry run: nothing was sent. Postdesk would call ${tool} on the service with:\n${JSON.stringify(sent, null, 2)}\n` +
        (policy === 'ask'
          ? 'Without dry_run it first needs the person’s approval in Postdesk.'
          : 'Without dry_run it is sent at once (its policy is "allow").'),
      isError: false,
    };
  }
  if (policy === 'allow') {
    let answer: ToolAnswer;
    try {
      answer = await deps.send(tool, sent);
    } catch (error) {
      answer = { text: errorText(error), isError: true };
    }
    ledger.note(
      tool,
      answer.isError ? 'failed' : 'sent',
      answer.isError ? answer.text.slice(0, 200) : 'sent',
    );
    return answer;
  }

  const hash = contentHash(tool, sent);
  const latest = ledger.latestFor(hash);
  if (latest && latest.state !== 'failed') {
    const now = latest.state === 'approved' ? await sendApproved(ledger, latest, deps.send) : latest;
    if (latest.state !== 'approved') {
      const outcome =
        now.state === 'sent' ? 'already_sent' : now.state === 'rejected' ? 'rejected' : 'waiting';
      ledger.note(tool, outcome, `${outcome.replace('_', ' ')} (same content as before)`, now.id);
    }
    return answerFor(now);
  }
  const proposal = ledger.propose(tool, sent, hash);
  ledger.note(tool, 'proposed', 'waiting for approval in Postdesk', proposal.id);
  return answerFor(proposal);
}
