import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { z } from 'zod';
import {
  AckRequest,
  ClaimRequest,
  CompleteLocalRequest,
  CompleteUploadRequest,
  DirectUploadRequest,
  DirectUploadStatusRequest,
  FailRunRequest,
  GetRunQuery,
  LegacyCompleteRequest,
  LIMITS,
  RegisterExecutorRequest,
  RenewRequest,
  RunEventRequest,
  SkipRequest,
  StartRunRequest,
  SyncQuery,
} from '../../src-shared/api';
import type { SandboxContext } from '../context';
import { SandboxError } from '../errors';
import { completeMedia, reserveMedia } from '../media/service';
import { parse } from '../validate';
import { ControlAutomation } from './automation-input';
import {
  ackAutomation,
  automationsForCaller,
  startRun,
  syncAutomations,
  upsertAutomation,
} from './automations';
import { completeClaim, completeLocal } from './complete';
import { requireApiKeyCaller, requireRunToken, requireRunTokenOrApiKey } from './credentials';
import {
  DIRECT_UPLOAD_ROUTE,
  directUploadStatus,
  openDirectUpload,
  receiveDirectUpload,
} from './direct-upload';
import { runDueWork } from './due-work';
import { registerExecutor } from './executors';
import { claimRun, renewClaim, skipClaim } from './legacy-queue';
import { addEvent, failRun, getRun, isActive } from './runs';
import { requireRun } from './store';

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

/** Run media uploads follow the media contract, but only while the run is active. */
function requireActiveRunOf(ctx: SandboxContext, ownerId: string, runId: string): void {
  const run = requireRun(ctx, ownerId, runId);
  if (!isActive(run))
    throw new SandboxError(409, 'RUN_NOT_ACTIVE', `run ${run.id} is ${run.state}, not active`);
}

/** The raw request stream the '*' parser hands over; no body at all reads as empty. */
const bodyStream = (body: unknown): Readable => (body instanceof Readable ? body : Readable.from([]));

const DirectUploadQuery = z.object({ expires: z.string().optional(), signature: z.string().optional() });

/** The runner protocol, GET /api/automations, the direct-upload address and the automation control route. */
export function registerAgentRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  ctx.onTick((now) => runDueWork(ctx, now));

  app.register(async (api) => {
    // Due work first, so a request never sees a lease or an occurrence the clock has already passed.
    api.addHook('preHandler', async () => runDueWork(ctx));

    api.get('/api/automations', async (req) => ({
      automations: automationsForCaller(ctx, requireRunTokenOrApiKey(ctx, req, null)),
    }));

    api.post('/api/agent/executors', async (req) => {
      const caller = requireApiKeyCaller(ctx, req);
      return { executor: registerExecutor(ctx, caller.ownerId, parse(RegisterExecutorRequest, req.body)) };
    });

    api.get('/api/agent/automations/sync', async (req) => {
      const caller = requireApiKeyCaller(ctx, req);
      const query = parse(SyncQuery, req.query);
      return { automations: syncAutomations(ctx, caller.ownerId, query.executor_id) };
    });

    api.post('/api/agent/automations/:id/ack', async (req: IdRequest) => {
      const caller = requireApiKeyCaller(ctx, req);
      return { automation: ackAutomation(ctx, caller.ownerId, req.params.id, parse(AckRequest, req.body)) };
    });

    api.post('/api/agent/automations/:id/start', async (req: IdRequest) => {
      const caller = requireApiKeyCaller(ctx, req);
      return startRun(ctx, caller.ownerId, req.params.id, parse(StartRunRequest, req.body));
    });

    api.post('/api/agent/runs/claim', async (req) => {
      const caller = requireApiKeyCaller(ctx, req);
      const body = parse(ClaimRequest, req.body);
      return claimRun(ctx, caller.ownerId, {
        automationId: body.automation_id,
        leaseSeconds: body.lease_seconds ?? LIMITS.leaseSeconds.default,
      });
    });

    api.get('/api/agent/runs/:id', async (req: IdRequest) => {
      const caller = requireApiKeyCaller(ctx, req);
      const query = parse(GetRunQuery, req.query);
      return { run: getRun(ctx, caller.ownerId, req.params.id, query.executor_id) };
    });

    api.post('/api/agent/runs/:id/events', async (req: IdRequest) => {
      const caller = requireRunTokenOrApiKey(ctx, req, req.params.id);
      return { event: addEvent(ctx, caller, req.params.id, parse(RunEventRequest, req.body)) };
    });

    api.post('/api/agent/runs/:id/media/uploads', async (req: IdRequest, reply) => {
      const caller = requireRunToken(ctx, req, req.params.id);
      requireActiveRunOf(ctx, caller.ownerId, req.params.id);
      const result = await reserveMedia(ctx, caller.ownerId, req.body, { runId: req.params.id });
      return reply.code(201).send(result);
    });

    api.patch('/api/agent/runs/:id/media/uploads', async (req: IdRequest) => {
      const caller = requireRunToken(ctx, req, req.params.id);
      requireActiveRunOf(ctx, caller.ownerId, req.params.id);
      const body = parse(CompleteUploadRequest, req.body);
      return completeMedia(ctx, caller.ownerId, body.asset_id, { runId: req.params.id });
    });

    api.post('/api/agent/runs/:id/direct-upload', async (req: IdRequest) => {
      const caller = requireRunToken(ctx, req, req.params.id);
      const body = parse(DirectUploadRequest, req.body);
      const runnerKey = req.headers['x-service-runner-key'];
      return {
        session: openDirectUpload(
          ctx,
          caller.ownerId,
          req.params.id,
          body,
          typeof runnerKey === 'string' ? runnerKey : undefined,
        ),
      };
    });

    api.post('/api/agent/runs/:id/direct-upload/status', async (req: IdRequest) => {
      const caller = requireRunToken(ctx, req, req.params.id);
      const body = parse(DirectUploadStatusRequest, req.body);
      return { status: directUploadStatus(ctx, caller.ownerId, req.params.id, body.direct_upload_id) };
    });

    api.post('/api/agent/runs/:id/complete-local', async (req: IdRequest) => {
      const caller = requireRunTokenOrApiKey(ctx, req, req.params.id);
      // The contract's one 400 for complete-local is INVALID_RUN_OUTPUT, schema errors included.
      const body = parse(CompleteLocalRequest, req.body, { code: 'INVALID_RUN_OUTPUT' });
      return completeLocal(ctx, caller, req.params.id, body);
    });

    api.post('/api/agent/runs/:id/fail', async (req: IdRequest) => {
      const caller = requireRunTokenOrApiKey(ctx, req, req.params.id);
      return { run: failRun(ctx, caller, req.params.id, parse(FailRunRequest, req.body)) };
    });

    api.post('/api/agent/runs/:id/renew', async (req: IdRequest) => {
      const caller = requireApiKeyCaller(ctx, req);
      return { run: renewClaim(ctx, caller.ownerId, req.params.id, parse(RenewRequest, req.body)) };
    });

    api.post('/api/agent/runs/:id/complete', async (req: IdRequest) => {
      const caller = requireApiKeyCaller(ctx, req);
      return completeClaim(ctx, caller.ownerId, req.params.id, parse(LegacyCompleteRequest, req.body));
    });

    api.post('/api/agent/runs/:id/skip', async (req: IdRequest) => {
      const caller = requireApiKeyCaller(ctx, req);
      return { run: skipClaim(ctx, caller.ownerId, req.params.id, parse(SkipRequest, req.body)) };
    });

    api.put('/_sandbox/automations/:id', async (req: IdRequest) => {
      const id = parse(z.object({ id: z.uuid() }), req.params).id;
      const { owner_id: ownerId, ...input } = parse(ControlAutomation, req.body);
      return upsertAutomation(ctx, id, ownerId, input);
    });
  });

  // The signed address is the credential here; the body is raw MP4 bytes, streamed to disk.
  app.register(async (uploads) => {
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    uploads.put(`${DIRECT_UPLOAD_ROUTE}/:id`, async (req: IdRequest) => {
      const query = parse(DirectUploadQuery, req.query);
      const length = req.headers['content-length'];
      return {
        direct_upload: await receiveDirectUpload(ctx, req.params.id, query, length, bodyStream(req.body)),
      };
    });
  });
}
