import { render } from 'preact';
import { App } from './app';
import { startSession } from './session';

const root = document.getElementById('app') as HTMLElement;

startSession().then(
  (session) => render(<App session={session} />, root),
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
