import { BLOCKED_REASONS, type BlockedReason } from './constants.js'

// The two classes of blocked reasons, apart from the constants so that a bundle of the entry validator alone (which
// reads those) does not carry them.

/**
 * The blocked reasons of the environment: the run could not test the tool here (a key not set, no HTTP port or
 * recordings, no runtime, no network granted, a request the recordings lack, no shared lists, a library not
 * installed), and another machine could. Every other reason, working-count reasons included, is the schema's content:
 * it would be blocked anywhere. The one list the CLI (`check --fail-on-untested`), `check`'s verdict, the fix lists,
 * SARIF and the Markdown summary read.
 */
export const ENVIRONMENT_BLOCKED_REASONS: readonly BlockedReason[] = Object.freeze([
    BLOCKED_REASONS.keyGated,
    BLOCKED_REASONS.untested,
    BLOCKED_REASONS.handlersNeedRuntime,
    BLOCKED_REASONS.networkNotGranted,
    BLOCKED_REASONS.missingRecording,
    BLOCKED_REASONS.sharedListsNotGiven,
    BLOCKED_REASONS.libraryNotInstalled
])

/** The blocked reasons of the schema's content (blocked anywhere); the working-count reasons belong here too. */
export const CONTENT_BLOCKED_REASONS: readonly BlockedReason[] = Object.freeze(
    Object.values(BLOCKED_REASONS).filter((r) => !(ENVIRONMENT_BLOCKED_REASONS as readonly string[]).includes(r))
)

/**
 * Whether a blocked reason is of the environment (`ENVIRONMENT_BLOCKED_REASONS`): the tool was not tested here.
 * Never throws: anything else, an unknown string included, is `false` (content).
 */
export function isEnvironmentReason(reason: unknown): boolean {
    return typeof reason === 'string' && (ENVIRONMENT_BLOCKED_REASONS as readonly string[]).includes(reason)
}
