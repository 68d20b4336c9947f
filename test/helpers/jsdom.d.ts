// jsdom ships no types; this is the little of it the tests use.
declare module 'jsdom' {
  export class JSDOM {
    constructor(html?: string, options?: { url?: string; pretendToBeVisual?: boolean });
    readonly window: { close(): void } & Record<string, unknown>;
  }
}
