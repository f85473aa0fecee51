/**
 * The API's paths, operations and schemas, generated from its OpenAPI document (lib/api-document.ts)
 * by openapi-typescript. Do not edit: `npm run generate:client` writes this file from the route
 * contracts, and a unit test fails when it is out of date.
 */

export interface paths {
    "/api/v1/audit-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the caller's audit trail: what they did and what happened to their tokens
         * @description A dashboard session, or an API token with the `admin` scope (`admin` grants every scope).
         */
        get: operations["listAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/aws": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in as a service account with a signed sts:GetCallerIdentity request of an IAM role or user one of its trust rules names; no other credential
         * @description No credential: the body carries the proof, and every refusal is the same 401.
         */
        post: operations["signInAws"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/oidc": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in as a service account with a workload’s OIDC token (GitHub Actions, GitLab CI, Kubernetes…) that one of its trust rules accepts; no other credential
         * @description No credential: the body carries the proof, and every refusal is the same 401.
         */
        post: operations["signInOidc"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller as the API sees it: user, e-mail, source address, and the projects they were added to and have not opened (dashboard session only)
         * @description Dashboard session only; an API token gets 403.
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the projects the caller belongs to
         * @description A dashboard session, or an API token with the `read:secrets` scope (`admin` grants every scope).
         */
        get: operations["listProjects"];
        put?: never;
        /**
         * Create a project owned by the caller
         * @description A dashboard session, or an API token with the `admin` scope (`admin` grants every scope).
         */
        post: operations["createProject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/audit-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a project's audit trail (owner and admin)
         * @description A dashboard session, or an API token with the `admin` scope (`admin` grants every scope).
         */
        get: operations["listProjectAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/compare": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Compare two environments’ secrets, `?from=staging&to=production`: by name, without values; no read recorded
         * @description A dashboard session, or an API token with the `read:secrets` scope (`admin` grants every scope). A service account’s token may call it.
         */
        get: operations["compareEnvironments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/environments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the environments of a project
         * @description A dashboard session, or an API token with the `read:secrets` scope (`admin` grants every scope). A service account’s token may call it.
         */
        get: operations["listEnvironments"];
        put?: never;
        /**
         * Add an environment to a project (owner and admin)
         * @description A dashboard session, or an API token with the `admin` scope (`admin` grants every scope).
         */
        post: operations["createEnvironment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/environments/{environment}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete an environment that holds no live secret (owner and admin)
         * @description A dashboard session, or an API token with the `admin` scope (`admin` grants every scope).
         */
        delete: operations["deleteEnvironment"];
        options?: never;
        head?: never;
        /**
         * Change an environment’s settings: protection, approvals, members’ default access (owner and admin)
         * @description A dashboard session, or an API token with the `admin` scope (`admin` grants every scope).
         */
        patch: operations["updateEnvironment"];
        trace?: never;
    };
    "/api/v1/projects/{projectId}/environments/{environment}/change-requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an environment’s change requests, newest first (`?status=open`: of one status), without values
         * @description A dashboard session, or an API token with the `read:secrets` scope (`admin` grants every scope). A service account’s token may call it.
         */
        get: operations["listChangeRequests"];
        put?: never;
        /**
         * Propose a change of an environment’s secrets (what a PATCH carries, restores and a note), to be approved
         * @description A dashboard session, or an API token with the `write:secrets` scope (`admin` grants every scope). A service account’s token may call it.
         */
        post: operations["createChangeRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/environments/{environment}/change-requests/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One change request, without its values
         * @description A dashboard session, or an API token with the `read:secrets` scope (`admin` grants every scope). A service account’s token may call it.
         */
        get: operations["getChangeRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/environments/{environment}/change-requests/{id}/apply": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Apply an open change request without its approvals (the owner only, with a reason): break glass, recorded
         * @description Dashboard session only; an API token gets 403.
         */
        post: operations["applyChangeRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/environments/{environment}/change-requests/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve a change request (an owner or admin other than its author): applied at once, all or nothing, when its approvals reach the environment’s number
         * @description Dashboard session only; an API token gets 403.
         */
        post: operations["approveChangeRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/environments/{environment}/change-requests/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Withdraw an open change request (its author): nothing is written
         * @description A dashboard session, or an API token with the `write:secrets` scope (`admin` grants every scope). A service account’s token may call it.
         */
        post: operations["cancelChangeRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/environments/{environment}/change-requests/{id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reject an open change request (owner and admin): nothing is written
         * @description Dashboard session only; an API token gets 403.
         */
        post: operations["rejectChangeRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/environments/{environment}/change-requests/{id}/values": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The values a change request proposes, `{NAME: value}`: a recorded read
         * @description A dashboard session, or an API token with the `read:secrets` scope (`admin` grants every scope). A service account’s token may call it.
         */
        get: operations["getChangeRequestValues"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/environments/{environment}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every live secret of an environment with its value, `{NAME: value}`, references resolved (`?raw=true`: as stored): one recorded read
         * @description A dashboard session, or an API token with the `read:secrets` scope (`admin` grants every scope). A service account’s token may call it.
         */
        get: operations["exportSecrets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/environments/{environment}/secrets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an environment’s live secrets (`?deleted=true`: those deleted within 30 days), without values
         * @description A dashboard session, or an API token with the `read:secrets` scope (`admin` grants every scope). A service account’s token may call it.
         */
        get: operations["listSecrets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Set and delete up to 25 secrets at once: all of them, or none
         * @description A dashboard session, or an API token with the `write:secrets` scope (`admin` grants every scope). A service account’s token may call it.
         */
        patch: operations["changeSecrets"];
        trace?: never;
    };
    "/api/v1/projects/{projectId}/environments/{environment}/secrets/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one secret’s value, current or of `?version=N`, its references resolved (`?raw=true`: as stored): a recorded read
         * @description A dashboard session, or an API token with the `read:secrets` scope (`admin` grants every scope). A service account’s token may call it.
         */
        get: operations["getSecret"];
        /**
         * Write a secret’s value as its next version; `expectedVersion` makes it check-and-set
         * @description A dashboard session, or an API token with the `write:secrets` scope (`admin` grants every scope). A service account’s token may call it.
         */
        put: operations["putSecret"];
        post?: never;
        /**
         * Delete a secret: it leaves lists and exports; its versions stay restorable for 30 days
         * @description A dashboard session, or an API token with the `write:secrets` scope (`admin` grants every scope). A service account’s token may call it.
         */
        delete: operations["deleteSecret"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/environments/{environment}/secrets/{name}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Write an earlier version’s value as the next version (also undeletes); needs no read access
         * @description A dashboard session, or an API token with the `write:secrets` scope (`admin` grants every scope). A service account’s token may call it.
         */
        post: operations["restoreSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/environments/{environment}/secrets/{name}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a secret’s versions, newest first, without values (also of a secret deleted within 30 days)
         * @description A dashboard session, or an API token with the `read:secrets` scope (`admin` grants every scope). A service account’s token may call it.
         */
        get: operations["listSecretVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the members of a project
         * @description A dashboard session, or an API token with the `read:secrets` scope (`admin` grants every scope).
         */
        get: operations["listMembers"];
        put?: never;
        /**
         * Add a member to a project
         * @description A dashboard session, or an API token with the `admin` scope (`admin` grants every scope).
         */
        post: operations["addMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/members/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Leave a project: any member but its owner
         * @description A dashboard session, or an API token with the `admin` scope (`admin` grants every scope).
         */
        delete: operations["leaveProject"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/members/me/seen": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mark a project the caller was added to as opened: its notice of who added them goes (dashboard session only)
         * @description Dashboard session only; an API token gets 403.
         */
        post: operations["markMembershipSeen"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/members/{email}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a member from a project
         * @description A dashboard session, or an API token with the `admin` scope (`admin` grants every scope).
         */
        delete: operations["removeMember"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/members/{email}/access": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set a member’s access to environments: none, read or write (owner and admin)
         * @description A dashboard session, or an API token with the `admin` scope (`admin` grants every scope).
         */
        put: operations["setMemberAccess"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/promote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Copy up to 25 secrets’ current values from one environment into another: all of them, or none
         * @description A dashboard session, or an API token with the `write:secrets` scope (`admin` grants every scope). A service account’s token may call it.
         */
        post: operations["promoteSecrets"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/service-accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the service accounts of a project
         * @description A dashboard session, or an API token with the `read:secrets` scope (`admin` grants every scope).
         */
        get: operations["listServiceAccounts"];
        put?: never;
        /**
         * Add a service account to a project, with its access to environments (owner and admin)
         * @description A dashboard session, or an API token with the `admin` scope (`admin` grants every scope).
         */
        post: operations["createServiceAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/service-accounts/{serviceAccountId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one service account of a project
         * @description A dashboard session, or an API token with the `read:secrets` scope (`admin` grants every scope).
         */
        get: operations["getServiceAccount"];
        put?: never;
        post?: never;
        /**
         * Delete a service account (owner and admin)
         * @description A dashboard session, or an API token with the `admin` scope (`admin` grants every scope).
         */
        delete: operations["deleteServiceAccount"];
        options?: never;
        head?: never;
        /**
         * Change a service account’s name, description or access (owner and admin)
         * @description A dashboard session, or an API token with the `admin` scope (`admin` grants every scope).
         */
        patch: operations["updateServiceAccount"];
        trace?: never;
    };
    "/api/v1/projects/{projectId}/service-accounts/{serviceAccountId}/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the static tokens of a service account, without their secrets (owner and admin)
         * @description A dashboard session, or an API token with the `admin` scope (`admin` grants every scope).
         */
        get: operations["listServiceAccountTokens"];
        put?: never;
        /**
         * Create a static token of a service account, living 1 to 365 days (owner and admin, dashboard session only)
         * @description Dashboard session only; an API token gets 403.
         */
        post: operations["createServiceAccountToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/service-accounts/{serviceAccountId}/tokens/{tokenId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a static token of a service account (owner and admin)
         * @description A dashboard session, or an API token with the `admin` scope (`admin` grants every scope).
         */
        delete: operations["revokeServiceAccountToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/service-accounts/{serviceAccountId}/tokens/{tokenId}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace a static token of a service account with a new one, the old one working on for a grace period (owner and admin, dashboard session only)
         * @description Dashboard session only; an API token gets 403.
         */
        post: operations["rotateServiceAccountToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/service-accounts/{serviceAccountId}/trust-rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the trust rules of a service account (owner and admin)
         * @description A dashboard session, or an API token with the `admin` scope (`admin` grants every scope).
         */
        get: operations["listTrustRules"];
        put?: never;
        /**
         * Trust an OIDC workload or AWS principals to sign in as a service account, at most 10 rules (owner and admin)
         * @description A dashboard session, or an API token with the `admin` scope (`admin` grants every scope).
         */
        post: operations["createTrustRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/service-accounts/{serviceAccountId}/trust-rules/{ruleId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Stop trusting what a rule trusted (owner and admin); tokens it won live out their minutes
         * @description A dashboard session, or an API token with the `admin` scope (`admin` grants every scope).
         */
        delete: operations["deleteTrustRule"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the project’s webhooks, oldest first, never their secrets (owner and admin)
         * @description A dashboard session, or an API token with the `admin` scope (`admin` grants every scope).
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Register a webhook for the project’s audit events; its signing secret is shown once (owner and admin)
         * @description A dashboard session, or an API token with the `admin` scope (`admin` grants every scope).
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/webhooks/{webhookId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a webhook: nothing more is delivered to it (owner and admin)
         * @description A dashboard session, or an API token with the `admin` scope (`admin` grants every scope).
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/webhooks/{webhookId}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A webhook’s last 100 delivery attempts, newest event first (owner and admin)
         * @description A dashboard session, or an API token with the `admin` scope (`admin` grants every scope).
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/webhooks/{webhookId}/ping": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a webhook a `webhook.pinged` event, delivered as any other; its outcome shows in its deliveries
         * @description A dashboard session, or an API token with the `admin` scope (`admin` grants every scope).
         */
        post: operations["pingWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/shares": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the caller's live shares, newest first (never a ciphertext)
         * @description A dashboard session, or an API token with the `read:secrets` scope (`admin` grants every scope).
         */
        get: operations["listShares"];
        put?: never;
        /**
         * Share a secret: store a ciphertext the client made, for a few views and hours (at most 100 live per person)
         * @description A dashboard session, or an API token with the `write:secrets` scope (`admin` grants every scope).
         */
        post: operations["createShare"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/shares/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Look at a share before revealing it: who shared it, its views left and expiry (spends nothing)
         * @description A dashboard session, or an API token with the `read:secrets` scope (`admin` grants every scope).
         */
        get: operations["getShare"];
        put?: never;
        post?: never;
        /**
         * Withdraw one of the caller’s shares before it is spent
         * @description A dashboard session, or an API token with the `write:secrets` scope (`admin` grants every scope).
         */
        delete: operations["deleteShare"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/shares/{id}/reveal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reveal a share: spend one of its views and answer its ciphertext (a POST: no prefetch spends one)
         * @description A dashboard session, or an API token with the `read:secrets` scope (`admin` grants every scope).
         */
        post: operations["revealShare"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the caller's tokens, newest first
         * @description A dashboard session, or an API token with the `admin` scope (`admin` grants every scope).
         */
        get: operations["listTokens"];
        put?: never;
        /**
         * Create an API token (dashboard session only)
         * @description Dashboard session only; an API token gets 403.
         */
        post: operations["createToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke one of the caller’s tokens
         * @description A dashboard session, or an API token with the `admin` scope (`admin` grants every scope).
         */
        delete: operations["revokeToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tokens/{id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace one of the caller’s tokens with a new one, the old one working on for a grace period (dashboard session only)
         * @description Dashboard session only; an API token gets 403.
         */
        post: operations["rotateToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document
         * @description No authentication.
         */
        get: operations["apiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description One recorded change or denial; never a credential */
        AuditEvent: {
            /** @description `evt_` + 20 random base62 characters */
            id: string;
            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
            time: string;
            /** @enum {string} */
            type: "token.created" | "token.revoked" | "token.rotated" | "token.expiring" | "token.denied" | "project.created" | "member.added" | "member.removed" | "member.left" | "member.access_changed" | "access.denied" | "environment.created" | "environment.updated" | "environment.deleted" | "secret.created" | "secret.updated" | "secret.deleted" | "secret.restored" | "secret.read" | "change_request.created" | "change_request.approved" | "change_request.rejected" | "change_request.cancelled" | "change_request.applied" | "change_request.conflicted" | "change_request.forced" | "share.created" | "share.revealed" | "share.deleted" | "service_account.created" | "service_account.updated" | "service_account.deleted" | "service_account.token.created" | "service_account.token.revoked" | "service_account.token.rotated" | "service_account.trust_rule.added" | "service_account.trust_rule.deleted" | "service_account.signed_in" | "service_account.denied" | "user.offboarded" | "webhook.created" | "webhook.deleted" | "webhook.pinged";
            actor: {
                /** @enum {string} */
                type: "user" | "serviceAccount" | "system";
                id: string | null;
                name: string | null;
                userId: string | null;
                email: string | null;
                /** @enum {string} */
                via: "session" | "token" | "system";
                tokenId: string | null;
                subject: string | null;
            };
            target: {
                tokenId: string | null;
                projectId: string | null;
                userId: string | null;
                email: string | null;
                shareId: string | null;
                changeRequestId: string | null;
                serviceAccountId: string | null;
                webhookId: string | null;
            };
            sourceIp: string | null;
            userAgent: string | null;
            requestId: string | null;
            details: {
                name: string | null;
                scopes: string[] | null;
                expiresAt: string | null;
                role: string | null;
                environment: string | null;
                secrets: {
                    name: string;
                    version: number;
                }[] | null;
                reason: ("expired" | "ip" | "scope" | "resource" | "route" | "no-rule" | "malformed" | "issuer" | "discovery" | "algorithm" | "unknown-key" | "signature" | "not-yet-valid" | "audience" | "subject" | "claim" | "not-get-caller-identity" | "service-header" | "sts-host" | "sts-unavailable" | "principal") | null;
                replacedBy: string | null;
                stopsAt: string | null;
                daysLeft: number | null;
                maxViews: number | null;
                viewsLeft: number | null;
                access: {
                    [key: string]: "none" | "read" | "write";
                } | null;
                needed: ("none" | "read" | "write") | null;
                note: string | null;
                protected: boolean | null;
                approvals: number | null;
                defaultAccess: ("none" | "read" | "write") | null;
                url: string | null;
            };
        };
        /** @description An API token: `svc_live_` + 12-character public id + 24-character secret + 6-character CRC32 checksum, all base62 (51 characters). Shown once; only a hash is stored. */
        ApiToken: string;
        /** @description One secret in two environments, without its values */
        SecretComparison: {
            name: string;
            /**
             * @description `only-from`: live in `from` only; `only-to`: in `to` only; `same`: in both with the same value; `different`: in both with another
             * @enum {string}
             */
            status: "only-from" | "only-to" | "same" | "different";
            /** @description Its current version in `from`; null: none live there */
            fromVersion: number | null;
            /** @description Its current version in `to`; null: none live there */
            toVersion: number | null;
        };
        /** @description An environment of a project */
        Environment: {
            name: string;
            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
            createdAt: string;
            secretCount: number;
            /** @enum {string} */
            access: "none" | "read" | "write";
            protected: boolean;
            approvals: number;
            /** @enum {string} */
            defaultAccess: "none" | "read" | "write";
        };
        /** @description A proposed change of an environment’s secrets, without its values */
        ChangeRequest: {
            id: string;
            environment: string;
            /** @enum {string} */
            status: "open" | "applied" | "rejected" | "cancelled" | "conflicted" | "expired";
            author: components["schemas"]["Person"];
            note: string | null;
            changes: {
                name: string;
                /** @enum {string} */
                action: "set" | "delete" | "restore";
                fromVersion: number;
                restoreVersion: number | null;
            }[];
            approvals: {
                userId: string;
                email: string | null;
                /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
                at: string;
            }[];
            approvalsNeeded: number;
            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
            createdAt: string;
            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
            expiresAt: string;
            closedBy: components["schemas"]["Person"] | null;
            closedAt: string | null;
            forcedReason: string | null;
        };
        /** @description Who wrote a version: a person, also through one of their tokens */
        Person: {
            userId: string;
            email: string | null;
        };
        /** @description A secret: its current version, without its value */
        Secret: {
            name: string;
            version: number;
            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
            updatedAt: string;
            updatedBy: components["schemas"]["Person"];
        };
        /** @description A machine identity of a project: it belongs to the project, not to the person who made it */
        ServiceAccount: {
            /** @description `sa_` + 16 base62 characters */
            id: string;
            name: string;
            description: string | null;
            access: {
                [key: string]: "read" | "write";
            };
            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
            createdAt: string;
            createdBy: components["schemas"]["Person"];
        };
        /** @description A static token of a service account, without its secret */
        ServiceAccountToken: {
            /** @description Public id of an API token */
            id: string;
            name: string;
            /** @description First characters of the raw token */
            displayPrefix: string;
            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
            createdAt: string;
            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
            expiresAt: string;
            lastUsedAt: string | null;
            lastUsedIp: string | null;
            allowedIps: string[] | null;
            replacedBy: string | null;
            stopsAt: string | null;
        };
        /** @description A trust rule of a service account, as it was saved */
        TrustRule: {
            /** @description `tr_` + 16 base62 */
            id: string;
            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
            createdAt: string;
            /** @constant */
            kind: "oidc";
            /** @description An https URL without user, query or fragment whose host is a name, not an IP address (e.g. https://token.actions.githubusercontent.com); its token's `iss` must equal it exactly */
            issuer: string;
            /** @description The token's `aud` must be (or, as a list, contain) it */
            audience: string;
            /** @description The token's `sub`, exactly, or a pattern where `*` matches within one `:`-separated part (e.g. `repo:acme/*:ref:refs/heads/main`); not only `*` and `:` */
            subject: string;
            /** @description Up to 10 more claims the token must carry, each equal to its value as text (a list or object never matches) */
            claims?: {
                [key: string]: string;
            };
        } | {
            /** @description `tr_` + 16 base62 */
            id: string;
            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
            createdAt: string;
            /** @constant */
            kind: "aws";
            /** @description The IAM roles or users trusted (partitions aws, aws-cn and aws-us-gov) */
            principals: string[];
        };
        /** @description A webhook of a project; never its signing secret */
        Webhook: {
            /** @description `whk_` + 16 base62 */
            id: string;
            url: string;
            events: string[];
            environments: string[] | null;
            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
            createdAt: string;
        };
        /** @description One attempt to deliver an event to a webhook */
        WebhookDelivery: {
            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
            time: string;
            eventId: string;
            /** @description The audit event type delivered */
            event: string;
            /** @description 1 for the first attempt, up to 10 */
            attempt: number;
            statusCode: number | null;
            durationMs: number;
            /** @enum {string} */
            outcome: "delivered" | "retrying" | "failed";
            error: string | null;
        };
        /** @description A share as its creator sees it: its limits, never its ciphertext */
        Share: {
            id: string;
            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
            expiresAt: string;
            maxViews: number;
            viewsLeft: number;
            recipients: string[] | null;
        };
        /** @description A project a limited token reaches */
        TokenProject: {
            /** @description Id of a project */
            projectId: string;
            environments: string[] | null;
        };
    };
    responses: {
        /** @description The body is not JSON, or breaks a rule of the request schema (with `details`) */
        "Error400-726e5557": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @constant */
                    error: "Validation failed";
                    /** @description With "Validation failed": each failed field; with "Environment is protected": the change-request route */
                    details?: {
                        path: string;
                        message: string;
                    }[];
                };
            };
        };
        /** @description No, malformed, unknown, revoked or unverifiable credential; or an expired one */
        "Error401-7d108514": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Unauthorized: Missing or invalid authentication token" | "Authentication token has expired";
                };
            };
        };
        /** @description The credential may not call this route, or the web ACL blocked the request */
        "Error403-8caa5f42": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Invalid IP address for this token" | "Forbidden: Token does not have write permissions" | "Forbidden: Token is not allowed for this resource" | "Forbidden: Not allowed for a service account" | "Forbidden: Request blocked by the firewall";
                };
            };
        };
        /** @description The per-credential limit (with `Retry-After`), the per-IP limit of the web ACL, or stage throttling */
        "Error429-d5b280f6": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                "Retry-After"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @constant */
                    error: "Too many requests";
                };
            };
        };
        /** @description A bug; details only in the log */
        "Error500-e4b70b20": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @constant */
                    error: "Internal server error";
                };
            };
        };
        /** @description DynamoDB or the identity provider keys unreachable; retry after `Retry-After` seconds */
        "Error503-bbfd01d2": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                /** @description Seconds to wait before retrying */
                "Retry-After": "1";
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @constant */
                    error: "Service temporarily unavailable";
                };
            };
        };
        /** @description The body is not JSON, or breaks a rule of the request schema (with `details`) */
        "Error400-36282bd2": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Malformed JSON body" | "Validation failed";
                    /** @description With "Validation failed": each failed field; with "Environment is protected": the change-request route */
                    details?: {
                        path: string;
                        message: string;
                    }[];
                };
            };
        };
        /** @description No, malformed, unknown, revoked or unverifiable credential; or an expired one */
        "Error401-22cd24cd": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @constant */
                    error: "Unauthorized: Identity not accepted";
                };
            };
        };
        /** @description The credential may not call this route, or the web ACL blocked the request */
        "Error403-413f8da0": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @constant */
                    error: "Forbidden: Request blocked by the firewall";
                };
            };
        };
        /** @description Body over 16 KiB */
        "Error413-3a634f36": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @constant */
                    error: "Request body too large";
                };
            };
        };
        /** @description A body without `Content-Type: application/json` */
        "Error415-2b89b7c6": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @constant */
                    error: "Content-Type must be application/json";
                };
            };
        };
        /** @description The credential may not call this route, or the web ACL blocked the request */
        "Error403-fcd82d0b": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Invalid IP address for this token" | "Forbidden: Token creation requires a dashboard session" | "Forbidden: Not allowed for a service account" | "Forbidden: Request blocked by the firewall";
                };
            };
        };
        /** @description The credential may not call this route, or the web ACL blocked the request */
        "Error403-e881a005": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Invalid IP address for this token" | "Forbidden: Token does not have write permissions" | "Forbidden: Token is not allowed for this resource" | "Forbidden: Not allowed for a service account" | "Forbidden: Insufficient project role" | "Forbidden: Request blocked by the firewall";
                };
            };
        };
        /** @description The addressed resource does not exist for this caller */
        "Error404-a40d2bf8": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @constant */
                    error: "Project not found";
                };
            };
        };
        /** @description The credential may not call this route, or the web ACL blocked the request */
        "Error403-b8b77bbc": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Invalid IP address for this token" | "Forbidden: Token does not have write permissions" | "Forbidden: Token is not allowed for this resource" | "Forbidden: Insufficient environment access" | "Forbidden: Request blocked by the firewall";
                };
            };
        };
        /** @description The addressed resource does not exist for this caller */
        "Error404-4f05757f": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Project not found" | "Environment not found";
                };
            };
        };
        /** @description The credential may not call this route, or the web ACL blocked the request */
        "Error403-a89dabba": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Invalid IP address for this token" | "Forbidden: Token does not have write permissions" | "Forbidden: Token is not allowed for this resource" | "Forbidden: Request blocked by the firewall";
                };
            };
        };
        /** @description The request conflicts with the stored state */
        "Error409-70473087": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Environment already exists" | "Environment limit reached";
                };
            };
        };
        /** @description The request conflicts with the stored state */
        "Error409-6df76abf": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @constant */
                    error: "Environment is not empty";
                };
            };
        };
        /** @description The addressed resource does not exist for this caller */
        "Error404-1ad74a94": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Project not found" | "Environment not found" | "Secret not found" | "Secret version not found";
                };
            };
        };
        /** @description The request conflicts with the stored state */
        "Error409-d54c611a": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Secret version conflict" | "Change request limit reached";
                };
            };
        };
        /** @description The addressed resource does not exist for this caller */
        "Error404-28202619": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Project not found" | "Environment not found" | "Change request not found";
                };
            };
        };
        /** @description The credential may not call this route, or the web ACL blocked the request */
        "Error403-83265135": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Invalid IP address for this token" | "Forbidden: Token creation requires a dashboard session" | "Forbidden: Insufficient environment access" | "Forbidden: Insufficient project role" | "Forbidden: Request blocked by the firewall";
                };
            };
        };
        /** @description The addressed resource does not exist for this caller */
        "Error404-ebcaf157": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Project not found" | "Environment not found" | "Change request not found" | "Secret not found" | "Secret version not found";
                };
            };
        };
        /** @description The request conflicts with the stored state */
        "Error409-a24060ea": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Change request is not open" | "Change request is out of date" | "Secret limit reached";
                };
            };
        };
        /** @description The credential may not call this route, or the web ACL blocked the request */
        "Error403-45528de8": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Invalid IP address for this token" | "Forbidden: Token creation requires a dashboard session" | "Forbidden: Not allowed for a service account" | "Forbidden: Insufficient environment access" | "Forbidden: Insufficient project role" | "Forbidden: Cannot approve your own change" | "Forbidden: Request blocked by the firewall";
                };
            };
        };
        /** @description The credential may not call this route, or the web ACL blocked the request */
        "Error403-7142fb4f": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Invalid IP address for this token" | "Forbidden: Token does not have write permissions" | "Forbidden: Token is not allowed for this resource" | "Forbidden: Insufficient environment access" | "Forbidden: Only its author can cancel a change request" | "Forbidden: Request blocked by the firewall";
                };
            };
        };
        /** @description The request conflicts with the stored state */
        "Error409-956bccbc": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @constant */
                    error: "Change request is not open";
                };
            };
        };
        /** @description The credential may not call this route, or the web ACL blocked the request */
        "Error403-c3c58e19": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Invalid IP address for this token" | "Forbidden: Token creation requires a dashboard session" | "Forbidden: Not allowed for a service account" | "Forbidden: Insufficient environment access" | "Forbidden: Insufficient project role" | "Forbidden: Request blocked by the firewall";
                };
            };
        };
        /** @description The request conflicts with the stored state */
        "Error409-49ff524b": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @constant */
                    error: "Secret reference cannot be resolved";
                    /** @description With "Validation failed": each failed field; with "Environment is protected": the change-request route */
                    details?: {
                        path: string;
                        message: string;
                    }[];
                };
            };
        };
        /** @description The addressed resource does not exist for this caller */
        "Error404-eaf2f8ab": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Project not found" | "Environment not found" | "Secret not found";
                };
            };
        };
        /** @description The request conflicts with the stored state */
        "Error409-62c2141e": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Environment is protected" | "Secret version conflict" | "Secret limit reached";
                    /** @description With "Validation failed": each failed field; with "Environment is protected": the change-request route */
                    details?: {
                        path: string;
                        message: string;
                    }[];
                };
            };
        };
        /** @description The request conflicts with the stored state */
        "Error409-8c63061a": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @constant */
                    error: "Environment is protected";
                    /** @description With "Validation failed": each failed field; with "Environment is protected": the change-request route */
                    details?: {
                        path: string;
                        message: string;
                    }[];
                };
            };
        };
        /** @description The addressed resource does not exist for this caller */
        "Error404-62dc65e6": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Project not found" | "User not found";
                };
            };
        };
        /** @description The request conflicts with the stored state */
        "Error409-98c73a40": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @constant */
                    error: "User is already a member of this project";
                };
            };
        };
        /** @description The request conflicts with the stored state */
        "Error409-1ee827ee": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @constant */
                    error: "The project owner cannot be removed";
                };
            };
        };
        /** @description The addressed resource does not exist for this caller */
        "Error404-c6e70d0c": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Project not found" | "Member not found";
                };
            };
        };
        /** @description The addressed resource does not exist for this caller */
        "Error404-9033fb22": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Project not found" | "Member not found" | "Environment not found";
                };
            };
        };
        /** @description The request conflicts with the stored state */
        "Error409-4317bd9f": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @constant */
                    error: "Owners and admins write every environment";
                };
            };
        };
        /** @description The request conflicts with the stored state */
        "Error409-5ec035a4": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Environment is protected" | "Secret version conflict" | "Secret limit reached" | "Change request limit reached";
                    /** @description With "Validation failed": each failed field; with "Environment is protected": the change-request route */
                    details?: {
                        path: string;
                        message: string;
                    }[];
                };
            };
        };
        /** @description The request conflicts with the stored state */
        "Error409-e089dcec": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @constant */
                    error: "Service account limit reached";
                };
            };
        };
        /** @description The addressed resource does not exist for this caller */
        "Error404-9b770838": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Project not found" | "Service account not found";
                };
            };
        };
        /** @description The addressed resource does not exist for this caller */
        "Error404-c6752203": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Project not found" | "Service account not found" | "Environment not found";
                };
            };
        };
        /** @description The credential may not call this route, or the web ACL blocked the request */
        "Error403-d940ec0b": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Invalid IP address for this token" | "Forbidden: Token creation requires a dashboard session" | "Forbidden: Not allowed for a service account" | "Forbidden: Insufficient project role" | "Forbidden: Request blocked by the firewall";
                };
            };
        };
        /** @description The request conflicts with the stored state */
        "Error409-c8c44887": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @constant */
                    error: "Token limit reached";
                };
            };
        };
        /** @description The addressed resource does not exist for this caller */
        "Error404-edfdc430": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Project not found" | "Service account not found" | "Token not found";
                };
            };
        };
        /** @description The request conflicts with the stored state */
        "Error409-c6457996": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Token already rotated: rotate its replacement instead" | "Token limit reached";
                };
            };
        };
        /** @description The request conflicts with the stored state */
        "Error409-2df2195f": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @constant */
                    error: "Trust rule limit reached";
                };
            };
        };
        /** @description The addressed resource does not exist for this caller */
        "Error404-a7bc74c3": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Project not found" | "Service account not found" | "Trust rule not found";
                };
            };
        };
        /** @description The request conflicts with the stored state */
        "Error409-b7248822": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @constant */
                    error: "Webhook limit reached";
                };
            };
        };
        /** @description The addressed resource does not exist for this caller */
        "Error404-dcb526c4": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @enum {string} */
                    error: "Project not found" | "Webhook not found";
                };
            };
        };
        /** @description The request conflicts with the stored state */
        "Error409-3cf2f5f0": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @constant */
                    error: "Share limit reached";
                };
            };
        };
        /** @description The addressed resource does not exist for this caller */
        "Error404-93e1379a": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @constant */
                    error: "Share not found";
                };
            };
        };
        /** @description The addressed resource does not exist for this caller */
        "Error404-84fd01ce": {
            headers: {
                "Cache-Control": components["headers"]["CacheControl"];
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: false;
                    /** @constant */
                    error: "Token not found";
                };
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description No answer may be kept by a browser or a cache */
        CacheControl: "no-store";
        /** @description An opaque tag of this answer, the same while it stays the same: send it back as `If-None-Match` to get 304 until it changes */
        ETag: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listAuditEvents: {
        parameters: {
            query?: {
                limit?: string;
                cursor?: string;
                type?: "token.created" | "token.revoked" | "token.rotated" | "token.expiring" | "token.denied" | "project.created" | "member.added" | "member.removed" | "member.left" | "member.access_changed" | "access.denied" | "environment.created" | "environment.updated" | "environment.deleted" | "secret.created" | "secret.updated" | "secret.deleted" | "secret.restored" | "secret.read" | "change_request.created" | "change_request.approved" | "change_request.rejected" | "change_request.cancelled" | "change_request.applied" | "change_request.conflicted" | "change_request.forced" | "share.created" | "share.revealed" | "share.deleted" | "service_account.created" | "service_account.updated" | "service_account.deleted" | "service_account.token.created" | "service_account.token.revoked" | "service_account.token.rotated" | "service_account.trust_rule.added" | "service_account.trust_rule.deleted" | "service_account.signed_in" | "service_account.denied" | "user.offboarded" | "webhook.created" | "webhook.deleted" | "webhook.pinged";
                since?: string;
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the trail, newest first */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["AuditEvent"][];
                        nextCursor: string | null;
                    };
                };
            };
            400: components["responses"]["Error400-726e5557"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-8caa5f42"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    signInAws: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The service account to sign in as (`sa_…`) */
                    serviceAccountId: string;
                    /** @description Seconds the token lives; omitted: 900 */
                    ttlSeconds?: number;
                    /** @description An sts:GetCallerIdentity request signed with SigV4 (not sent): the service sends it to STS itself */
                    request: {
                        /** @description The signed request’s headers, among them Authorization, X-Amz-Date and X-Secrets-Service */
                        headers: {
                            [key: string]: string;
                        };
                        /** @description `Action=GetCallerIdentity&Version=2011-06-15` */
                        body: string;
                    };
                };
            };
        };
        responses: {
            /** @description A short-lived token of the service account, bound to the calling address */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            token: components["schemas"]["ApiToken"];
                            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
                            expiresAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["Error400-36282bd2"];
            401: components["responses"]["Error401-22cd24cd"];
            403: components["responses"]["Error403-413f8da0"];
            413: components["responses"]["Error413-3a634f36"];
            415: components["responses"]["Error415-2b89b7c6"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    signInOidc: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The service account to sign in as (`sa_…`) */
                    serviceAccountId: string;
                    /** @description Seconds the token lives; omitted: 900 */
                    ttlSeconds?: number;
                    /** @description The JWT the workload’s issuer gave it (GitHub Actions: its ID token for the rule’s audience) */
                    token: string;
                };
            };
        };
        responses: {
            /** @description A short-lived token of the service account, bound to the calling address */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            token: components["schemas"]["ApiToken"];
                            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
                            expiresAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["Error400-36282bd2"];
            401: components["responses"]["Error401-22cd24cd"];
            403: components["responses"]["Error403-413f8da0"];
            413: components["responses"]["Error413-3a634f36"];
            415: components["responses"]["Error415-2b89b7c6"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session's user and e-mail, the address a token created now without `allowedIps` is bound to, and the projects others added the caller to that the caller has not opened yet */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description The identity provider's stable subject (`sub`) */
                            userId: string;
                            /** @description The session's verified e-mail, lower-cased */
                            email: string;
                            /** @description The source address API Gateway saw, canonical: what a new token is bound to by default */
                            sourceIp: string;
                            /** @description The projects someone else added the caller to and the caller has not opened yet (`POST …/members/me/seen`), oldest addition first */
                            addedTo: {
                                /** @description Id of a project */
                                projectId: string;
                                name: string;
                                /** @enum {string} */
                                role: "owner" | "admin" | "member";
                                /** @description Who added the caller: their user id and their e-mail when they did */
                                addedBy: {
                                    userId: string;
                                    email: string | null;
                                };
                                /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
                                addedAt: string;
                            }[];
                        };
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-fcd82d0b"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    listProjects: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller's projects with the caller's role, and who added the caller to each one they have not opened yet */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description Id of a project */
                            projectId: string;
                            name: string;
                            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
                            createdAt: string;
                            /** @enum {string} */
                            role: "owner" | "admin" | "member";
                            /** @description Who added the caller, until the caller opens the project (`POST …/members/me/seen`); null once opened, for the owner and for a membership older than this record */
                            addedBy: {
                                userId: string;
                                email: string | null;
                            } | null;
                            /** @description When the caller was added, while `addedBy` is shown */
                            addedAt: string | null;
                        }[];
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-8caa5f42"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    createProject: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1 to 100 characters, trimmed; no invisible, formatting or control characters (a joiner or variation selector only where an emoji or a script uses it) */
                    name: string;
                };
            };
        };
        responses: {
            /** @description The new project; the caller is its owner */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description Id of a project */
                            projectId: string;
                            name: string;
                            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
                            createdAt: string;
                        };
                    };
                };
            };
            400: components["responses"]["Error400-36282bd2"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-8caa5f42"];
            413: components["responses"]["Error413-3a634f36"];
            415: components["responses"]["Error415-2b89b7c6"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    listProjectAuditEvents: {
        parameters: {
            query?: {
                limit?: string;
                cursor?: string;
                type?: "token.created" | "token.revoked" | "token.rotated" | "token.expiring" | "token.denied" | "project.created" | "member.added" | "member.removed" | "member.left" | "member.access_changed" | "access.denied" | "environment.created" | "environment.updated" | "environment.deleted" | "secret.created" | "secret.updated" | "secret.deleted" | "secret.restored" | "secret.read" | "change_request.created" | "change_request.approved" | "change_request.rejected" | "change_request.cancelled" | "change_request.applied" | "change_request.conflicted" | "change_request.forced" | "share.created" | "share.revealed" | "share.deleted" | "service_account.created" | "service_account.updated" | "service_account.deleted" | "service_account.token.created" | "service_account.token.revoked" | "service_account.token.rotated" | "service_account.trust_rule.added" | "service_account.trust_rule.deleted" | "service_account.signed_in" | "service_account.denied" | "user.offboarded" | "webhook.created" | "webhook.deleted" | "webhook.pinged";
                since?: string;
                until?: string;
            };
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the trail, newest first */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["AuditEvent"][];
                        nextCursor: string | null;
                    };
                };
            };
            400: components["responses"]["Error400-726e5557"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-e881a005"];
            404: components["responses"]["Error404-a40d2bf8"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    compareEnvironments: {
        parameters: {
            query: {
                /** @description The environment secrets are compared or promoted from */
                from: string;
                /** @description The environment secrets are compared or promoted to */
                to: string;
            };
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Each secret live in either environment, by name: only in `from`, only in `to`, or in both with the same value or another, and its version in each */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["SecretComparison"][];
                    };
                };
            };
            400: components["responses"]["Error400-726e5557"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-b8b77bbc"];
            404: components["responses"]["Error404-4f05757f"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    listEnvironments: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The environments, by name */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Environment"][];
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-a89dabba"];
            404: components["responses"]["Error404-a40d2bf8"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    createEnvironment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description An environment: 1 to 32 of a-z, 0-9 and -, starting and ending with a letter or a digit */
                    name: string;
                };
            };
        };
        responses: {
            /** @description The new environment, empty */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Environment"];
                    };
                };
            };
            400: components["responses"]["Error400-36282bd2"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-e881a005"];
            404: components["responses"]["Error404-a40d2bf8"];
            409: components["responses"]["Error409-70473087"];
            413: components["responses"]["Error413-3a634f36"];
            415: components["responses"]["Error415-2b89b7c6"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    deleteEnvironment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description An environment: 1 to 32 of a-z, 0-9 and -, starting and ending with a letter or a digit */
                environment: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-e881a005"];
            404: components["responses"]["Error404-4f05757f"];
            409: components["responses"]["Error409-6df76abf"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    updateEnvironment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description An environment: 1 to 32 of a-z, 0-9 and -, starting and ending with a letter or a digit */
                environment: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Whether its secrets change only through change requests */
                    protected?: boolean;
                    /** @description The approvals a change request needs there, 1 to 3 */
                    approvals?: number;
                    /** @enum {string} */
                    defaultAccess?: "none" | "read" | "write";
                };
            };
        };
        responses: {
            /** @description The environment with its settings */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Environment"];
                    };
                };
            };
            400: components["responses"]["Error400-36282bd2"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-e881a005"];
            404: components["responses"]["Error404-4f05757f"];
            413: components["responses"]["Error413-3a634f36"];
            415: components["responses"]["Error415-2b89b7c6"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    listChangeRequests: {
        parameters: {
            query?: {
                status?: "open" | "applied" | "rejected" | "cancelled" | "conflicted" | "expired";
            };
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description An environment: 1 to 32 of a-z, 0-9 and -, starting and ending with a letter or a digit */
                environment: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The requests, newest first */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["ChangeRequest"][];
                    };
                };
            };
            400: components["responses"]["Error400-726e5557"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-b8b77bbc"];
            404: components["responses"]["Error404-4f05757f"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    createChangeRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description An environment: 1 to 32 of a-z, 0-9 and -, starting and ending with a letter or a digit */
                environment: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    set?: {
                        [key: string]: string;
                    };
                    delete?: string[];
                    restore?: {
                        /** @description A secret: 1 to 128 of A-Z, a-z, 0-9 and _, not starting with a digit */
                        name: string;
                        version: number;
                    }[];
                    expectedVersions?: {
                        [key: string]: number;
                    };
                    note?: string;
                };
            };
        };
        responses: {
            /** @description The open request, without its values */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["ChangeRequest"];
                    };
                };
            };
            400: components["responses"]["Error400-36282bd2"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-b8b77bbc"];
            404: components["responses"]["Error404-1ad74a94"];
            409: components["responses"]["Error409-d54c611a"];
            413: components["responses"]["Error413-3a634f36"];
            415: components["responses"]["Error415-2b89b7c6"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    getChangeRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description An environment: 1 to 32 of a-z, 0-9 and -, starting and ending with a letter or a digit */
                environment: string;
                /** @description `chg_` + 16 base62 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["ChangeRequest"];
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-b8b77bbc"];
            404: components["responses"]["Error404-28202619"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    applyChangeRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description An environment: 1 to 32 of a-z, 0-9 and -, starting and ending with a letter or a digit */
                environment: string;
                /** @description `chg_` + 16 base62 */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    reason: string;
                };
            };
        };
        responses: {
            /** @description The request, applied */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["ChangeRequest"];
                    };
                };
            };
            400: components["responses"]["Error400-36282bd2"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-83265135"];
            404: components["responses"]["Error404-ebcaf157"];
            409: components["responses"]["Error409-a24060ea"];
            413: components["responses"]["Error413-3a634f36"];
            415: components["responses"]["Error415-2b89b7c6"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    approveChangeRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description An environment: 1 to 32 of a-z, 0-9 and -, starting and ending with a letter or a digit */
                environment: string;
                /** @description `chg_` + 16 base62 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request: still open, or applied */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["ChangeRequest"];
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-45528de8"];
            404: components["responses"]["Error404-ebcaf157"];
            409: components["responses"]["Error409-a24060ea"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    cancelChangeRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description An environment: 1 to 32 of a-z, 0-9 and -, starting and ending with a letter or a digit */
                environment: string;
                /** @description `chg_` + 16 base62 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request, cancelled */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["ChangeRequest"];
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-7142fb4f"];
            404: components["responses"]["Error404-28202619"];
            409: components["responses"]["Error409-956bccbc"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    rejectChangeRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description An environment: 1 to 32 of a-z, 0-9 and -, starting and ending with a letter or a digit */
                environment: string;
                /** @description `chg_` + 16 base62 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The request, rejected */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["ChangeRequest"];
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-c3c58e19"];
            404: components["responses"]["Error404-28202619"];
            409: components["responses"]["Error409-956bccbc"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    getChangeRequestValues: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description An environment: 1 to 32 of a-z, 0-9 and -, starting and ending with a letter or a digit */
                environment: string;
                /** @description `chg_` + 16 base62 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The proposed values by name */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            [key: string]: string;
                        };
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-b8b77bbc"];
            404: components["responses"]["Error404-28202619"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    exportSecrets: {
        parameters: {
            query?: {
                raw?: string;
            };
            header?: {
                "If-None-Match"?: string;
            };
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description An environment: 1 to 32 of a-z, 0-9 and -, starting and ending with a letter or a digit */
                environment: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Each live secret’s name and value; the read is in the audit trail */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** @description Each live secret’s name and its current value */
                        data: {
                            [key: string]: string;
                        };
                    };
                };
            };
            /** @description Unchanged: `If-None-Match` holds the answer’s `ETag`. No body; nothing read or recorded */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400-726e5557"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-b8b77bbc"];
            404: components["responses"]["Error404-4f05757f"];
            409: components["responses"]["Error409-49ff524b"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    listSecrets: {
        parameters: {
            query?: {
                deleted?: string;
            };
            header?: {
                "If-None-Match"?: string;
            };
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description An environment: 1 to 32 of a-z, 0-9 and -, starting and ending with a letter or a digit */
                environment: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The live secrets, by name, each at its current version; with `deleted=true`, the secrets deleted within 30 days (which a restore brings back), each at its delete */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Secret"][];
                    };
                };
            };
            /** @description Unchanged: `If-None-Match` holds the answer’s `ETag`. No body; nothing read or recorded */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error400-726e5557"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-b8b77bbc"];
            404: components["responses"]["Error404-4f05757f"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    changeSecrets: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description An environment: 1 to 32 of a-z, 0-9 and -, starting and ending with a letter or a digit */
                environment: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    set?: {
                        [key: string]: string;
                    };
                    delete?: string[];
                    expectedVersions?: {
                        [key: string]: number;
                    };
                };
            };
        };
        responses: {
            /** @description Each secret changed, by name, at its new version */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            name: string;
                            version: number;
                            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
                            updatedAt: string;
                            updatedBy: components["schemas"]["Person"];
                            deleted: boolean;
                        }[];
                    };
                };
            };
            400: components["responses"]["Error400-36282bd2"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-b8b77bbc"];
            404: components["responses"]["Error404-eaf2f8ab"];
            409: components["responses"]["Error409-62c2141e"];
            413: components["responses"]["Error413-3a634f36"];
            415: components["responses"]["Error415-2b89b7c6"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    getSecret: {
        parameters: {
            query?: {
                version?: string;
                raw?: string;
            };
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description An environment: 1 to 32 of a-z, 0-9 and -, starting and ending with a letter or a digit */
                environment: string;
                /** @description A secret: 1 to 128 of A-Z, a-z, 0-9 and _, not starting with a digit */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The secret and its value; the read is in the audit trail */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** @description A secret and its value */
                        data: {
                            name: string;
                            value: string;
                            version: number;
                            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
                            updatedAt: string;
                            updatedBy: components["schemas"]["Person"];
                            /** @description Each reference the stored value holds, once, in order, with the secret it names */
                            references: {
                                /** @description The reference as the value writes it */
                                reference: string;
                                projectId: string;
                                environment: string;
                                name: string;
                            }[];
                        };
                    };
                };
            };
            400: components["responses"]["Error400-726e5557"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-b8b77bbc"];
            404: components["responses"]["Error404-1ad74a94"];
            409: components["responses"]["Error409-49ff524b"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    putSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description An environment: 1 to 32 of a-z, 0-9 and -, starting and ending with a letter or a digit */
                environment: string;
                /** @description A secret: 1 to 128 of A-Z, a-z, 0-9 and _, not starting with a digit */
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Any UTF-8 text of at most 65536 bytes */
                    value: string;
                    /** @description Write only if this is the current version (0: only if there is none) */
                    expectedVersion?: number;
                };
            };
        };
        responses: {
            /** @description Updated: the new version, without its value */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Secret"];
                    };
                };
            };
            /** @description Created (or written again after a delete): the new version, without its value */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Secret"];
                    };
                };
            };
            400: components["responses"]["Error400-36282bd2"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-b8b77bbc"];
            404: components["responses"]["Error404-4f05757f"];
            409: components["responses"]["Error409-62c2141e"];
            413: components["responses"]["Error413-3a634f36"];
            415: components["responses"]["Error415-2b89b7c6"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    deleteSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description An environment: 1 to 32 of a-z, 0-9 and -, starting and ending with a letter or a digit */
                environment: string;
                /** @description A secret: 1 to 128 of A-Z, a-z, 0-9 and _, not starting with a digit */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-b8b77bbc"];
            404: components["responses"]["Error404-eaf2f8ab"];
            409: components["responses"]["Error409-8c63061a"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    restoreSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description An environment: 1 to 32 of a-z, 0-9 and -, starting and ending with a letter or a digit */
                environment: string;
                /** @description A secret: 1 to 128 of A-Z, a-z, 0-9 and _, not starting with a digit */
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    version: number;
                };
            };
        };
        responses: {
            /** @description The new version, without its value */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Secret"];
                    };
                };
            };
            400: components["responses"]["Error400-36282bd2"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-b8b77bbc"];
            404: components["responses"]["Error404-1ad74a94"];
            409: components["responses"]["Error409-62c2141e"];
            413: components["responses"]["Error413-3a634f36"];
            415: components["responses"]["Error415-2b89b7c6"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    listSecretVersions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description An environment: 1 to 32 of a-z, 0-9 and -, starting and ending with a letter or a digit */
                environment: string;
                /** @description A secret: 1 to 128 of A-Z, a-z, 0-9 and _, not starting with a digit */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The versions, newest first; `deleted` marks a delete */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            version: number;
                            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
                            updatedAt: string;
                            updatedBy: components["schemas"]["Person"];
                            deleted: boolean;
                        }[];
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-b8b77bbc"];
            404: components["responses"]["Error404-eaf2f8ab"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    listMembers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The members, owner first, then by e-mail */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            userId: string;
                            email: string;
                            /** @enum {string} */
                            role: "owner" | "admin" | "member";
                            /** @description Access levels by environment name */
                            access: {
                                [key: string]: "none" | "read" | "write";
                            };
                        }[];
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-8caa5f42"];
            404: components["responses"]["Error404-a40d2bf8"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    addMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description An e-mail address: printable ASCII, one @, at most 254 characters */
                    email: string;
                    /** @enum {string} */
                    role: "member" | "admin";
                };
            };
        };
        responses: {
            /** @description Added */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** @constant */
                        message: "Member added successfully";
                    };
                };
            };
            400: components["responses"]["Error400-36282bd2"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-e881a005"];
            404: components["responses"]["Error404-62dc65e6"];
            409: components["responses"]["Error409-98c73a40"];
            413: components["responses"]["Error413-3a634f36"];
            415: components["responses"]["Error415-2b89b7c6"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    leaveProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Left: the caller is no member of the project any more */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** @constant */
                        message: "Left the project";
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-8caa5f42"];
            404: components["responses"]["Error404-a40d2bf8"];
            409: components["responses"]["Error409-1ee827ee"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    markMembershipSeen: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Opened: the project list and `GET /me` show no notice for it any more (also when there was none) */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-fcd82d0b"];
            404: components["responses"]["Error404-a40d2bf8"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    removeMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description An e-mail address: printable ASCII, one @, at most 254 characters */
                email: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        /** @constant */
                        message: "Member removed successfully";
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-e881a005"];
            404: components["responses"]["Error404-c6e70d0c"];
            409: components["responses"]["Error409-1ee827ee"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    setMemberAccess: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description An e-mail address: printable ASCII, one @, at most 254 characters */
                email: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Access levels by environment name */
                    access: {
                        [key: string]: "none" | "read" | "write";
                    };
                };
            };
        };
        responses: {
            /** @description The member with their access to every environment */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            userId: string;
                            email: string;
                            /** @enum {string} */
                            role: "owner" | "admin" | "member";
                            /** @description Access levels by environment name */
                            access: {
                                [key: string]: "none" | "read" | "write";
                            };
                        };
                    };
                };
            };
            400: components["responses"]["Error400-36282bd2"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-e881a005"];
            404: components["responses"]["Error404-9033fb22"];
            409: components["responses"]["Error409-4317bd9f"];
            413: components["responses"]["Error413-3a634f36"];
            415: components["responses"]["Error415-2b89b7c6"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    promoteSecrets: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The environment secrets are compared or promoted from */
                    from: string;
                    /** @description The environment secrets are compared or promoted to */
                    to: string;
                    /** @description The secrets to promote, 1 to 25, each once */
                    names: string[];
                    /** @description Write a secret only if this is still its current version in `to` (0: only if it has none) */
                    expectedVersions?: {
                        [key: string]: number;
                    };
                    /** @description Where `to` is protected: the change request’s note, for whoever approves it */
                    note?: string;
                };
            };
        };
        responses: {
            /** @description Each secret written in `to`, by name, at its new version */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            name: string;
                            version: number;
                            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
                            updatedAt: string;
                            updatedBy: components["schemas"]["Person"];
                            deleted: boolean;
                        }[] | components["schemas"]["ChangeRequest"];
                    };
                };
            };
            /** @description Where `to` is protected: nothing written, the change proposed as a change request of `to`, open */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            name: string;
                            version: number;
                            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
                            updatedAt: string;
                            updatedBy: components["schemas"]["Person"];
                            deleted: boolean;
                        }[] | components["schemas"]["ChangeRequest"];
                    };
                };
            };
            400: components["responses"]["Error400-36282bd2"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-b8b77bbc"];
            404: components["responses"]["Error404-eaf2f8ab"];
            409: components["responses"]["Error409-5ec035a4"];
            413: components["responses"]["Error413-3a634f36"];
            415: components["responses"]["Error415-2b89b7c6"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    listServiceAccounts: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The service accounts, by name */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["ServiceAccount"][];
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-8caa5f42"];
            404: components["responses"]["Error404-a40d2bf8"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    createServiceAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1 to 100 characters, trimmed; no invisible, formatting or control characters (a joiner or variation selector only where an emoji or a script uses it) */
                    name: string;
                    /** @description Up to 500 characters, trimmed, for people: what the machine is */
                    description?: string;
                    /** @description Its access by environment name: read or write; an environment left out, none */
                    access: {
                        [key: string]: "read" | "write";
                    };
                };
            };
        };
        responses: {
            /** @description The new service account */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["ServiceAccount"];
                    };
                };
            };
            400: components["responses"]["Error400-36282bd2"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-e881a005"];
            404: components["responses"]["Error404-4f05757f"];
            409: components["responses"]["Error409-e089dcec"];
            413: components["responses"]["Error413-3a634f36"];
            415: components["responses"]["Error415-2b89b7c6"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    getServiceAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description Id of a service account (`sa_` + 16 base62) */
                serviceAccountId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The service account */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["ServiceAccount"];
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-8caa5f42"];
            404: components["responses"]["Error404-9b770838"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    deleteServiceAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description Id of a service account (`sa_` + 16 base62) */
                serviceAccountId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-e881a005"];
            404: components["responses"]["Error404-9b770838"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    updateServiceAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description Id of a service account (`sa_` + 16 base62) */
                serviceAccountId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1 to 100 characters, trimmed; no invisible, formatting or control characters (a joiner or variation selector only where an emoji or a script uses it) */
                    name?: string;
                    /** @description The new description; null takes it away */
                    description?: string | null;
                    /** @description Its whole access: replaces what it held, by environment name */
                    access?: {
                        [key: string]: "read" | "write";
                    };
                };
            };
        };
        responses: {
            /** @description The service account as changed */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["ServiceAccount"];
                    };
                };
            };
            400: components["responses"]["Error400-36282bd2"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-e881a005"];
            404: components["responses"]["Error404-c6752203"];
            413: components["responses"]["Error413-3a634f36"];
            415: components["responses"]["Error415-2b89b7c6"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    listServiceAccountTokens: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description Id of a service account (`sa_` + 16 base62) */
                serviceAccountId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Its tokens, newest first (a token just created may take a moment to show) */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["ServiceAccountToken"][];
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-e881a005"];
            404: components["responses"]["Error404-9b770838"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    createServiceAccountToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description Id of a service account (`sa_` + 16 base62) */
                serviceAccountId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1 to 100 characters, trimmed; no invisible, formatting or control characters (a joiner or variation selector only where an emoji or a script uses it) */
                    name: string;
                    /** @description Days until expiry, 1 to 365: required, no token of a machine lives forever */
                    ttlDays: number;
                    /** @description Addresses or CIDRs the token works from (1 to 10, none broader than a /8 of IPv4 or a /32 of IPv6, IPv4 embedded in IPv6 counted as IPv4, none overlapping); omitted: the creating address */
                    allowedIps?: string[];
                };
            };
        };
        responses: {
            /** @description The new token; `rawToken` appears in this response only. At most 10 live at once */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description Public id of an API token */
                            id: string;
                            name: string;
                            rawToken: components["schemas"]["ApiToken"];
                            /** @description First characters of the raw token */
                            displayPrefix: string;
                            /** @description What the service account’s access gives its tokens now: read:secrets, and write:secrets where it writes */
                            scopes: ("read:secrets" | "write:secrets" | "admin")[];
                            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
                            expiresAt: string;
                            allowedIps: string[] | null;
                        };
                    };
                };
            };
            400: components["responses"]["Error400-36282bd2"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-d940ec0b"];
            404: components["responses"]["Error404-9b770838"];
            409: components["responses"]["Error409-c8c44887"];
            413: components["responses"]["Error413-3a634f36"];
            415: components["responses"]["Error415-2b89b7c6"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    revokeServiceAccountToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description Id of a service account (`sa_` + 16 base62) */
                serviceAccountId: string;
                /** @description Public id of an API token */
                tokenId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked; its next use is a 401 */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-e881a005"];
            404: components["responses"]["Error404-edfdc430"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    rotateServiceAccountToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description Id of a service account (`sa_` + 16 base62) */
                serviceAccountId: string;
                /** @description Public id of an API token */
                tokenId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Hours the old token keeps working (0: it stops now; at most its own expiry); omitted: 24 */
                    graceHours?: number;
                };
            };
        };
        responses: {
            /** @description The new token: same name and addresses, the same lifetime counted from now; `rawToken` appears in this response only */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description Public id of an API token */
                            id: string;
                            name: string;
                            rawToken: components["schemas"]["ApiToken"];
                            /** @description First characters of the raw token */
                            displayPrefix: string;
                            /** @description What the service account’s access gives its tokens now: read:secrets, and write:secrets where it writes */
                            scopes: ("read:secrets" | "write:secrets" | "admin")[];
                            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
                            expiresAt: string;
                            allowedIps: string[] | null;
                            replaces: {
                                /** @description Public id of an API token */
                                id: string;
                                /** @description When the old token stops working */
                                stopsAt: string;
                            };
                        };
                    };
                };
            };
            400: components["responses"]["Error400-36282bd2"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-d940ec0b"];
            404: components["responses"]["Error404-edfdc430"];
            409: components["responses"]["Error409-c6457996"];
            413: components["responses"]["Error413-3a634f36"];
            415: components["responses"]["Error415-2b89b7c6"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    listTrustRules: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description Id of a service account (`sa_` + 16 base62) */
                serviceAccountId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Its trust rules, oldest first */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["TrustRule"][];
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-e881a005"];
            404: components["responses"]["Error404-9b770838"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    createTrustRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description Id of a service account (`sa_` + 16 base62) */
                serviceAccountId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @constant */
                    kind: "oidc";
                    /** @description An https URL without user, query or fragment whose host is a name, not an IP address (e.g. https://token.actions.githubusercontent.com); its token's `iss` must equal it exactly */
                    issuer: string;
                    /** @description The token's `aud` must be (or, as a list, contain) it */
                    audience: string;
                    /** @description The token's `sub`, exactly, or a pattern where `*` matches within one `:`-separated part (e.g. `repo:acme/*:ref:refs/heads/main`); not only `*` and `:` */
                    subject: string;
                    /** @description Up to 10 more claims the token must carry, each equal to its value as text (a list or object never matches) */
                    claims?: {
                        [key: string]: string;
                    };
                } | {
                    /** @constant */
                    kind: "aws";
                    /** @description The IAM roles or users trusted (partitions aws, aws-cn and aws-us-gov) */
                    principals: string[];
                };
            };
        };
        responses: {
            /** @description The rule as saved, with its id */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["TrustRule"];
                    };
                };
            };
            400: components["responses"]["Error400-36282bd2"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-e881a005"];
            404: components["responses"]["Error404-9b770838"];
            409: components["responses"]["Error409-2df2195f"];
            413: components["responses"]["Error413-3a634f36"];
            415: components["responses"]["Error415-2b89b7c6"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    deleteTrustRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description Id of a service account (`sa_` + 16 base62) */
                serviceAccountId: string;
                /** @description Id of a trust rule (`tr_` + 16 base62) */
                ruleId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; no sign-in passes it any more */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-e881a005"];
            404: components["responses"]["Error404-a7bc74c3"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhooks */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Webhook"][];
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-e881a005"];
            404: components["responses"]["Error404-a40d2bf8"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Where to deliver: an https URL whose host resolves to public addresses only */
                    url: string;
                    /** @description The events to deliver: audit event types or `prefix.*` patterns */
                    events: string[];
                    /** @description Only events in these environments; without it, every event that matches */
                    environments?: string[];
                };
            };
        };
        responses: {
            /** @description The webhook, with its signing secret this once */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description `whk_` + 16 base62 */
                            id: string;
                            url: string;
                            events: string[];
                            environments: string[] | null;
                            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
                            createdAt: string;
                            /** @description The signing secret (`whsec_` + 32 base62): shown this once, keep it with the receiver */
                            secret: string;
                        };
                    };
                };
            };
            400: components["responses"]["Error400-36282bd2"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-e881a005"];
            404: components["responses"]["Error404-a40d2bf8"];
            409: components["responses"]["Error409-b7248822"];
            413: components["responses"]["Error413-3a634f36"];
            415: components["responses"]["Error415-2b89b7c6"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description Id of a webhook (`whk_` + 16 base62) */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-e881a005"];
            404: components["responses"]["Error404-dcb526c4"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description Id of a webhook (`whk_` + 16 base62) */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The attempts: time, event, status code, duration, attempt and outcome */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["WebhookDelivery"][];
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-e881a005"];
            404: components["responses"]["Error404-dcb526c4"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    pingWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a project */
                projectId: string;
                /** @description Id of a webhook (`whk_` + 16 base62) */
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ping event, on its way; its deliveries show how it went */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description The id of the `webhook.pinged` event */
                            eventId: string;
                        };
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-e881a005"];
            404: components["responses"]["Error404-dcb526c4"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    listShares: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller's shares not yet spent or expired, newest first */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            id: string;
                            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
                            expiresAt: string;
                            maxViews: number;
                            viewsLeft: number;
                            recipients: string[] | null;
                            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
                            createdAt: string;
                        }[];
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-8caa5f42"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    createShare: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The secret, encrypted by the client (AES-256-GCM: 12-byte nonce, then ciphertext and tag), base64url; the key never reaches the service */
                    ciphertext: string;
                    /** @description Hours until the share expires, 1 to 720; default 24 */
                    expiresInHours?: number;
                    /** @description Times the share may be revealed, 1 to 100; default 1 */
                    maxViews?: number;
                    /** @description The only people who may reveal it, by the e-mail of their session (1 to 20); omitted: anyone signed in */
                    recipients?: string[];
                };
            };
        };
        responses: {
            /** @description The share; its link is the client’s, with the key in the fragment */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Share"];
                    };
                };
            };
            400: components["responses"]["Error400-36282bd2"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-8caa5f42"];
            409: components["responses"]["Error409-3cf2f5f0"];
            413: components["responses"]["Error413-3a634f36"];
            415: components["responses"]["Error415-2b89b7c6"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    getShare: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a share (`shr_` + 22 base62) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Who shared it and what is left of it; never its ciphertext */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            viewsLeft: number;
                            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
                            expiresAt: string;
                            createdBy: {
                                email: string | null;
                            };
                        };
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-8caa5f42"];
            404: components["responses"]["Error404-93e1379a"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    deleteShare: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a share (`shr_` + 22 base62) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Withdrawn; its link reveals nothing any more */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-8caa5f42"];
            404: components["responses"]["Error404-93e1379a"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    revealShare: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of a share (`shr_` + 22 base62) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ciphertext, to decrypt with the key in the link; the reveal is recorded */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description As its creator sent it: decrypt it with the key in the link */
                            ciphertext: string;
                            /** @description Reveals left after this one; 0: this was the last */
                            viewsLeft: number;
                            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
                            expiresAt: string;
                            createdBy: {
                                email: string | null;
                            };
                        };
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-8caa5f42"];
            404: components["responses"]["Error404-93e1379a"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    listTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller's active and expired tokens, newest first */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description Public id of an API token */
                            id: string;
                            name: string;
                            /** @description First characters of the raw token */
                            displayPrefix: string;
                            scopes: ("read:secrets" | "write:secrets" | "admin")[];
                            /** @description ISO 8601 UTC with milliseconds, e.g. 2026-11-21T23:23:35.000Z */
                            createdAt: string;
                            expiresAt: string | null;
                            lastUsedAt: string | null;
                            lastUsedIp: string | null;
                            allowedIps: string[] | null;
                            replacedBy: string | null;
                            stopsAt: string | null;
                            /** @description The projects it reaches; null: all of its owner's */
                            projects: components["schemas"]["TokenProject"][] | null;
                        }[];
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-8caa5f42"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    createToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1 to 100 characters, trimmed; no invisible, formatting or control characters (a joiner or variation selector only where an emoji or a script uses it) */
                    name: string;
                    scopes: ("read:secrets" | "write:secrets" | "admin")[];
                    /** @description Days until expiry; `null`: never; omitted: 30 */
                    ttlDays?: number | null;
                    /** @description Addresses or CIDRs the token works from (1 to 10, none broader than a /8 of IPv4 or a /32 of IPv6, IPv4 embedded in IPv6 counted as IPv4, none overlapping); omitted: the creating address */
                    allowedIps?: string[];
                    /** @description The projects (1 to 10, each a project of the caller's) and environments the token reaches; omitted: all of the caller's */
                    projects?: {
                        projectId: string;
                        /** @description The environments it reaches in that project; omitted: all of them */
                        environments?: string[];
                    }[];
                };
            };
        };
        responses: {
            /** @description The new token; `rawToken` appears in this response only */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description Public id of an API token */
                            id: string;
                            name: string;
                            rawToken: components["schemas"]["ApiToken"];
                            /** @description First characters of the raw token */
                            displayPrefix: string;
                            scopes: ("read:secrets" | "write:secrets" | "admin")[];
                            expiresAt: string | null;
                            /** @description The projects it reaches; null: all of its owner's */
                            projects: components["schemas"]["TokenProject"][] | null;
                        };
                    };
                };
            };
            400: components["responses"]["Error400-36282bd2"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-fcd82d0b"];
            404: components["responses"]["Error404-a40d2bf8"];
            409: components["responses"]["Error409-c8c44887"];
            413: components["responses"]["Error413-3a634f36"];
            415: components["responses"]["Error415-2b89b7c6"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    revokeToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Public id of an API token */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked; its next use is a 401 */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                    };
                };
            };
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-8caa5f42"];
            404: components["responses"]["Error404-84fd01ce"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    rotateToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Public id of an API token */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Hours the old token keeps working (0: it stops now; at most its own expiry); omitted: 24 */
                    graceHours?: number;
                };
            };
        };
        responses: {
            /** @description The new token: same name, scopes and addresses, the same lifetime counted from now; `rawToken` appears in this response only */
            201: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description Public id of an API token */
                            id: string;
                            name: string;
                            rawToken: components["schemas"]["ApiToken"];
                            /** @description First characters of the raw token */
                            displayPrefix: string;
                            scopes: ("read:secrets" | "write:secrets" | "admin")[];
                            expiresAt: string | null;
                            /** @description The projects it reaches; null: all of its owner's */
                            projects: components["schemas"]["TokenProject"][] | null;
                            allowedIps: string[] | null;
                            replaces: {
                                /** @description Public id of an API token */
                                id: string;
                                /** @description When the old token stops working */
                                stopsAt: string;
                            };
                        };
                    };
                };
            };
            400: components["responses"]["Error400-36282bd2"];
            401: components["responses"]["Error401-7d108514"];
            403: components["responses"]["Error403-fcd82d0b"];
            404: components["responses"]["Error404-84fd01ce"];
            409: components["responses"]["Error409-c6457996"];
            413: components["responses"]["Error413-3a634f36"];
            415: components["responses"]["Error415-2b89b7c6"];
            429: components["responses"]["Error429-d5b280f6"];
            500: components["responses"]["Error500-e4b70b20"];
            503: components["responses"]["Error503-bbfd01d2"];
        };
    };
    apiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI document */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        openapi: "3.1.0";
                        /** @description Where the web dashboard is (an absolute URL ending in `/`): the base of the links a client makes to it, such as a share’s `<dashboard>/s/shr_…#key` */
                        "x-dashboard-url": string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
}
