import { createHash, randomUUID } from 'node:crypto';
import { writePrivateFileSync } from '../src-main/core/files';
import type { SandboxContext } from './context';
import { stmt } from './db';
import { DEMO_ACCOUNTS, DEMO_AUTOMATIONS } from './demo-fixture';
import { drawDemoPicture, type DemoPicture } from './demo-image';
import { objectPath } from './media/service';
import { createRunPost } from './posts/create';

const HOUR = 3_600_000;

/**
 * What the demo's draft-mode automation ("Hourly tip clip") left in the inbox before the person arrived: posts as a
 * person would write them, each with its own picture, from runs of the last hours. Each is made as a run's output
 * is: a completed run of that automation, an uploaded image of that run, and the run's draft to every target.
 */
const DRAFTS: readonly { caption: string; hoursAgo: number; picture: DemoPicture }[] = [
  {
    caption:
      'Write on Monday, post all week. Batch five captions in one sitting, queue them, and spend Friday answering replies instead of scrambling for ideas. ✍️ #contentplanning',
    hoursAgo: 1,
    picture: {
      from: [79, 70, 229],
      to: [219, 39, 119],
      accent: [253, 224, 71],
      discs: [
        [0.72, 0.26, 0.2],
        [0.28, 0.36, 0.11],
      ],
    },
  },
  {
    caption:
      'Post when your audience is awake, not when you are. Find the hour your posts get the most replies, then set your posting times around it. #socialmediatips',
    hoursAgo: 2,
    picture: {
      from: [14, 116, 144],
      to: [16, 185, 129],
      accent: [255, 255, 255],
      discs: [
        [0.5, 0.32, 0.22],
        [0.18, 0.16, 0.07],
      ],
    },
  },
  {
    caption:
      "One idea per post. If a caption needs an “also”, it's two posts: split it, and tomorrow's is already written. #writingtips",
    hoursAgo: 3,
    picture: {
      from: [234, 88, 12],
      to: [190, 24, 93],
      accent: [254, 215, 170],
      discs: [
        [0.3, 0.3, 0.18],
        [0.74, 0.42, 0.13],
      ],
    },
  },
];

/**
 * Seeds the drafts once the sandbox knows its address (media URLs name it). The pictures are drawn here, in a few
 * milliseconds each, so the demo needs no bundled files.
 */
export function seedDemoDrafts(ctx: SandboxContext, ownerId: string): void {
  const now = ctx.clock.nowMs();
  const automation = DEMO_AUTOMATIONS.dailyTips;
  const targets = [
    { social_account_id: DEMO_ACCOUNTS.instagram, platform: 'instagram' as const },
    { social_account_id: DEMO_ACCOUNTS.x, platform: 'x' as const },
  ];
  const pictures = DRAFTS.map((d) => drawDemoPicture(d.picture));
  ctx.db.transaction(() => {
    DRAFTS.forEach((d, i) => {
      const png = pictures[i] as Buffer;
      const at = new Date(now - d.hoursAgo * HOUR);
      // The automation is hourly: its run of that hour, started on the hour and done a minute later.
      at.setUTCMinutes(0, 0, 0);
      const started = at.toISOString();
      const finished = new Date(at.getTime() + 60_000).toISOString();
      const runId = ctx.uuid();
      stmt(
        ctx.db,
        `INSERT INTO agent_runs (id, owner_id, automation_id, revision, queue, state, scheduled_for, idempotency_key,
           started_at, finished_at, created_at, updated_at)
         VALUES (?, ?, ?, 1, 'local', 'completed', ?, ?, ?, ?, ?, ?)`,
      ).run(
        runId,
        ownerId,
        automation,
        started,
        `${automation}:1:${started}`,
        started,
        finished,
        started,
        finished,
      );
      const assetId = ctx.uuid();
      const objectKey = randomUUID();
      writePrivateFileSync(objectPath(ctx, objectKey), png);
      stmt(
        ctx.db,
        `INSERT INTO media_assets (id, owner_id, object_key, run_id, content_type, content_length, sha256, md5, status,
           bytes_received, upload_expires_at, created_at, completed_at)
         VALUES (?, ?, ?, ?, 'image/png', ?, ?, ?, 'uploaded', ?, ?, ?, ?)`,
      ).run(
        assetId,
        ownerId,
        objectKey,
        runId,
        png.length,
        createHash('sha256').update(png).digest('hex'),
        createHash('md5').update(png).digest('hex'),
        png.length,
        finished,
        started,
        finished,
      );
      const { post, social_posts } = createRunPost(
        ctx,
        ownerId,
        { caption: d.caption, media: [{ asset_id: assetId }], targets, action: 'draft' },
        { runId },
      );
      stmt(ctx.db, 'UPDATE posts SET created_at = ?, updated_at = ? WHERE id = ?').run(
        finished,
        finished,
        post.id,
      );
      for (const s of social_posts) {
        stmt(ctx.db, 'UPDATE deliveries SET created_at = ?, updated_at = ? WHERE id = ?').run(
          finished,
          finished,
          s.id,
        );
      }
      stmt(ctx.db, 'UPDATE agent_runs SET result = ? WHERE id = ?').run(
        JSON.stringify({ mode: 'draft', post_id: post.id, social_post_ids: social_posts.map((s) => s.id) }),
        runId,
      );
    });
  })();
}
