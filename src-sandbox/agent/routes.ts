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
import { serve } from '../operation-route';
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

    serve(api, ctx, 'listAutomations', (_req, caller) => ({
      automations: automationsForCaller(ctx, caller),
    }));

    serve(api, ctx, 'registerExecutor', (req, { ownerId }) => ({
      executor: registerExecutor(ctx, ownerId, parse(RegisterExecutorRequest, req.body)),
    }));

    serve(api, ctx, 'syncAutomations', (req, { ownerId }) => ({
      automations: syncAutomations(ctx, ownerId, parse(SyncQuery, req.query).executor_id),
    }));

    serve(api, ctx, 'ackAutomation', (req, { ownerId }) => ({
      automation: ackAutomation(ctx, ownerId, req.params.id, parse(AckRequest, req.body)),
    }));

    serve(api, ctx, 'startRun', (req, { ownerId }) =>
      startRun(ctx, ownerId, req.params.id, parse(StartRunRequest, req.body)),
    );

    serve(api, ctx, 'claimRun', (req, { ownerId }) => {
      const body = parse(ClaimRequest, req.body);
      return claimRun(ctx, ownerId, {
        automationId: body.automation_id,
        leaseSeconds: body.lease_seconds ?? LIMITS.leaseSeconds.default,
      });
    });

    serve(api, ctx, 'getRun', (req, { ownerId }) => ({
      run: getRun(ctx, ownerId, req.params.id, parse(GetRunQuery, req.query).executor_id),
    }));

    serve(api, ctx, 'runEvent', (req, caller) => ({
      event: addEvent(ctx, caller, req.params.id, parse(RunEventRequest, req.body)),
    }));

    serve(api, ctx, 'reserveRunMedia', async (req, { ownerId }) => {
      requireActiveRunOf(ctx, ownerId, req.params.id);
      return reserveMedia(ctx, ownerId, req.body, { runId: req.params.id });
    });

    serve(api, ctx, 'completeRunMedia', (req, { ownerId }) => {
      requireActiveRunOf(ctx, ownerId, req.params.id);
      const body = parse(CompleteUploadRequest, req.body);
      return completeMedia(ctx, ownerId, body.asset_id, { runId: req.params.id });
    });

    serve(api, ctx, 'directUpload', (req, { ownerId }) => {
      const body = parse(DirectUploadRequest, req.body);
      const runnerKey = req.headers['x-service-runner-key'];
      return {
        session: openDirectUpload(
          ctx,
          ownerId,
          req.params.id,
          body,
          typeof runnerKey === 'string' ? runnerKey : undefined,
        ),
      };
    });

    serve(api, ctx, 'directUploadStatus', (req, { ownerId }) => ({
      status: directUploadStatus(
        ctx,
        ownerId,
        req.params.id,
        parse(DirectUploadStatusRequest, req.body).direct_upload_id,
      ),
    }));

    serve(api, ctx, 'completeLocal', (req, caller) => {
      // The contract's one 400 for complete-local is INVALID_RUN_OUTPUT, schema errors included.
      const body = parse(CompleteLocalRequest, req.body, { code: 'INVALID_RUN_OUTPUT' });
      return { ...completeLocal(ctx, caller, req.params.id, body) };
    });

    serve(api, ctx, 'failRun', (req, caller) => ({
      run: failRun(ctx, caller, req.params.id, parse(FailRunRequest, req.body)),
    }));

    serve(api, ctx, 'renewClaim', (req, { ownerId }) => ({
      run: renewClaim(ctx, ownerId, req.params.id, parse(RenewRequest, req.body)),
    }));

    serve(api, ctx, 'completeClaim', (req, { ownerId }) => ({
      ...completeClaim(ctx, ownerId, req.params.id, parse(LegacyCompleteRequest, req.body)),
    }));

    serve(api, ctx, 'skipClaim', (req, { ownerId }) => ({
      run: skipClaim(ctx, ownerId, req.params.id, parse(SkipRequest, req.body)),
    }));

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
