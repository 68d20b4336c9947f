import { basename, join } from 'node:path';
import { FileRefused, ensurePrivateDir, readNoFollow } from '../files';
import { acceptedUploadTypes } from '../../../src-shared/api';
import { parseAgentOutput, type AgentOutput } from './agent-output';
import { describeAgentExit } from './agent-runner';
import { settleFolderPick } from './agents/folder-agent';
import type { ReasonCode } from './journal';
import { occurrenceKey } from './occurrence-planner';
import { errorText } from '../common/error-text';
import { errorFacts, hasCode, isTransient } from './ports';
import { publish } from './publish';
import { RunDeferred, RunFailure, type RunContext } from './run-context';
import { runFiles, writeRunInputs, type RunFiles } from './run-inputs';

export type RunOutcome =
  | { readonly kind: 'completed' }
  | { readonly kind: 'failed'; readonly code: ReasonCode; readonly message: string }
  | { readonly kind: 'not_run'; readonly code: ReasonCode; readonly message: string }
  /** The start call got no answer: the row stays `starting` and a later pass retries the same key. */
  | { readonly kind: 'deferred'; readonly message: string };

/** Cancels a run with a reason code the failure will carry. */
export class CancelReason extends Error {
  constructor(
    readonly code: ReasonCode,
    message: string,
  ) {
    super(message);
  }
}

const notRun = (ctx: RunContext, code: ReasonCode, message: string): RunOutcome => {
  ctx.patch({ state: 'not_run', reason_code: code, reason: message });
  return { kind: 'not_run', code, message };
};

const START_CONFLICTS: Record<string, [ReasonCode, string]> = {
  AUTOMATION_PAUSED: ['automation_paused', 'the automation is paused'],
  AUTOMATION_REMOVED: ['automation_removed', 'the automation was removed'],
  NO_TARGETS: ['no_targets', 'the automation has no targets'],
  WRONG_EXECUTION_MODE: ['wrong_execution_mode', 'the automation is not run by a local executor'],
  EXECUTOR_MISMATCH: ['revision_not_acked', 'the automation is bound to another executor'],
  RUN_CONFLICT: ['other_executor', 'another executor already started this occurrence'],
};

/**
 * Starts a local occurrence with its idempotency key. REVISION_STALE re-syncs and retries once with the
 * new revision (a new key: the stale one created nothing).
 */
export async function startLocal(
  ctx: RunContext,
  refresh: (automationId: string) => Promise<RunContext['automation'] | null>,
): Promise<RunOutcome | null> {
  const { api, executorId } = ctx.deps;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    ctx.patch({ state: 'starting' });
    const body = {
      executor_id: executorId,
      revision: ctx.row.revision as number,
      idempotency_key: ctx.row.idempotency_key as string,
      ...(ctx.row.scheduled_for ? { scheduled_for: ctx.row.scheduled_for } : {}),
    };
    try {
      const res = await ctx.retry(() => api.startRun(ctx.automation.id, body), { attempts: 5 });
      ctx.runToken = res.run_token;
      ctx.patch({ run_id: res.run.id, state: 'running', started_at: ctx.deps.clock.now().toISOString() });
      if (res.run.state === 'completed') {
        ctx.patch({ state: 'completed' });
        return { kind: 'completed' };
      }
      if (res.run.state === 'failed' || res.run.state === 'skipped') {
        const message = `the service already ended this run as ${res.run.state}${res.run.error ? `: ${res.run.error}` : ''}`;
        ctx.patch({ state: 'failed', reason_code: 'service_error', reason: message });
        return { kind: 'failed', code: 'service_error', message };
      }
      return null;
    } catch (err) {
      const f = errorFacts(err);
      if (isTransient(err)) return { kind: 'deferred', message: `start not confirmed: ${f.message}` };
      if (f.code === 'REVISION_STALE' && attempt === 0) {
        const fresh = await refresh(ctx.automation.id);
        if (fresh && fresh.revision !== ctx.row.revision && fresh.status === 'active') {
          ctx.automation = fresh;
          ctx.patch({
            revision: fresh.revision,
            idempotency_key: occurrenceKey(fresh, ctx.row.scheduled_for ?? ''),
          });
          continue;
        }
        return notRun(
          ctx,
          'revision_stale',
          `the automation changed (revision ${ctx.row.revision} is stale) and the new revision is not acknowledged`,
        );
      }
      const known = f.code ? START_CONFLICTS[f.code] : undefined;
      if (known) {
        // The automation's state said no: the list is out of date. A race lost to another executor says
        // nothing of the list, and in a fleet of N it answers N - 1 of every N starts: a sync asked for each
        // kept every executor in back-to-back passes, each a whole sync, in front of its next starts.
        if (f.code !== 'RUN_CONFLICT') ctx.deps.requestSync();
        return notRun(ctx, known[0], `${known[1]} (${f.code})`);
      }
      if (f.status === 404) {
        ctx.deps.requestSync();
        return notRun(ctx, 'automation_removed', 'the automation no longer exists on the service (404)');
      }
      return notRun(ctx, 'start_failed', `the service refused to start the run: ${f.message}`);
    }
  }
  return notRun(ctx, 'revision_stale', 'the automation kept changing while the run was being started');
}

async function fetchSkill(ctx: RunContext): Promise<string | null> {
  const skill = ctx.automation.skill;
  if (!skill) return null;
  try {
    return await ctx.retry(() => ctx.deps.api.getSkillMarkdown(skill.id, skill.version));
  } catch (err) {
    throw new RunFailure(
      'service_error',
      `the skill ${skill.id}@${skill.version} could not be fetched: ${errorFacts(err).message}`,
    );
  }
}

/** prepare + agent: writes the inputs, runs the agent, validates its output. */
export async function prepareAndRunAgent(ctx: RunContext): Promise<AgentOutput> {
  const runDir = join(ctx.deps.runsDir, ctx.localId);
  ctx.patch({ run_dir: runDir });
  const files = runFiles(runDir);
  // The folder, then its log by descriptor, before the first line and before the agent can touch the folder.
  await ensurePrivateDir(ctx.deps.runsDir);
  await ensurePrivateDir(runDir);
  ctx.openLog();
  ctx.step('prepare', 'started');
  await writeRunInputs(files, {
    automation: ctx.automation,
    runId: ctx.runId as string,
    scheduledFor: ctx.row.scheduled_for,
    queue: ctx.row.queue,
    skillMarkdown: null,
  });
  const skillMarkdown = await fetchSkill(ctx);
  if (skillMarkdown !== null) {
    await writeRunInputs(files, {
      automation: ctx.automation,
      runId: ctx.runId as string,
      scheduledFor: ctx.row.scheduled_for,
      queue: ctx.row.queue,
      skillMarkdown,
    });
  }
  ctx.step(
    'prepare',
    'completed',
    ctx.automation.skill ? `skill ${ctx.automation.skill.id}@${ctx.automation.skill.version}` : '',
  );

  ctx.step('agent', 'started');
  const exit = await ctx.deps.agent({
    ...files,
    log: ctx.logWriter,
    runId: ctx.runId as string,
    automationId: ctx.automation.id,
    folder: ctx.deps.folderFor(ctx.automation.id),
    accept: acceptedUploadTypes(ctx.automation),
    timeoutMs: ctx.deps.runTimeoutMs,
    signal: ctx.abort.signal,
    secrets: [...ctx.deps.secrets, ctx.runToken, ctx.row.claim_token ?? undefined],
    onStep: (s) => ctx.step(s.stepId, s.status, s.message, 'agent'),
    onSpawn: (pid) => ctx.patch({ agent_pid: pid }),
    onLog: (line) => ctx.logged(line),
    logger: ctx.deps.logger,
  });
  const problem = describeAgentExit(exit, ctx.deps.runTimeoutMs);
  if (problem) {
    ctx.step('agent', 'failed', problem);
    const reason = ctx.abort.signal.reason;
    const code: ReasonCode =
      exit.kind === 'timeout'
        ? 'agent_timeout'
        : exit.kind === 'cancelled'
          ? reason instanceof CancelReason
            ? reason.code
            : 'agent_cancelled'
          : 'agent_failed';
    throw new RunFailure(code, problem);
  }
  return readOutput(ctx);
}

/** The most an output.json may weigh: every field at its limit fits many times over. */
export const OUTPUT_MAX_BYTES = 1024 * 1024;

/**
 * output.json as the agent wrote it in its own folder: opened without following a link (one the agent planted
 * would have the executor publish, or quote, a file it may not read), a hard link refused, its size capped.
 */
export function readOutputText(files: RunFiles): Promise<string> {
  return readNoFollow(files.outputFile, { root: files.runDir, maxBytes: OUTPUT_MAX_BYTES }).then((b) =>
    b.toString('utf8'),
  );
}

/** Reads and checks output.json; also used when a restarted executor resumes a run. */
export async function readOutput(ctx: RunContext): Promise<AgentOutput> {
  let text: string;
  try {
    text = await readOutputText(runFiles(ctx.row.run_dir as string));
  } catch (err) {
    // Said by its name and kind only: nothing of what the name leads to is quoted.
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    const message = missing
      ? 'the agent finished without writing output.json'
      : err instanceof FileRefused
        ? `${err.message}: the agent's output is not used`
        : 'output.json could not be read';
    ctx.step('agent', 'failed', missing ? 'the agent wrote no output.json' : message);
    throw new RunFailure('invalid_output', message);
  }
  const checked = parseAgentOutput(text);
  if (!checked.ok) {
    const message = `output.json breaks the service's limits: ${checked.problems.join('; ')}`;
    ctx.step('agent', 'failed', message);
    throw new RunFailure('invalid_output', message);
  }
  ctx.patch({ state: 'agent_done', output: JSON.stringify(checked.output), agent_pid: null });
  ctx.step('agent', 'completed', summarize(checked.output));
  return checked.output;
}

function summarize(o: AgentOutput): string {
  const bits = [`caption ${o.caption.length} chars`];
  if (o.media.length) bits.push(`${o.media.length} media`);
  if (o.slides.length) bits.push(`${o.slides.length} slides`);
  if (o.skip) bits.push(`skip: ${o.skip}`);
  return bits.join(', ');
}

/** Ends a run as failed on the service (best effort, with its reason) and in the journal. */
export async function failRun(ctx: RunContext, failure: RunFailure): Promise<RunOutcome> {
  const message = ctx.failureText(failure.message);
  const runId = ctx.runId;
  if (runId && !failure.serviceDone) {
    await ctx.flush();
    try {
      await ctx.retry(() =>
        ctx.deps.api.failRun(
          runId,
          {
            error: message,
            executor_id: ctx.deps.executorId,
            ...(ctx.row.claim_token ? { claim_token: ctx.row.claim_token } : {}),
            metadata: { reason_code: failure.code, step: ctx.row.step ?? undefined },
          },
          ctx.runToken,
        ),
      );
    } catch (err) {
      // RUN_NOT_ACTIVE after a lost answer means the first fail landed; CLAIM_CONFLICT, the lease is gone.
      if (!hasCode(err, 'RUN_NOT_ACTIVE', 'CLAIM_CONFLICT')) {
        ctx.deps.logger.warn(`run ${runId}: its failure was not delivered: ${errorFacts(err).message}`);
        await ctx.log(`fail not delivered: ${errorFacts(err).message}`);
        if (isTransient(err)) {
          // Left active on the service, the run would hang there: a later pass tells it again.
          ctx.patch({ state: 'failing', reason_code: failure.code, reason: message });
          return { kind: 'failed', code: failure.code, message };
        }
      }
    }
  }
  ctx.patch({ state: 'failed', reason_code: failure.code, reason: message });
  await ctx.log(`run failed (${failure.code}): ${message}`);
  return { kind: 'failed', code: failure.code, message };
}

/** Runs a started local run (or a claimed legacy one) from prepare to complete. */
/**
 * The folder agent's pick is pending until the run that carried it ends: used once the run completed,
 * given back when it failed, so a failed run does not skip a file for ever. Only a plain file name that
 * the folder's state holds as pending is touched; the folder itself comes from the user's settings.
 */
async function settlePick(
  ctx: RunContext,
  output: AgentOutput | undefined,
  outcome: 'published' | 'failed',
): Promise<void> {
  const metadata = output ? output.metadata : await rawMetadata(ctx);
  const file = metadata?.['agent'] === 'folder' ? metadata['file'] : undefined;
  const folder = ctx.deps.folderFor(ctx.automation.id);
  if (typeof file !== 'string' || !folder || file !== basename(file)) return;
  try {
    const settled = await settleFolderPick({ folder, file, outcome });
    if (settled && outcome === 'failed')
      await ctx.log(`${file} was not published: it stays in the folder for the next occurrence`);
    if (settled && outcome === 'published')
      await ctx.log(`${file} is published: the folder agent will not pick it again`);
  } catch (err) {
    await ctx.log(`could not record how ${file} ended in the folder's state: ${errorText(err)}`);
  }
}

/**
 * The metadata of an output.json that did not pass the checks (a caption over the limit): the folder agent
 * picked a file all the same, which the failure must give back.
 */
async function rawMetadata(ctx: RunContext): Promise<Record<string, unknown> | undefined> {
  if (!ctx.row.run_dir) return undefined;
  try {
    const raw: unknown = JSON.parse(await readOutputText(runFiles(ctx.row.run_dir)));
    const metadata = (raw as { metadata?: unknown } | null)?.metadata;
    return metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata)
      ? (metadata as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export async function executeStarted(ctx: RunContext, resumeWith?: AgentOutput): Promise<RunOutcome> {
  let picked: AgentOutput | undefined = resumeWith;
  try {
    const output = resumeWith ?? (await prepareAndRunAgent(ctx));
    picked = output;
    if (output.skip) {
      if (ctx.row.queue === 'legacy') {
        await ctx.flush();
        await ctx.retry(() =>
          ctx.deps.api.skipClaim(ctx.runId as string, {
            claim_token: ctx.row.claim_token as string,
            reason: output.skip,
          }),
        );
        ctx.step('complete', 'info', `skipped: ${output.skip}`);
        ctx.patch({
          state: 'not_run',
          reason_code: 'skipped',
          reason: `the agent skipped this run: ${output.skip}`,
        });
        return { kind: 'not_run', code: 'skipped', message: output.skip };
      }
      throw new RunFailure('skipped', `the agent chose to skip: ${output.skip}`);
    }
    if (ctx.abort.signal.aborted) {
      const r = ctx.abort.signal.reason;
      throw new RunFailure(r instanceof CancelReason ? r.code : 'agent_cancelled', errorText(r));
    }
    await publish(ctx, output);
    ctx.patch({ state: 'completed', reason_code: null, reason: null });
    await settlePick(ctx, output, 'published');
    await ctx.flush();
    return { kind: 'completed' };
  } catch (err) {
    if (err instanceof RunDeferred) {
      await ctx.log(`${err.message}; the run resumes at a later pass`);
      return { kind: 'deferred', message: err.message };
    }
    const failure =
      err instanceof RunFailure
        ? err
        : new RunFailure('service_error', `unexpected error: ${errorText(err)}`);
    await settlePick(ctx, picked, 'failed');
    return failRun(ctx, failure);
  }
}
