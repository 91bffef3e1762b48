import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { router } from './router';

/** The providers around the app. i18next is global (initReactI18next), so only the router. */
export function App() {
  return (
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>
  );
}
