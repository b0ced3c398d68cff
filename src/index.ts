// The action's entry point (dist/index.js): the runner starts it with `node`, in the workspace.
import { run } from './action/main.js';

const code = await run();
await new Promise<void>((done) => process.stdout.write('', () => done()));
// Nothing may keep the job waiting once the run has reported: a killed git's hook still holding
// a pipe, an SDK's keep-alive socket, a stray timer.
process.exit(code);
