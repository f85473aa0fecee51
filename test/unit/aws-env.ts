/**
 * The environment a Lambda module reads when it loads, for the unit tests that import one. A test file
 * imports this first: its imports run before its own statements, so an assignment there comes too late.
 * The endpoint and the credentials are resolved before a request is built; none is ever sent.
 */
process.env.TABLE_NAME ??= 'unit';
process.env.AWS_REGION ??= 'us-east-1';
process.env.AWS_ACCESS_KEY_ID ??= 'AKIDEXAMPLE';
process.env.AWS_SECRET_ACCESS_KEY ??= 'unit';
