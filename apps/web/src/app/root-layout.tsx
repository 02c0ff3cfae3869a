import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useNavigation } from 'react-router';
import { ProgressBar } from '../components/progress-bar';
import { watchVisibilityTitle } from '../lib/document-title';

/** Root of every route: the navigation progress bar and the tab-title behaviour. */
export function RootLayout() {
  const navigation = useNavigation();
  useEffect(() => watchVisibilityTitle(), []);
  return (
    <>
      {navigation.state !== 'idle' ? <ProgressBar /> : null}
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
