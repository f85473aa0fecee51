// Every integration test file talks to the DynamoDB Local of the global setup, never to AWS.
process.env.LOG_LEVEL = 'silent';
// The SDK's notice that Node 20 support ends is true but says nothing about these tests.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.AWS_ACCESS_KEY_ID = 'local';
process.env.AWS_SECRET_ACCESS_KEY = 'local';
process.env.AWS_REGION = 'us-east-1';
