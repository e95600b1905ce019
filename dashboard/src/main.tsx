import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'urql';
import { App } from './App';
import { client, resumeSession } from './session';
import './styles.css';

// A session the browser still holds (its HttpOnly cookie) is resumed, silently; until then, neither the form nor data.
void resumeSession();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider value={client}>
      <App />
    </Provider>
  </StrictMode>,
);
