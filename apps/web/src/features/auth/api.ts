import type { publicAuthRoutes } from '@odontia/shared/routes/auth';
import type { SignInRequest, SignUpRequest } from '@odontia/shared/schemas/auth';
import { addressClient } from '../../lib/api-client';
import { sessionApi } from '../../session/session-store';

/** Called by address: the sign-in path does not load the contracts (lib/api-client.ts `routeAddress`). */
const publicApi = addressClient<typeof publicAuthRoutes>({
  signUpTerms: ['GET', '/auth/sign-up'],
  signUp: ['POST', '/auth/sign-up'],
  activate: ['POST', '/auth/activation/:token'],
  resendActivation: ['POST', '/auth/resend-activation'],
  signIn: ['POST', '/auth/sign-in'],
  forgotPassword: ['POST', '/auth/forgot-password'],
  checkResetLink: ['GET', '/auth/reset-password/:id'],
  resetPassword: ['POST', '/auth/reset-password/:id'],
});

/** The session endpoints of issue 3 (ARCHITECTURE §5), declared in packages/shared/src/routes/auth.ts. */
export const authApi = {
  signIn: (body: SignInRequest) => publicApi.signIn({ body }),
  signUp: (body: SignUpRequest) => publicApi.signUp({ body }),
  /** The trial's days where the installation has plans, else null (nothing is ever due). */
  signUpTerms: () => publicApi.signUpTerms(),
  activate: (token: string) => publicApi.activate({ params: { token } }),
  resendActivation: (email: string) => publicApi.resendActivation({ body: { email } }),
  forgotPassword: (email: string) => publicApi.forgotPassword({ body: { email } }),
  /** Whether a password-reset link can still be used (404/410 when it cannot). */
  checkResetLink: (id: string) => publicApi.checkResetLink({ params: { id } }),
  resetPassword: (id: string, body: { password: string; passwordConfirmation: string }) =>
    publicApi.resetPassword({ params: { id }, body }),
  unlock: (password: string) => sessionApi.unlock({ body: { password } }),
};
