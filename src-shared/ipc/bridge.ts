import type { z } from 'zod';
import type { EventDef, InvokeDef } from './define';
import type { BridgeResult } from './bridge-error';
import type { Contract, DomainName } from './contract';
import type { MediaAddResult } from './media';
import type { GrantedFiles } from './files';

export type Unsubscribe = () => void;

type InvokeFn<D> =
  D extends InvokeDef<infer I, infer O>
    ? undefined extends z.input<I>
      ? (input?: z.input<I>) => Promise<BridgeResult<Readonly<z.output<O>>>>
      : (input: z.input<I>) => Promise<BridgeResult<Readonly<z.output<O>>>>
    : never;

type ListenFn<D> =
  D extends EventDef<infer P> ? (listener: (payload: Readonly<z.output<P>>) => void) => Unsubscribe : never;

/** `window.postdesk.<domain>`: one function per invoke channel, `on<Event>(cb)` per event channel. */
export type DomainBridge<Dm> = {
  readonly [V in keyof Dm as Dm[V] extends InvokeDef ? V : never]: InvokeFn<Dm[V]>;
} & {
  readonly [V in keyof Dm as Dm[V] extends EventDef ? `on${Capitalize<V & string>}` : never]: ListenFn<Dm[V]>;
};

export type ContractBridge = { readonly [D in DomainName]: DomainBridge<Contract[D]> };

/**
 * A file the user dropped, typed loosely so this file needs no DOM types: a DOM `File` fits.
 * In Electron its path is read in the preload; in a browser its bytes are sent to the web host.
 */
export interface DroppedFile {
  readonly name: string;
  readonly size: number;
  readonly type: string;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/**
 * What each host adds beside the contract, because only the host can turn a file the user dropped or
 * picked in the page into a grant: the preload reads its path (Electron), the browser uploads its bytes.
 */
export interface BridgeExtras {
  readonly files: {
    /** Grants dropped or picked files (and, in Electron, folders); the page then passes the grant ids. */
    grant(files: readonly DroppedFile[]): Promise<BridgeResult<GrantedFiles>>;
  };
  readonly media: {
    /** `files.grant`, then `media.add` with the grants: one call for the composer. */
    addDropped(files: readonly DroppedFile[]): Promise<BridgeResult<MediaAddResult>>;
  };
}

/** `media.addDropped` on a host's `files.grant` and its `media:add`: the same in both hosts. */
export async function addDroppedVia(
  grant: BridgeExtras['files']['grant'],
  add: (input: { grants: string[] }) => Promise<BridgeResult<MediaAddResult>>,
  files: readonly DroppedFile[],
): Promise<BridgeResult<MediaAddResult>> {
  const granted = await grant(files);
  if (!granted.ok) return granted;
  const { skipped } = granted.value;
  if (granted.value.files.length === 0) return { ok: true, value: { files: [], skipped } };
  const added = await add({ grants: granted.value.files.map((f) => f.grant) });
  return added.ok
    ? { ok: true, value: { ...added.value, skipped: [...skipped, ...added.value.skipped] } }
    : added;
}

/** `window.postdesk`, the same in Electron (preload) and in the browser (`createWsBridge`). */
export type PostdeskBridge = {
  readonly [D in DomainName]: D extends keyof BridgeExtras
    ? DomainBridge<Contract[D]> & BridgeExtras[D]
    : DomainBridge<Contract[D]>;
} & {
  /** Which host serves this page; for diagnostics only, screens must not branch on it. */
  readonly host: 'electron' | 'web';
};
