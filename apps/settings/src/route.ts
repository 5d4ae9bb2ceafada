import { useEffect, useState } from 'preact/hooks';

/** The page's views, kept in the address's #fragment so Back and reload keep the place. */
export type Route =
  | { view: 'list' }
  | { view: 'add' }
  | { view: 'edit'; name: string; focus?: string }
  | { view: 'server'; name: string }
  | { view: 'logs'; name: string }
  | { view: 'clients' };

export function parseRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?');
  const [view, ...rest] = path.split('/');
  const name = decodeURIComponent(rest.join('/'));
  if (view === 'add') return { view: 'add' };
  if (view === 'clients') return { view: 'clients' };
  // `?focus=prefix`: the field a remedy names gets the focus once the form is there.
  const focus = new URLSearchParams(query).get('focus');
  if (view === 'edit' && name) return focus ? { view: 'edit', name, focus } : { view: 'edit', name };
  if (view === 'server' && name) return { view: 'server', name };
  if (view === 'logs' && name) return { view: 'logs', name };
  return { view: 'list' };
}

export function hrefOf(route: Route): string {
  switch (route.view) {
    case 'list':
      return '#/';
    case 'add':
      return '#/add';
    case 'clients':
      return '#/clients';
    case 'edit':
      return `#/edit/${encodeURIComponent(route.name)}${route.focus ? `?focus=${encodeURIComponent(route.focus)}` : ''}`;
    case 'server':
      return `#/server/${encodeURIComponent(route.name)}`;
    case 'logs':
      return `#/logs/${encodeURIComponent(route.name)}`;
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
