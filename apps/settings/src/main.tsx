import { render } from 'preact';
import { App } from './app.js';
import { ApiError } from '@blitz/client/api-error';
import { PageApi } from './page-api.js';

const root = document.getElementById('app')!;
PageApi.open().then(
  (api) => {
    // render() keeps what is already there: the loading line goes first.
    root.textContent = '';
    render(<App api={api} />, root);
  },
  (err: unknown) => {
    root.textContent = '';
    const p = document.createElement('p');
    p.className = 'banner error';
    p.textContent = `${err instanceof ApiError ? err.message : String(err)}. Open the settings again with "blitz settings".`;
    root.append(p);
  },
);
