import { runCli } from './program';

// The `postdesk` entry: bin/postdesk.js loads its build (out/cli), or these sources through tsx in a checkout.
const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
});
// Exit only once what we printed has been handed to the OS; pipes may still be draining.
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
