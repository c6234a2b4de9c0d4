/** Every server-state key in one place; anything tied to a service is keyed by profile. */
export const queryKeys = {
  appInfo: ['app-info'] as const,
  profiles: ['profiles'] as const,
  usersOfProfile: (profileId: string) => ['users', profileId] as const,
  usersPage: (profileId: string, page: number, perPage: number) => ['users', profileId, page, perPage] as const,
  audit: ['audit'] as const,
  sandboxUserState: (profileId: string, uid: string) => ['sandbox-user-state', profileId, uid] as const,
  logoutPreview: (profileId: string, uid: string, options: unknown) => ['logout-preview', profileId, uid, options] as const,
};
