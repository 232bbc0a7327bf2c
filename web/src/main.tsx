import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { adoptTokenFromUrl, restoreSession } from './api.js';
import './styles.css';

adoptTokenFromUrl();
// A session cookie kept from before: who it is, asked once (the page renders meanwhile).
void restoreSession().catch(() => undefined);
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
