import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { queryClient } from '../lib/query-client';
import { router } from './router';

/**
 * The providers around the app: the server data's cache (TanStack Query) and the router.
 * i18next is global (initReactI18next).
 */
export function App() {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>
  );
}
