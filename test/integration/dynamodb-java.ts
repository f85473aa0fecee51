/**
 * JVM flags of every DynamoDB Local the tests start themselves (the global setup's, and the ones
 * faults.test.ts and event-log.test.ts start of their own): Java's client compiler only (C1) and its
 * serial collector. Their Java lives for minutes and shares two cores with jest, the services and
 * Chromium, where the server compiler (C2) and G1's threads cost more CPU than their faster code saves:
 * measured, a third less CPU for the same requests and half for a start (docs/performance.md). npm start
 * and the bench keep Java's defaults.
 */
export const TEST_JAVA_OPTIONS: readonly string[] = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];
