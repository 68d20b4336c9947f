import type { Automation } from '../../../src-shared/api/automations';
import type { AutomationView } from '../../../src-shared/ipc/automations';
import { createAutomationEditing } from './automation-editing';
import type { ExecutorHandlers } from './executor-handlers';
import type { Handlers } from './handler-types';
import type { BridgeCore } from './ports';

/**
 * The channels that read the service as it answers: `accounts`, `articles`, `analytics`, `skills`, and
 * `automations` (with each one's next occurrence and, on the sandbox, editing through its MCP tools).
 */
export function createServiceHandlers(
  core: Pick<BridgeCore, 'connection'>,
  executor: Pick<ExecutorHandlers, 'runNow' | 'nextOccurrence'>,
  o: { readonly version: string; readonly now: () => Date },
): Pick<Handlers, 'accounts' | 'articles' | 'analytics' | 'skills' | 'automations'> {
  const api = () => core.connection.api();
  const editing = createAutomationEditing({
    api,
    status: () => core.connection.status(),
    version: o.version,
  });
  const automationView = (a: Automation, after: Date): AutomationView => {
    let next: string | null = null;
    if (a.status === 'active') {
      try {
        next = executor.nextOccurrence(a, after);
      } catch {
        next = null; // an invalid schedule has no next occurrence; the list still loads
      }
    }
    return { ...a, next_occurrence: next };
  };
  const now = o.now;
  return {
    accounts: {
      list: async () => {
        const res = await (await api()).listAccounts();
        const accounts = [...res.accounts].sort(
          (a, b) => Date.parse(b.created_at) - Date.parse(a.created_at),
        );
        return { ...res, accounts };
      },
    },
    articles: {
      list: async (query) => (await api()).listArticles(query),
      create: async (body) => (await api()).createArticle(body),
      delete: async (body) => (await api()).deleteArticle(body),
    },
    analytics: {
      overview: async (query) => (await api()).analytics(query),
      post: async ({ post_id }) => (await api()).analytics({ post_id }),
    },
    skills: {
      list: async () => (await api()).listSkills(),
      get: async ({ id, version }) => (await api()).getSkill(id, version ? { version } : undefined),
    },
    automations: {
      list: async () => {
        const res = await (await api()).listAutomations();
        const after = now();
        const automations = res.automations.map((a) => automationView(a, after));
        return { automations, can_edit: await editing.available() };
      },
      runNow: executor.runNow,
      create: async (input) => ({ automation: automationView(await editing.create(input), now()) }),
      update: async (input) => ({ automation: automationView(await editing.update(input), now()) }),
      pause: async ({ id }) => ({ automation: automationView(await editing.pause(id), now()) }),
      resume: async ({ id }) => ({ automation: automationView(await editing.resume(id), now()) }),
      remove: async ({ id }) => ({ automation: automationView(await editing.remove(id), now()) }),
    },
  };
}
