/**
 * Imported first by `bin/local.ts`, before any AWS SDK client exists. On Node 20 the SDK's first client
 * prints a nine-line warning that its releases from 2027 need Node 22, above the URL `npm start` prints
 * first; `npm start` supports Node 20.12 and later (package.json `engines`). The SDK's own switch turns
 * off that one warning, in this process only: every other warning still prints, and a value already set
 * (`AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=false npm start`) wins.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
