// patchloop's git: every git process the action and the CLI start goes through this folder.
export {
  branchNameFor,
  cleanPrefix,
  defaultBranchName,
  slugify,
  uniqueName,
  type BranchTask,
} from './branch-name.js';
export {
  credentialEnv,
  restoreCheckoutCredential,
  takeCheckoutCredential,
  type CheckoutCredential,
  type ConfigEntry,
} from './credential.js';
export {
  createGitRunner,
  GitError,
  resolveGit,
  SAFE_CONFIG,
  splitNul,
  type GitCall,
  type GitResult,
  type GitRunner,
} from './exec.js';
export {
  ACTIONS_BOT_IDENTITY,
  explainPushError,
  GitRepo,
  MergeRecoveryError,
  openCheckout,
  type CommitOutcome,
  type CommitResult,
  type DeliveryBounds,
  type GitIdentity,
  type OpenedCheckout,
  type PushResult,
  type RepoOptions,
} from './repo.js';
export { DEFAULT_MAX_FILE_BYTES, describeLeftOut, type LeftOut, type LeftOutReason } from './stage.js';
export {
  dirtyPaths,
  parseNumstat,
  parseStatus,
  type ChangedFile,
  type Status,
  type StatusEntry,
} from './status.js';
export { createToolGit, type Git, type GitStreamResult, type ToolGitResult } from './tool-git.js';
