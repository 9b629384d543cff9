import { queryOptions } from '@tanstack/react-query';
import { isApiError } from '../../api/client';
import { showSignupPage } from '../../api/gen/sdk.gen';
import type { SignupPage } from '../../api/gen/types.gen';

export const signupPageKeys = { all: ['signup-page'] as const };

export const signupPageQueries = {
  /** The team's sign-up page; null until an admin first saves it (the API answers 404 until then). */
  current: () =>
    queryOptions({
      queryKey: signupPageKeys.all,
      queryFn: async ({ signal }): Promise<SignupPage | null> => {
        try {
          return (await showSignupPage({ signal, throwOnError: true })).data.data;
        } catch (error) {
          if (isApiError(error) && error.status === 404) return null;
          throw error;
        }
      },
    }),
};
