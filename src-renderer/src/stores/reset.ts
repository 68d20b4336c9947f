import type { StoreApi, UseBoundStore } from 'zustand';
import { useAccountsStore } from './use-accounts-store';
import { useAnalyticsStore } from './use-analytics-store';
import { useArticlesStore } from './use-articles-store';
import { useAutomationsStore } from './use-automations-store';
import { useBulkStore } from './use-bulk-store';
import { useCalendarStore } from './use-calendar-store';
import { useComposeStore } from './use-compose-store';
import { useDeliveryFailuresStore } from './use-delivery-failures-store';
import { useExecutorStore } from './use-executor-store';
import { useFirstRunStore } from './use-first-run-store';
import { useMediaStore } from './use-media-store';
import { useOutboxStore } from './use-outbox-store';
import { usePostGroupsStore } from './use-post-groups-store';
import { useRunsStore } from './use-runs-store';
import { useServiceStore } from './use-service-store';
import { useSettingsStore } from './use-settings-store';
import { useSkillsStore } from './use-skills-store';

const resetStore = <S>(store: UseBoundStore<StoreApi<S>>) => store.setState(store.getInitialState(), true);

/**
 * Forgets everything loaded from the previous connection, so a new service (or the sandbox) never
 * shows the last one's accounts or posts, even for a moment.
 */
export function resetSessionStores(): void {
  useMediaStore.getState().clear();
  useComposeStore.getState().forget();
  resetStore(useAccountsStore);
  resetStore(useAnalyticsStore);
  resetStore(useArticlesStore);
  resetStore(useFirstRunStore);
  resetStore(useAutomationsStore);
  resetStore(useBulkStore);
  resetStore(useCalendarStore);
  resetStore(useDeliveryFailuresStore);
  resetStore(useExecutorStore);
  resetStore(useOutboxStore);
  resetStore(usePostGroupsStore);
  resetStore(useRunsStore);
  resetStore(useServiceStore);
  resetStore(useSettingsStore);
  resetStore(useSkillsStore);
}
