import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { BridgeResult, PostdeskBridge, RunStepEvent, ConnectionStatus } from '../../../src-shared/ipc';
import type { ListAccountsResponse } from '../../../src-shared/api';

// At run time expectTypeOf does nothing: `npm run typecheck` checks these types, and a wrong one fails it.
const json = (name: string) => JSON.parse(readFileSync(new URL(`../../../${name}`, import.meta.url), 'utf8'));

describe('this file', () => {
  it('is checked by npm run typecheck', () => {
    expect(json('package.json').scripts.typecheck).toContain('tsc -p tsconfig.node.json');
    const node = json('tsconfig.node.json') as { include: string[]; exclude?: string[] };
    expect(node.include).toContain('test/**/*.ts');
    // Renderer tests are page code: the web config checks them instead, and must include what node leaves out.
    const web = json('tsconfig.web.json') as { include: string[] };
    for (const ex of node.exclude ?? []) {
      if (ex.startsWith('test/unit/renderer/')) expect(web.include).toContain(ex.replace(/\*\*$/, '**/*.ts'));
      else expect(ex).not.toMatch(/^test\/(\*\*|unit)/);
    }
    expect(node.exclude ?? []).not.toContain('test/unit/ipc/**');
  });
});

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
