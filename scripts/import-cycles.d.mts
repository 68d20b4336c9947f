// The types of import-cycles.mjs, for its test.
export declare function sourceFiles(root: string): string[];
export declare function importGraph(files: readonly string[]): Map<string, string[]>;
export declare function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][];
export declare function importCycles(root: string): string[][];
