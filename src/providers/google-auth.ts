import { GoogleAuth, type JWTInput } from 'google-auth-library';
import type { GoogleCredentials } from './cloud-credentials.js';

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

/**
 * Google's auth client on the credentials read at start (never the file again, never the
 * metadata server): it trades them for short-lived access tokens and renews them as they expire.
 */
export function googleAuthFor(google: GoogleCredentials): GoogleAuth {
  return new GoogleAuth({
    // service_account, external_account (workload identity federation) or authorized_user
    credentials: google.credentials as JWTInput,
    projectId: google.project,
    scopes: CLOUD_PLATFORM_SCOPE,
  });
}
