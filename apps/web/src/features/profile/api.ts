import type { Profile, UpdateProfileRequest } from '@odontia/shared/schemas/auth';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../lib/http';
import { i18n, isLanguage } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { userStore } from '../../lib/storage-keys';
import { sessionQueryKey } from '../../session/session';

export interface ChangePasswordRequest {
  currentPassword: string;
  password: string;
  passwordConfirmation: string;
}

/** The signed-in user's own profile and password (issue 3): /api/auth/system/me and /password. */
export const profileApi = {
  update: (body: UpdateProfileRequest) => http.patch<{ data: Profile; code: string }>('auth/system/me', body),
  changePassword: (body: ChangePasswordRequest) => http.post<{ code: string }>('auth/system/password', body),
};

/** The new profile everywhere the app keeps it; the interface follows its language at once. */
function applyProfile(profile: Profile): void {
  queryClient.setQueryData(sessionQueryKey, profile);
  userStore.set(profile);
  const language = profile.settings.systemLanguage;
  if (isLanguage(language) && language !== i18n.resolvedLanguage) void i18n.changeLanguage(language);
}

export function useUpdateProfile() {
  return useMutation({
    mutationFn: profileApi.update,
    onSuccess: (answer) => applyProfile(answer.data),
  });
}

export function useChangePassword() {
  return useMutation({ mutationFn: profileApi.changePassword });
}
