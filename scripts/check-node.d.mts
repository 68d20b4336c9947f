// The types of check-node.mjs, for its test.
export declare function satisfies(version: string, range: string): boolean;
export declare function dependencyRanges(root: string): [name: string, version: string, range: string][];
export declare function lowestAccepted(
  ranges: readonly (readonly [string, string, string])[],
  lines?: readonly number[],
): string[];
export declare function checkNode(version: string, root: string): string | null;
