// The types of lint-deploy.mjs, for its test.
export declare function checkManifests(text: string, file: string): string[];
export declare function checkContainerfile(text: string, file?: string): string[];
export declare function checkAlerts(text: string, file?: string): string[];
export declare function lintDeploy(root: string): string[];
