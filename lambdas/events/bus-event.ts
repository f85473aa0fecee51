import { convertToNative } from '@aws-sdk/util-dynamodb';
import type { AuditEvent } from '@contract/audit';

/** A DynamoDB attribute value, as the audit pipe passes a field that may be null (docs/operations.md). */
const isAttribute = (value: object): boolean => {
  const keys = Object.keys(value);
  return keys.length === 1 && ['S', 'N', 'L', 'M', 'BOOL', 'NULL'].includes(keys[0] ?? '');
};

const native = (value: unknown): unknown =>
  typeof value !== 'object' || value === null
    ? value
    : isAttribute(value)
      ? convertToNative(value as Parameters<typeof convertToNative>[0])
      : Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, native(inner)]));

/** The audit event an event of the audit bus carries in its `detail`, as the trail shows it. */
export const auditEventOfBusEvent = (busEvent: { readonly detail: unknown }): AuditEvent =>
  native(busEvent.detail) as AuditEvent;
