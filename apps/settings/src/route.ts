import { useEffect, useState } from 'preact/hooks';

/** The page's views, kept in the address's #fragment so Back and reload keep the place. */
export type Route = { view: 'list' } | { view: 'add' } | { view: 'edit'; name: string } | { view: 'server'; name: string };

export function parseRoute(hash: string): Route {
  const [view, ...rest] = hash.replace(/^#\/?/, '').split('/');
  const name = decodeURIComponent(rest.join('/'));
  if (view === 'add') return { view: 'add' };
  if (view === 'edit' && name) return { view: 'edit', name };
  if (view === 'server' && name) return { view: 'server', name };
  return { view: 'list' };
}

export function hrefOf(route: Route): string {
  switch (route.view) {
    case 'list':
      return '#/';
    case 'add':
      return '#/add';
    case 'edit':
    case 'server':
      return `#/${route.view}/${encodeURIComponent(route.name)}`;
    default: {
      const _exhaustive: never = route;
      return _exhaustive;
    }
  }
}

export function go(route: Route): void {
  location.hash = hrefOf(route);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
