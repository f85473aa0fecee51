/** Public us-east-1 prices (USD). */
const PRICES = {
  restApiPerMillion: 3.5,
  lambdaRequestPerMillion: 0.2,
  lambdaArmGbSecond: 0.0000133334,
  readUnitPerMillion: 0.125,
  writeUnitPerMillion: 0.625,
  kmsRequestPerTenThousand: 0.03,
  kmsKeyPerMonth: 1,
};

/**
 * The secrets' KMS key, whatever the traffic: a monthly price, not one per request, so it is shown
 * beside the cost rows rather than in them.
 */
export const KMS_KEY_DOLLARS_PER_MONTH = PRICES.kmsKeyPerMonth;

/** Dollars per million requests of the KMS requests made per 10,000 requests. */
const kmsPerMillion = (kmsPerTenThousand: number) => kmsPerTenThousand * 100 * PRICES.kmsRequestPerTenThousand;

/** The floor the issue names: API Gateway plus one Lambda request. */
export const FLOOR_DOLLARS_PER_MILLION = PRICES.restApiPerMillion + PRICES.lambdaRequestPerMillion;

/**
 * The floor nothing can beat for one route: API Gateway, one Lambda request, and the capacity its
 * access pattern needs at the least (`measure/work-floors.ts`). A write costs $0.625/M per unit, a
 * sixth of API Gateway plus Lambda, so against $3.70 alone no route that writes could ever come
 * within 12%; the capacity a route spends beyond its pattern is held to the floor by the work rows.
 * KMS requests at their least: none for every route, since a warm function keeps a project's data key
 * five minutes (`kmsPerTenThousand` is there for a pattern that could not avoid one).
 */
export const routeFloorPerMillion = (minimum: {
  readUnits: number;
  writeUnits: number;
  kmsPerTenThousand?: number;
}): number =>
  FLOOR_DOLLARS_PER_MILLION +
  minimum.readUnits * PRICES.readUnitPerMillion +
  minimum.writeUnits * PRICES.writeUnitPerMillion +
  kmsPerMillion(minimum.kmsPerTenThousand ?? 0);

/** Time one invocation spends on the CPU and waiting on DynamoDB, measured at 256 MB. */
export interface Invocation {
  readonly cpuMs: number;
  readonly ioMs: number;
}

/**
 * Billed milliseconds at a memory size. Lambda's CPU share is proportional to memory, so CPU time
 * measured at 256 MB doubles at 128 MB while waiting on DynamoDB does not; Lambda bills per 1 ms.
 */
const billedMs = (invocation: Invocation, memoryMb: number) =>
  Math.ceil(invocation.cpuMs * (256 / memoryMb) + invocation.ioMs);

/**
 * Dollars per million requests of one route: the gateway, two functions (authorizer and route; the
 * route alone for a sign-in, which API Gateway serves without an authorizer), capacity, and the KMS
 * requests the route makes per 10,000 requests ($0.03 per 10,000).
 */
export const costPerMillion = (input: {
  memoryMb: number;
  /** None for a route without an authorizer (a sign-in). */
  authorizer: Invocation | undefined;
  route: Invocation;
  readUnits: number;
  writeUnits: number;
  kmsPerTenThousand?: number;
}): number => {
  const authorizerMs = input.authorizer ? billedMs(input.authorizer, input.memoryMb) : 0;
  const gbSeconds = ((authorizerMs + billedMs(input.route, input.memoryMb)) / 1000) * (input.memoryMb / 1024);
  return (
    PRICES.restApiPerMillion +
    (input.authorizer ? 2 : 1) * PRICES.lambdaRequestPerMillion +
    gbSeconds * PRICES.lambdaArmGbSecond * 1e6 +
    input.readUnits * PRICES.readUnitPerMillion +
    input.writeUnits * PRICES.writeUnitPerMillion +
    kmsPerMillion(input.kmsPerTenThousand ?? 0)
  );
};
