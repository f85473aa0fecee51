import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

// Every integration test file talks to the DynamoDB Local of the global setup, never to AWS.
// The SDK's notice that Node 20 support ends is true but says nothing about these tests.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.AWS_ACCESS_KEY_ID = 'local';
process.env.AWS_SECRET_ACCESS_KEY = 'local';
process.env.AWS_REGION = 'us-east-1';

// The service logs at its most verbose level, and every line its logger and metrics write goes to a
// file of the run (not the console), which the global teardown reads: no credential may appear in any.
process.env.LOG_LEVEL = 'debug';
const logDir = process.env.TEST_LOG_DIR;
const patched = process as NodeJS.Process & { __logsCaptured?: boolean };
if (logDir && !patched.__logsCaptured) {
  patched.__logsCaptured = true;
  const file = join(logDir, `worker-${process.pid}.log`);
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream);
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = String(chunk);
      if (!text.startsWith('{"level":') && !text.startsWith('{"_aws":')) {
        return (original as (...args: unknown[]) => boolean)(chunk, ...rest);
      }
      appendFileSync(file, chunk);
      return true;
    }) as typeof stream.write;
  }
}
