import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { prefetchRouteData } from './app/prefetch';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

prefetchRouteData(window.location.pathname);

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
