import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { prefetchRouteData } from './app/prefetch';
import { releaseServerPage, releaseServerPageUnlessHeld, serverPageWaits } from './lib/server-page';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

prefetchRouteData(window.location.pathname);
// App-only screens (sign-in, editor…) are the app's from the start; any other server page gives way
// when its screen has its data, or after a while whatever happens (a screen that never says so).
if (!serverPageWaits()) releaseServerPage();
else window.setTimeout(releaseServerPageUnlessHeld, 10_000);

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
