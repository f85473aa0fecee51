import { render } from 'preact';

render(<main>Secrets Service</main>, document.getElementById('app') as HTMLElement);
