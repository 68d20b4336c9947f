import { describe, expectTypeOf, it } from 'vitest';
import type { BridgeResult, PostdeskBridge, RunStepEvent, ConnectionStatus } from '../../../src-shared/ipc';
import type { ListAccountsResponse } from '../../../src-shared/api';

describe('PostdeskBridge type', () => {
  it('derives one function per invoke channel and on<Event> per event channel', () => {
    expectTypeOf<PostdeskBridge['accounts']['list']>().returns.toEqualTypeOf<
      Promise<BridgeResult<Readonly<ListAccountsResponse>>>
    >();
    expectTypeOf<PostdeskBridge['accounts']['list']>().toBeCallableWith();
    expectTypeOf<PostdeskBridge['connection']['connect']>().toBeCallableWith({
      base_url: 'https://x.test',
      api_key: 'k',
    });
    expectTypeOf<PostdeskBridge['runs']['onDidStepRun']>()
      .parameter(0)
      .toEqualTypeOf<(payload: Readonly<RunStepEvent>) => void>();
    expectTypeOf<PostdeskBridge['connection']['onDidChange']>().returns.toEqualTypeOf<() => void>();
    expectTypeOf<PostdeskBridge['secrets']['has']>().returns.toEqualTypeOf<
      Promise<BridgeResult<Readonly<boolean>>>
    >();
    expectTypeOf<PostdeskBridge['connection']['status']>().returns.resolves.toMatchTypeOf<
      BridgeResult<Readonly<ConnectionStatus>>
    >();
    // @ts-expect-error secrets are write-only: there is no getter
    expectTypeOf<PostdeskBridge['secrets']['get']>();
  });
});
