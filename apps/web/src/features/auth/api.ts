import type { SignInRequest, SignUpRequest, SignUpTerms } from '@odontia/shared/schemas/auth';
import { http } from '../../lib/http';
import { type StartedSession, sessionApi } from '../../session/session';

/** The session endpoints of issue 3 (ARCHITECTURE §5), relative to the API base. */
export const authApi = {
  signIn: (body: SignInRequest) => http.post<{ data: StartedSession; code: string }>('auth/sign-in', body),
  signUp: (body: SignUpRequest) => http.post('auth/sign-up', body),
  /** The trial's days where the installation has plans, else null (nothing is ever due). */
  signUpTerms: () => http.get<{ data: SignUpTerms }>('auth/sign-up'),
  activate: (token: string) => http.post(`auth/activation/${encodeURIComponent(token)}`),
  resendActivation: (email: string) => http.post('auth/resend-activation', { email }),
  forgotPassword: (email: string) => http.post('auth/forgot-password', { email }),
  /** Whether a password-reset link can still be used (404/410 when it cannot). */
  checkResetLink: (id: string) => http.get(`auth/reset-password/${encodeURIComponent(id)}`),
  resetPassword: (id: string, body: { password: string; passwordConfirmation: string }) =>
    http.post(`auth/reset-password/${encodeURIComponent(id)}`, body),
  unlock: (password: string) => sessionApi.unlock({ body: { password } }),
};
