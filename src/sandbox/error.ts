/**
 * Isolation could be had on this machine, but setting it up failed. The run must stop here: carrying
 * on with commands that are not isolated is never decided silently.
 */
export class SandboxSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxSetupError';
  }
}
