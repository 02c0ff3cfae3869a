import type { AuthServiceDeps } from './auth-common.ts';
import { createAuthSteps } from './auth-steps.ts';
import { passwordResetFlow } from './password-reset.service.ts';
import { profileFlow } from './profile.service.ts';
import { sessionFlow } from './sessions.service.ts';
import { signUpFlow } from './sign-up.service.ts';

/**
 * The session flows (issue 3): sign-up → activation → sign-in → lock/unlock → sign-out, and
 * the forgotten password. Business rules live in one file per flow (sign-up, sessions, profile,
 * password reset) over the steps they share (auth-steps.ts); SQL in the repository; HTTP in the
 * routes.
 */
export function createAuthService(deps: AuthServiceDeps) {
  const steps = createAuthSteps(deps);
  return {
    ...signUpFlow(deps, steps),
    ...sessionFlow(deps, steps),
    ...profileFlow(deps, steps),
    ...passwordResetFlow(deps, steps),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
