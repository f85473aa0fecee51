/** The exact error texts of the API contract: every answer's `error` is one of these. */
export const ErrorText = {
  unauthorized: 'Unauthorized: Missing or invalid authentication token',
  identityNotAccepted: 'Unauthorized: Identity not accepted',
  expired: 'Authentication token has expired',
  wrongIp: 'Invalid IP address for this token',
  scope: 'Forbidden: Token does not have write permissions',
  tokenResource: 'Forbidden: Token is not allowed for this resource',
  sessionRequired: 'Forbidden: Token creation requires a dashboard session',
  serviceAccountForbidden: 'Forbidden: Not allowed for a service account',
  projectRole: 'Forbidden: Insufficient project role',
  environmentAccess: 'Forbidden: Insufficient environment access',
  projectNotFound: 'Project not found',
  tokenNotFound: 'Token not found',
  userNotFound: 'User not found',
  memberNotFound: 'Member not found',
  alreadyMember: 'User is already a member of this project',
  ownerRemoval: 'The project owner cannot be removed',
  tokenLimit: 'Token limit reached',
  tokenRotated: 'Token already rotated: rotate its replacement instead',
  environmentNotFound: 'Environment not found',
  environmentExists: 'Environment already exists',
  environmentLimit: 'Environment limit reached',
  environmentNotEmpty: 'Environment is not empty',
  environmentProtected: 'Environment is protected',
  accessFixed: 'Owners and admins write every environment',
  secretNotFound: 'Secret not found',
  secretVersionNotFound: 'Secret version not found',
  secretConflict: 'Secret version conflict',
  referenceUnresolved: 'Secret reference cannot be resolved',
  secretLimit: 'Secret limit reached',
  changeRequestNotFound: 'Change request not found',
  changeRequestNotOpen: 'Change request is not open',
  changeRequestOutOfDate: 'Change request is out of date',
  changeRequestLimit: 'Change request limit reached',
  ownApproval: 'Forbidden: Cannot approve your own change',
  notAuthor: 'Forbidden: Only its author can cancel a change request',
  shareNotFound: 'Share not found',
  shareLimit: 'Share limit reached',
  serviceAccountNotFound: 'Service account not found',
  serviceAccountLimit: 'Service account limit reached',
  trustRuleNotFound: 'Trust rule not found',
  trustRuleLimit: 'Trust rule limit reached',
  webhookNotFound: 'Webhook not found',
  webhookLimit: 'Webhook limit reached',
  malformedJson: 'Malformed JSON body',
  validation: 'Validation failed',
  tooLarge: 'Request body too large',
  contentType: 'Content-Type must be application/json',
  notFound: 'Not found',
  tooManyRequests: 'Too many requests',
  firewallBlocked: 'Forbidden: Request blocked by the firewall',
  internal: 'Internal server error',
  unavailable: 'Service temporarily unavailable',
} as const;

/**
 * The errors whose answer carries `details`: each failed field, the way round a protected environment,
 * or each secret whose reference cannot be resolved.
 */
export const ERRORS_WITH_DETAILS: ReadonlySet<string> = new Set([
  ErrorText.validation,
  ErrorText.environmentProtected,
  ErrorText.referenceUnresolved,
]);

/** One failed field of a request. */
export interface ValidationDetail {
  readonly path: string;
  readonly message: string;
}
