// Whom the token authenticates as. A GITHUB_TOKEN and a GitHub App's installation token may not
// call REST `GET /user` ("Resource not accessible by integration"); GraphQL's `viewer` answers for
// both (the app's `<slug>[bot]` login) and for a personal token (its user).
import type { GitHubClient } from './octokit.js';

/** The login of the token's identity; throws when GitHub does not say. */
export async function tokenLogin(github: GitHubClient): Promise<string> {
  const answer = await github.graphql<{ viewer?: { login?: unknown } }>('query { viewer { login } }');
  const login = answer.viewer?.login;
  if (typeof login !== 'string' || login === '') throw new Error('GitHub did not name the token’s identity');
  return login;
}
