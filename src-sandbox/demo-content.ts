import { createArticle } from './articles/service';
import type { SandboxContext } from './context';
import { stmt } from './db';
import { DEMO_ACCOUNTS } from './demo-fixture';
import { createPost } from './posts/create';

const HOUR = 3_600_000;

/**
 * Sample content for the demo owner, so a newcomer's first screens are not empty: posts published
 * over the last days (analytics have numbers), one scheduled for tomorrow, one draft and an article.
 */
export function seedDemoContent(ctx: SandboxContext, ownerId: string): void {
  const now = ctx.clock.nowMs();
  const published: [string, keyof typeof DEMO_ACCOUNTS, number][] = [
    ['Three tips for shorter captions #writing', 'instagram', 70],
    ['We shipped offline mode. Try it with the sandbox.', 'x', 50],
    ['Behind the scenes: how we plan a content week', 'linkedin', 26],
    ['A 15-second tour of the calendar view', 'tiktok', 5],
  ];
  ctx.db.transaction(() => {
    for (const [caption, platform, hoursAgo] of published) {
      const { post, social_posts } = createPost(ctx, ownerId, {
        caption,
        targets: [{ social_account_id: DEMO_ACCOUNTS[platform], platform }],
      });
      // Backdate them: the demo starts with history rather than everything published "now".
      const at = new Date(now - hoursAgo * HOUR).toISOString();
      stmt(ctx.db, 'UPDATE posts SET created_at = ?, updated_at = ? WHERE id = ?').run(at, at, post.id);
      for (const d of social_posts) {
        stmt(
          ctx.db,
          'UPDATE deliveries SET created_at = ?, updated_at = ?, published_at = ?, scheduled_at = NULL WHERE id = ?',
        ).run(at, at, at, d.id);
      }
    }
    createPost(ctx, ownerId, {
      caption: 'Weekly recap: what we learned from 100 scheduled posts',
      scheduled_at: new Date(now + 24 * HOUR).toISOString(),
      targets: [
        { social_account_id: DEMO_ACCOUNTS.linkedin, platform: 'linkedin' },
        { social_account_id: DEMO_ACCOUNTS.x, platform: 'x' },
      ],
    });
    createPost(ctx, ownerId, {
      caption: 'Draft: launch teaser (needs a video)',
      action: 'draft',
      targets: [{ social_account_id: DEMO_ACCOUNTS.instagram, platform: 'instagram' }],
    });
    createArticle(ctx, ownerId, {
      title: 'Publishing everywhere from one desk',
      body_markdown: '# Publishing everywhere from one desk\n\nWrite once, publish to five destinations.\n',
      tags: ['publishing', 'tools'],
      destinations: ['devto', 'hashnode', 'linkedin'],
      action: 'publish',
    });
  })();
}
