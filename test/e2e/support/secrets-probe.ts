import type { Page } from '@playwright/test';

/** The page's storage, typed locally (no DOM library in the test tsconfig). */
interface StorageGlobals {
  localStorage: { length: number; key(i: number): string | null; getItem(k: string): string | null };
  sessionStorage: { length: number; key(i: number): string | null; getItem(k: string): string | null };
  document: { cookie: string; documentElement: { outerHTML: string } };
  indexedDB: {
    databases(): Promise<{ name?: string }[]>;
    open(name: string): {
      onsuccess: (() => void) | null;
      onerror: (() => void) | null;
      result: {
        objectStoreNames: ArrayLike<string>;
        transaction(names: string[]): {
          objectStore(n: string): { getAll(): { onsuccess: (() => void) | null; result: unknown } };
        };
        close(): void;
      };
    };
  };
}

/**
 * Everything the page keeps or shows, as one string: local and session storage, cookies, every
 * IndexedDB record, and the DOM (including input values, which are properties, not markup).
 */
export async function pageState(page: Page): Promise<string> {
  const inPage = await page.evaluate(async () => {
    const g = globalThis as unknown as StorageGlobals;
    const dump = (s: StorageGlobals['localStorage']) =>
      Array.from({ length: s.length }, (_, i) => `${s.key(i)}=${s.getItem(s.key(i) ?? '')}`).join('\n');
    const dbs: string[] = [];
    for (const { name } of await g.indexedDB.databases()) {
      if (!name) continue;
      dbs.push(
        await new Promise<string>((resolve) => {
          const req = g.indexedDB.open(name);
          req.onerror = () => resolve(`${name}: unreadable`);
          req.onsuccess = async () => {
            const db = req.result;
            const parts: string[] = [];
            for (const store of Array.from(db.objectStoreNames)) {
              const all = db.transaction([store]).objectStore(store).getAll();
              parts.push(
                await new Promise<string>((r) => {
                  all.onsuccess = () => r(`${store}: ${JSON.stringify(all.result)}`);
                }),
              );
            }
            db.close();
            resolve(`${name} ${parts.join(' ')}`);
          };
        }),
      );
    }
    const values = Array.from(
      (
        globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ value: string }> } }
      ).document.querySelectorAll('input, textarea'),
    ).map((el) => el.value);
    return [
      `local:${dump(g.localStorage)}`,
      `session:${dump(g.sessionStorage)}`,
      `cookie:${g.document.cookie}`,
      `idb:${dbs.join('\n')}`,
      `values:${values.join('\n')}`,
      `dom:${g.document.documentElement.outerHTML}`,
    ].join('\n');
  });
  const cookies = await page.context().cookies();
  return `${inPage}\ncontext-cookies:${JSON.stringify(cookies)}`;
}

/** Every WebSocket frame the page sends or receives, in order. */
export function recordFrames(page: Page): { dir: 'sent' | 'received'; text: string }[] {
  const frames: { dir: 'sent' | 'received'; text: string }[] = [];
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => frames.push({ dir: 'sent', text: String(f.payload) }));
    ws.on('framereceived', (f) => frames.push({ dir: 'received', text: String(f.payload) }));
  });
  return frames;
}
