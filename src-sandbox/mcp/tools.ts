import { z } from 'zod';
import type { OperationName } from '../../src-shared/api';
import { BulkUpdateList, DELETABLE_STATUSES, LIMITS, OPERATIONS } from '../../src-shared/api';
import { formatBytes } from '../../src-shared/format-bytes';

// The numbers a tool's description names are the contract's limits (src-shared/api/limits.ts), read, never retyped.
const { pageSizeMax, pageSizeDefault, addTargetsPerUpdate, bulkBatchSize, bulkUpdateSize } = LIMITS;
const deletable = `${DELETABLE_STATUSES.slice(0, -1).join(', ')} or ${DELETABLE_STATUSES.at(-1)}`;

/** One MCP tool: an operation of the contract, plus (for `{id}` paths) the id as an argument. */
export interface ToolSpec {
  readonly name: string;
  readonly operation: OperationName;
  readonly description: string;
  /** For paths with `{id}`: the argument that fills it. */
  readonly pathArg?: 'id';
  /** The input schema when it is not the operation's own (an operation that judges parts of its body itself). */
  readonly input?: z.ZodObject;
}

/** The capabilities of the service as tools (service-api.md: "the same capabilities"). */
export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'list_accounts',
    operation: 'listAccounts',
    description: 'List connected social accounts, newest first.',
  },
  {
    name: 'list_posts',
    operation: 'listPosts',
    description: `List post deliveries, filtered by status and platform (limit 1-${pageSizeMax}, default ${pageSizeDefault.posts}).`,
  },
  {
    name: 'create_post',
    operation: 'createPost',
    description:
      'Create a post with one delivery per target: action "draft", a future scheduled_at, or publish now. Not for youtube.',
  },
  {
    name: 'update_post',
    operation: 'updatePost',
    description: `Update a post by delivery id or parent id: back to draft, caption, a future scheduled_at, or add_targets (max ${addTargetsPerUpdate}).`,
  },
  {
    name: 'delete_post',
    operation: 'deletePost',
    description: `Delete a delivery in ${deletable}.`,
  },
  {
    name: 'bulk_create_posts',
    operation: 'bulkCreate',
    description: `Create up to ${bulkBatchSize} drafts or schedules, idempotent per batch_id and item_key; media only by asset_id.`,
  },
  {
    name: 'bulk_inspect',
    operation: 'bulkInspect',
    description: 'Read the results of a bulk batch, page by page.',
  },
  {
    name: 'bulk_update_posts',
    operation: 'bulkUpdate',
    description: `Apply 1-${bulkUpdateSize} post updates, each {post_id, caption?, scheduled_at?, add_targets?}, independently: an invalid entry fails alone with its reason in results, the others are applied.`,
    // The route judges each entry on its own; a strict tool schema would refuse the whole call for one bad entry.
    input: BulkUpdateList,
  },
  {
    name: 'reserve_media_upload',
    operation: 'reserveMedia',
    description: `Reserve a managed media upload (jpeg, png, webp up to ${formatBytes(LIMITS.imageUploadBytes)}; mp4 up to ${formatBytes(LIMITS.mp4UploadBytes)}). PUT the bytes to upload_url, then complete it.`,
  },
  {
    name: 'complete_media_upload',
    operation: 'completeMedia',
    description: 'Complete a media upload after its bytes were PUT; returns the asset with its public_url.',
  },
  {
    name: 'list_articles',
    operation: 'listArticles',
    description: 'List long-form articles, filtered by status.',
  },
  {
    name: 'create_article',
    operation: 'createArticle',
    description:
      'Create an article as a draft, or with action "publish" deliver it inline to its destinations.',
  },
  {
    name: 'delete_article',
    operation: 'deleteArticle',
    description: 'Delete an article and its publication targets.',
  },
  {
    name: 'get_analytics',
    operation: 'analytics',
    description: 'Performance metrics: an overview, or one post with post_id.',
  },
  { name: 'list_skills', operation: 'listSkills', description: 'List the public instruction skills.' },
  {
    name: 'get_skill',
    operation: 'getSkill',
    description: 'Read one skill (optionally a version); format "markdown" returns its markdown.',
    pathArg: 'id',
  },
  {
    name: 'list_automations',
    operation: 'listAutomations',
    description: 'List the scheduled agent automations.',
  },
];

/** The tool's input: the operation's body or query schema, plus the path id where there is one. */
export function inputSchemaOf(spec: ToolSpec): z.ZodType {
  const op = OPERATIONS[spec.operation];
  const base: z.ZodType = spec.input ?? ('body' in op ? op.body : 'query' in op ? op.query : z.object({}));
  if (spec.pathArg === undefined) return base;
  if (!(base instanceof z.ZodObject))
    throw new TypeError(`${spec.name}: a path argument needs an object schema`);
  return base.extend({ [spec.pathArg]: z.string().min(1) });
}
