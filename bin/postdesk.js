#!/usr/bin/env node
// Loads the TypeScript CLI through tsx in this same process, so that `npx postdesk` works straight after
// `npm install` and signals reach the CLI itself rather than a wrapper.
import { register } from 'tsx/esm/api';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

register();
const entry = join(dirname(fileURLToPath(import.meta.url)), '..', 'src-main', 'cli', 'main.ts');
await import(pathToFileURL(entry).href);
