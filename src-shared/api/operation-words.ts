import type { OperationName } from './operations';

/**
 * What each operation is, in the words of a person using Postdesk: "could not <words>". Messages name these,
 * never the operation's internal name. Keyed by every operation, so a new one cannot be added without its words.
 */
export const OPERATION_WORDS = {
  listAccounts: 'list the accounts',
  listPosts: 'list the posts',
  createPost: 'create the post',
  updatePost: 'change the post',
  deletePost: 'delete the post',
  bulkCreate: 'send the batch of posts',
  bulkInspect: 'read the batch back',
  bulkUpdate: 'change the posts in bulk',
  reserveMedia: 'start the upload',
  completeMedia: 'finish the upload',
  listArticles: 'list the articles',
  createArticle: 'create the article',
  deleteArticle: 'delete the article',
  analytics: 'read the analytics',
  listSkills: 'list the skills',
  getSkill: 'read the skill',
  listAutomations: 'list the automations',
  registerExecutor: 'register this executor',
  syncAutomations: 'read the automations for this executor',
  ackAutomation: 'confirm the automation',
  startRun: 'start the run',
  getRun: 'read the run',
  runEvent: 'record the run step',
  reserveRunMedia: "start the run's upload",
  completeRunMedia: "finish the run's upload",
  directUpload: 'open the direct upload',
  directUploadStatus: 'read the direct upload',
  completeLocal: 'complete the run',
  failRun: 'mark the run failed',
  claimRun: 'claim a queued run',
  renewClaim: 'renew the claim',
  completeClaim: 'complete the claimed run',
  skipClaim: 'skip the claimed run',
} as const satisfies Record<OperationName, string>;

/** The words for an operation name, or null when it is none (a name the CLI made up, such as "argument"). */
export function operationWords(name: string | null | undefined): string | null {
  return name && Object.hasOwn(OPERATION_WORDS, name) ? OPERATION_WORDS[name as OperationName] : null;
}
