// The action's entry point (dist/index.js): the runner starts it with `node`, in the workspace.
import { run } from './action/main.js';

process.exitCode = await run();
