import type { Fixture } from './fixture';

/** The demo owner's key: fixed, so docs and a restarted `--data` sandbox keep working with it. */
export const DEMO_API_KEY = 'pd_sandbox_demo_7c1f0e4b9a2d4c6e8f3a5b7d9e1c2a4f';

export const DEMO_OWNER_ID = 'demo';

export const DEMO_ACCOUNTS = {
  tiktok: '0b6a8f2e-3c1d-4e5f-9a7b-1c2d3e4f5a01',
  instagram: '0b6a8f2e-3c1d-4e5f-9a7b-1c2d3e4f5a02',
  youtube: '0b6a8f2e-3c1d-4e5f-9a7b-1c2d3e4f5a03',
  linkedin: '0b6a8f2e-3c1d-4e5f-9a7b-1c2d3e4f5a04',
  x: '0b6a8f2e-3c1d-4e5f-9a7b-1c2d3e4f5a05',
} as const;

export const DEMO_AUTOMATIONS = {
  dailyTips: '5d0c3a7e-8b21-4f6a-9c4d-2e1f0a9b8c01',
  weeklyRecap: '5d0c3a7e-8b21-4f6a-9c4d-2e1f0a9b8c02',
} as const;

const POSTING_GUIDE = `# Short-form posting guide

Write one idea per post. Open with the hook in the first line, keep captions under 300 characters,
and end with one clear call to action. Use at most three hashtags.

## Steps
1. Pick the finished video or image from the run's media.
2. Upload it with \`POST /api/agent/runs/{id}/media/uploads\`, PUT the bytes, then complete it.
3. Call \`complete-local\` with the caption and the media URL.
`;

/**
 * The built-in fixture: one demo owner with a \`media:write\` key, one account per platform, two
 * local hourly automations and a few versioned skills, so a newcomer can try every screen.
 */
export function demoFixture(): Fixture {
  const created = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
  return {
    owners: [
      {
        id: DEMO_OWNER_ID,
        api_keys: [{ key: DEMO_API_KEY, scopes: ['media:write'] }],
        accounts: [
          {
            id: DEMO_ACCOUNTS.tiktok,
            platform: 'tiktok',
            name: 'Demo TikTok (@postdesk.demo)',
            created_at: created(50),
          },
          {
            id: DEMO_ACCOUNTS.instagram,
            platform: 'instagram',
            name: 'Demo Instagram (@postdesk.demo)',
            created_at: created(40),
          },
          {
            id: DEMO_ACCOUNTS.youtube,
            platform: 'youtube',
            name: 'Demo YouTube (Postdesk Demo)',
            created_at: created(30),
          },
          {
            id: DEMO_ACCOUNTS.linkedin,
            platform: 'linkedin',
            name: 'Demo LinkedIn (Postdesk Demo)',
            created_at: created(20),
          },
          { id: DEMO_ACCOUNTS.x, platform: 'x', name: 'Demo X (@postdesk_demo)', created_at: created(10) },
        ],
        automations: [
          {
            id: DEMO_AUTOMATIONS.dailyTips,
            name: 'Hourly tip clip',
            status: 'active',
            execution_mode: 'draft',
            queue: 'local',
            schedule: { cron: '0 * * * *', timezone: 'UTC' },
            instructions: 'Turn the newest clip in ~/Postdesk/clips into a short tip video with a caption.',
            skill: { id: 'short-form-posting', version: '1.1.0' },
            targets: [
              { social_account_id: DEMO_ACCOUNTS.instagram, platform: 'instagram' },
              { social_account_id: DEMO_ACCOUNTS.x, platform: 'x' },
            ],
          },
          {
            id: DEMO_AUTOMATIONS.weeklyRecap,
            name: 'Hourly recap (auto mode)',
            status: 'active',
            execution_mode: 'auto',
            queue: 'local',
            schedule: { cron: '30 * * * *', timezone: 'Europe/Berlin' },
            instructions:
              'Publish a recap video to TikTok through a direct upload, and a text post to LinkedIn.',
            targets: [
              { social_account_id: DEMO_ACCOUNTS.tiktok, platform: 'tiktok' },
              { social_account_id: DEMO_ACCOUNTS.linkedin, platform: 'linkedin' },
            ],
          },
        ],
      },
    ],
    skills: [
      {
        id: 'short-form-posting',
        name: 'Short-form posting',
        description: 'How an agent writes and publishes short-form video and image posts.',
        versions: [
          { version: '1.0.0', markdown: POSTING_GUIDE.replace('three hashtags', 'five hashtags') },
          { version: '1.1.0', markdown: POSTING_GUIDE },
        ],
      },
      {
        id: 'article-syndication',
        name: 'Article syndication',
        description: 'Publishing one long-form article to the five article destinations.',
        versions: [
          {
            version: '1.0.0',
            markdown:
              '# Article syndication\n\nWrite the article once in Markdown, set `canonical_url` to the original, and publish to every destination with `action: "publish"`.\n',
          },
        ],
      },
      {
        id: 'bulk-scheduling',
        name: 'Bulk scheduling',
        description: 'Scheduling a content calendar as one idempotent batch.',
        versions: [
          {
            version: '0.9.0',
            markdown:
              '# Bulk scheduling\n\nUpload media first, then send up to 100 items with one `batch_id`. Retry the identical request after a timeout: nothing is duplicated.\n',
          },
        ],
      },
    ],
  };
}
