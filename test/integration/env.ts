// Every integration test file talks to the DynamoDB Local of the global setup, never to AWS.
process.env.LOG_LEVEL = 'silent';
process.env.AWS_ACCESS_KEY_ID = 'local';
process.env.AWS_SECRET_ACCESS_KEY = 'local';
process.env.AWS_REGION = 'us-east-1';
