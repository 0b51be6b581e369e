import { createIssue, describeValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import type { Area } from '../model/constants.js'
import { takeDerived, type RollupSink } from './collect.js'
import { deriveLeaf, digestFolder, factsOf, latestSnapshot, previousAt } from './nodes.js'
import type { GradingFacts, GradingFileInput, IndexNode, SkillListing } from './types.js'

// The leaves a namespace and a selection both have, derived one way: an About bound to its snapshot's hash, and a
// skill bound to its newest snapshot.

/**
 * The About leaf: its gradings bound to the About snapshot's hash (`aboutHash`). A `preBlock` (no snapshot) is
 * reported after the folder's own issues and blocks the leaf.
 */
export function aboutLeaf(args: {
    readonly gradings: readonly GradingFileInput[] | undefined
    readonly area: Area
    /** Where the folder stands in the listing (`/listing/about/gradings`). */
    readonly listingPath: string
    /** The gradings' folder, relative to the index folder. */
    readonly folder: string
    readonly snapshot: ReturnType<typeof latestSnapshot>
    readonly preBlock: Issue | null
    readonly previous: unknown
    readonly sink: RollupSink
}): IndexNode {
    const { sink, snapshot } = args
    const byArea = digestFolder(args.gradings, [args.area], args.listingPath, args.folder, sink.errors)
    if (args.preBlock !== null) sink.errors.push(args.preBlock)
    const leaf = deriveLeaf(factsOf(byArea, [args.area]), {
        refBase: args.folder,
        nodePath: 'about',
        binding: {
            field: 'aboutHash',
            hash: snapshot?.hash ?? null,
            newestSnapshotTs: snapshot?.timestamp ?? null,
            displayHash: null,
            requireSnapshot: true
        },
        preBlock: args.preBlock,
        previous: previousAt(args.previous, 'about')
    })
    takeDerived(sink, leaf)
    return leaf.node
}

/**
 * A skill's leaf, at `skills.<key>`: its gradings bound to the skill's newest snapshot; an entry graded for another
 * skill is unusable (IDX-010). Returns the facts too (a selection skill's level is its newest entry's area).
 */
export function skillLeaf(args: {
    readonly skill: SkillListing
    readonly areas: readonly Area[]
    readonly listingPath: string
    readonly folder: string
    readonly key: string
    readonly previous: unknown
    readonly sink: RollupSink
}): { node: IndexNode; facts: GradingFacts[] } {
    const { skill, folder, sink } = args
    const byArea = digestFolder(skill.gradings, args.areas, args.listingPath, folder, sink.errors)
    const facts = factsOf(byArea, args.areas).map((f) =>
        f.problem === null && f.skillId !== skill.name
            ? {
                  ...f,
                  problem: createIssue('IDX-010', args.listingPath, {
                      path: `${folder}/${f.file}`,
                      detail: `skillId ${describeValue(f.skillId)} is not ${skill.name}`
                  })
              }
            : f
    )
    const snap = latestSnapshot(skill.snapshots, skill.name)
    const leaf = deriveLeaf(facts, {
        refBase: folder,
        nodePath: `skills.${args.key}`,
        binding: {
            field: null,
            hash: null,
            newestSnapshotTs: snap?.timestamp ?? null,
            displayHash: snap?.hash ?? null,
            requireSnapshot: true
        },
        preBlock: null,
        previous: previousAt(args.previous, 'skills', args.key)
    })
    takeDerived(sink, leaf)
    return { node: leaf.node, facts }
}
