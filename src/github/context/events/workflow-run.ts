// workflow_run: a run of another workflow that failed. The fix starts from the commit that
// failed (`head_sha`), on whichever branch that was.
import { basename } from 'node:path';
import type { TaskDecision } from '../task.js';
import { actorOf, num, obj, skip, str, text, type EventInput } from './payload.js';

export function workflowRunTask({ payload: p, action, base, prompt, now }: EventInput): TaskDecision {
  const run = obj(p.workflow_run);
  const id = num(run?.id);
  if (!run || id === undefined) return skip('the workflow_run payload has no run');
  const conclusion = str(run.conclusion) ?? '';
  if (action !== 'completed' || conclusion !== 'failure')
    return skip(`workflow run ${id} ended "${conclusion || action}", not "failure"`);
  // Real payloads often carry `workflow_run.name: ""` (a workflow file without `name:`, and
  // some event kinds); the workflow object and the file path still name it.
  const workflow = obj(p.workflow);
  const path = text(workflow?.path) ?? text(run.path);
  const name =
    text(run.name) ?? text(workflow?.name) ?? (path ? basename(path) : undefined) ?? `workflow run ${id}`;
  // A run of a fork's pull request has the fork's commit as head_sha: cutting the fix from it
  // would run the fork's code in this job and propose it to the base as the maintainers' fix.
  const headRepo = text(obj(run.head_repository)?.full_name);
  const repository = text(obj(p.repository)?.full_name) ?? `${base.owner}/${base.repo}`;
  if (headRepo && headRepo.toLowerCase() !== repository.toLowerCase())
    return skip(
      `workflow run ${id} ran on a commit of the fork ${headRepo}; a fix is not cut from a fork's code`,
    );
  const headSha = text(run.head_sha);
  const headBranch = text(run.head_branch);
  const at = headSha ? ` on commit ${headSha}${headBranch ? ` of ${headBranch}` : ''}` : '';
  return {
    run: true,
    task: {
      ...base,
      kind: 'workflow-run',
      number: undefined,
      isPullRequest: false,
      title: `${name} failed`,
      trigger: { kind: 'workflow-run', createdAt: str(run.updated_at) ?? now },
      requester: actorOf(run.triggering_actor) ?? actorOf(run.actor) ?? base.requester,
      request: prompt || `The workflow run "${name}" (#${id}) failed${at}. Find the cause and fix it.`,
      workflowRun: {
        id,
        attempt: num(run.run_attempt),
        name,
        conclusion,
        headBranch,
        headSha,
        url: str(run.html_url),
      },
    },
  };
}
