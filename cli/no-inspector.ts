import { close as closeInspector, url as inspectorUrl } from 'node:inspector';

/**
 * Imported first by the command, before anything reads SECRETS_TOKEN: Node opens its inspector on
 * 127.0.0.1:9229 when the process gets SIGUSR1, and any local user who can signal it could then read
 * the token from its memory. A listener of its own replaces that default for the life of the process
 * (`secrets run` passes the signal on to its command instead); an inspector opened at start, by
 * `--inspect` in NODE_OPTIONS, is closed.
 */
process.on('SIGUSR1', () => undefined);
if (inspectorUrl() !== undefined) closeInspector();
