// Uploading the transcript as a workflow artifact. The runner grants the upload through
// ACTIONS_RUNTIME_TOKEN (and ACTIONS_RESULTS_URL); without them there is nothing to upload to.

export interface UploadedArtifact {
  id?: number;
  size?: number;
  /** the artifact's page, when its id is known */
  url?: string;
}

export interface ArtifactUploader {
  upload(name: string, files: string[], rootDirectory: string): Promise<UploadedArtifact>;
}

export type UploaderChoice = { uploader: ArtifactUploader } | { uploader: undefined; notice: string };

export interface ArtifactEnvironment {
  ACTIONS_RUNTIME_TOKEN?: string;
  ACTIONS_RESULTS_URL?: string;
  GITHUB_SERVER_URL?: string;
  GITHUB_REPOSITORY?: string;
  GITHUB_RUN_ID?: string;
}

/** The @actions/artifact uploader when the runner provides its runtime token, otherwise why not. */
export function chooseArtifactUploader(env: ArtifactEnvironment): UploaderChoice {
  if (!env.ACTIONS_RUNTIME_TOKEN || !env.ACTIONS_RESULTS_URL) {
    return {
      uploader: undefined,
      notice:
        'The transcript was not uploaded as an artifact: the runner provided no ACTIONS_RUNTIME_TOKEN / ACTIONS_RESULTS_URL.',
    };
  }
  return { uploader: new ActionsArtifactUploader(env) };
}

class ActionsArtifactUploader implements ArtifactUploader {
  constructor(private readonly env: ArtifactEnvironment) {}

  async upload(name: string, files: string[], rootDirectory: string): Promise<UploadedArtifact> {
    // Loaded on demand: the client is large and most of a run never needs it.
    const { DefaultArtifactClient } = await import('@actions/artifact');
    const res = await new DefaultArtifactClient().uploadArtifact(name, files, rootDirectory, {
      retentionDays: 0,
    });
    const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: run } = this.env;
    const url =
      res.id !== undefined && server && repo && run
        ? `${server}/${repo}/actions/runs/${run}/artifacts/${res.id}`
        : undefined;
    return { id: res.id, size: res.size, url };
  }
}
