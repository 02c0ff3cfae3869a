import { sessionRoutes } from '@odontia/shared/routes/auth';
import type { Profile } from '@odontia/shared/schemas/auth';
import { useMutation } from '@tanstack/react-query';
import { apiClient, type CallInput } from '../../lib/api-client';
import { i18n, isLanguage } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { userStore } from '../../lib/storage-keys';
import { sessionQueryKey } from '../../session/session';

export type UpdateProfileRequest = CallInput<typeof sessionRoutes.updateProfile>['body'];
export type ChangePasswordRequest = CallInput<typeof sessionRoutes.changePassword>['body'];

/** The signed-in user's own profile and password (issue 3): /api/auth/system/me and /password. */
const client = apiClient(sessionRoutes);
export const profileApi = {
  update: (body: UpdateProfileRequest) => client.updateProfile({ body }),
  changePassword: (body: ChangePasswordRequest) => client.changePassword({ body }),
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
