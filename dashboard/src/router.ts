import { useEffect, useState } from 'react';

/** Client routes under /dashboard, in the History API (no hash, nothing secret in a URL). */
export const BASE = '/dashboard';

export function navigate(path: string): void {
  history.pushState(null, '', `${BASE}${path}`);
  dispatchEvent(new PopStateEvent('popstate'));
}

/** The path below /dashboard, kept in step with the browser's back and forward buttons. */
export function usePath(): string {
  const read = () => location.pathname.slice(BASE.length) || '/';
  const [path, setPath] = useState(read);
  useEffect(() => {
    const onPop = () => setPath(read());
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);
  return path;
}
