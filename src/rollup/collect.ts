import type { Issue } from '../errors/types.js'
import { reasonText, versionsOf } from './nodes.js'
import type { Blocker, GradingFacts } from './types.js'

/**
 * What an index builder gathers while it derives nodes: the issues it reports, the blockers it
 * lists, and the gradings its statuses rest on (for the version summary). Each stage of a builder
 * adds to one sink, so the order of every list is the order the stages run in.
 */
export interface RollupSink {
    readonly errors: Issue[]
    readonly blockers: Blocker[]
    readonly used: GradingFacts[]
}

/** A sink that appends to the builder's own `errors`. */
export function rollupSink(errors: Issue[]): RollupSink {
    return { errors, blockers: [], used: [] }
}

/** Takes what a derived leaf or schema node contributes: its blockers, issues and used gradings. */
export function takeDerived(
    sink: RollupSink,
    derived: {
        readonly blockers: readonly Blocker[]
        readonly issues: readonly Issue[]
        readonly used: GradingFacts | readonly GradingFacts[] | null
    }
): void {
    sink.blockers.push(...derived.blockers)
    sink.errors.push(...derived.issues)
    if (Array.isArray(derived.used)) sink.used.push(...derived.used)
    else if (derived.used !== null) sink.used.push(derived.used as GradingFacts)
}

/** Reports an issue that blocks a node: once among the issues, once as the node's blocker. */
export function blockNode(sink: RollupSink, node: string, issue: Issue): void {
    sink.errors.push(issue)
    sink.blockers.push({ node, reason: reasonText(issue) })
}

/** The scoring and grading systems of the used gradings; mixed versions block the summary (IDX-017). */
export function takeVersions(sink: RollupSink): { scoringSystem: string[]; gradingSystem: string[] } {
    const versions = versionsOf(sink.used)
    if (versions.mixed !== null) blockNode(sink, 'summary', versions.mixed)
    return { scoringSystem: versions.scoringSystem, gradingSystem: versions.gradingSystem }
}
