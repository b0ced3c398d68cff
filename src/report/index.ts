// Rendering from a transcript: the summary, the terminal timeline, the HTML page and replay.

export {
  buildRunView,
  contextTokens,
  type CallView,
  type RunError,
  type RunView,
  type TimelineItem,
  type TurnView,
} from './model.js';
export { loadRunView, TranscriptFileError } from './load.js';
export { inspectJson, renderInspectText, terminalSafe, type InspectTextOptions } from './inspect.js';
export { renderHtml, type HtmlOptions } from './html.js';
export { defaultHtmlPath, exportTranscriptHtml } from './export-file.js';
export { renderMarkdown } from './markdown.js';
export { neutralizeMentions } from './mentions.js';
export { errorGist, errorLines } from './format.js';
export {
  COMMENT_MAX_CHARS,
  editsDiff,
  renderSummaryMarkdown,
  renderSummaryText,
  shareBudget,
  STEP_SUMMARY_MAX_BYTES,
  STEP_SUMMARY_MAX_CHARS,
  toolLogFromMessages,
  type ChangedFile,
  type RunSummaryInput,
  type SummaryMarkdownOptions,
  type ToolLogEntry,
} from './summary.js';
export {
  comparableText,
  recordedBaseCommit,
  recordedWorkspace,
  replayRun,
  toolOptionsFromSession,
  type ReplayCallReport,
  type ReplayOptions,
  type ReplayReport,
} from './replay.js';
export { compareResults, normalizeForComparison, type NormalizeContext } from './compare.js';
