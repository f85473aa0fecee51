import { render } from 'preact';
import { App } from './app';
import { takeLinkKey } from './link-key';
import { startSession } from './session';

const root = document.getElementById('app') as HTMLElement;

startSession().then(
  // A link page's key leaves the address before the first screen shows (after a sign-in's return, which
  // brings the address back with it).
  (session) => render(<App session={session} linkKey={takeLinkKey()} />, root),
  (error: unknown) =>
    render(
      <main>
        <h1>Secrets Service</h1>
        <p class="error" role="alert">
          The dashboard cannot start: {error instanceof Error ? error.message : String(error)}
        </p>
      </main>,
      root,
    ),
);
