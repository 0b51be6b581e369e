// The inputs key of a unit's result: a digest of everything the result was computed from, so the island's earlier
// result is reused only when every input is unchanged (a build system's action key, eslint's --cache key).
import { HashGenerator } from '../hashing/hash-generator.js'
import { isObject } from '../model/object.js'
import type { PretestResult } from '../pretest/data-pretest.js'
import { GRADING_SPEC_VERSION, GRADING_SYSTEM_VERSION, PACKAGE_VERSION, SCORING_SYSTEM_VERSION } from '../version.js'
import type { GraderInput } from './types.js'

/**
 * The version of the key's own recipe: raised whenever what goes into a key changes, so a key written under another
 * recipe never matches.
 */
export const INPUTS_KEY_VERSION = 1

/** What every unit's result also rests on besides its own content: the library, the judge, the run's options. */
export interface RunInputs {
    /** The grader the answers are recorded under (name, version, model, harness, persona, group). */
    readonly grader: GraderInput | null
    /** Whether a judge function was given (a run without one leaves units provisional, never graded). */
    readonly judgeGiven: boolean
    /** The pre-collected answers this unit set reads (`options.answers` of the schema or namespace), when given. */
    readonly answers?: unknown
    /** The namespace About the prompts attach (name and text), when given. */
    readonly about?: { readonly name?: string; readonly text: string }
    /** The namespace skill files the prompts attach. */
    readonly skills?: ReadonlyArray<{ readonly name: string; readonly text: string }>
    /** The FlowMCP runtime's version and isolation, when a runtime was given; `null` without one. */
    readonly runtime: { readonly version: string | null; readonly isolation: string | null } | null
    /** Which tools the runtime runs (`handlers` by default). */
    readonly runtimeTools: 'handlers' | 'all'
    /** The names of the server params the host gave a value for (never the values). */
    readonly serverParamNames: readonly string[]
}

/** The inputs of one schema's own units (its tools' single-test units and its tools aggregate). */
export interface SchemaInputs extends RunInputs {
    /** The canonical hash of `main` (its snapshot's name). */
    readonly schemaHash: string
    /** The source as read: comments and handlers included, which `schemaHash` does not cover (03 ⚠ C12). */
    readonly schemaText: string
    /** The pretest as the units read it: every test's outcome, the tools' counts and bars, the docs checks. */
    readonly pretest: PretestResult
}

/** The inputs of a namespace's own units: its schemas (each by its inputs key) and what the whole run shares. */
export interface NamespaceInputs extends RunInputs {
    readonly namespace: string
    /** Every schema of the namespace's tree, by island folder, with its inputs key (`null`: not computable). */
    readonly members: ReadonlyArray<{ readonly schemaFolder: string; readonly inputsKey: string | null }>
}

/**
 * The library's part of a key: the spec, scoring and grading systems and the package version (any release may grade
 * the same inputs otherwise).
 */
function libraryPart(): Record<string, string> {
    return {
        gradingSpec: GRADING_SPEC_VERSION,
        scoringSystem: SCORING_SYSTEM_VERSION,
        gradingSystem: GRADING_SYSTEM_VERSION,
        package: PACKAGE_VERSION
    }
}

/** The sha256 of the UTF-8 bytes of a text. */
const textHash = (text: string): string | null => HashGenerator.hashBytes({ text }).hash

/** The parts a run shares between a schema's key and its namespace's: judge, answers, About, skills, options. */
function runPart(run: RunInputs): Record<string, unknown> | null {
    const grader = run.grader
    const answers = run.answers === undefined ? null : HashGenerator.computeHash({ value: run.answers }).hash
    if (run.answers !== undefined && answers === null) return null
    return {
        judge: {
            given: run.judgeGiven,
            grader:
                grader === null
                    ? null
                    : {
                          name: grader.name,
                          version: grader.version,
                          llmModel: grader.llmModel,
                          harness: grader.harness ?? null,
                          persona: grader.persona ?? null,
                          groupId: grader.groupId ?? null
                      },
            answers
        },
        about: run.about === undefined ? null : { name: run.about.name ?? null, text: textHash(run.about.text) },
        skills: (run.skills ?? []).map((s) => ({ name: s.name, text: textHash(s.text) })),
        runtime: run.runtime,
        runtimeTools: run.runtimeTools,
        serverParams: [...run.serverParamNames].sort()
    }
}

/**
 * The pretest as the units read it, without when it ran: every test's outcome (status, HTTP status, data shape,
 * bytes, output-schema match, verdict, masked requests), the tools' classes, counts and bars, the docs checks, the
 * findings. Response bodies are not kept by the pretest, so nothing downstream can read more of the exchanges.
 */
export function evidenceOf(pretest: PretestResult): Record<string, unknown> {
    const issue = (i: { code: string; path: string; severity: string; message: string }): Record<string, string> => ({
        code: i.code,
        path: i.path,
        severity: i.severity,
        message: i.message
    })
    return {
        ran: pretest.ran,
        reason: pretest.reason,
        dryRun: pretest.dryRun,
        minWorkingTests: pretest.minWorkingTests,
        results: pretest.results,
        tools: pretest.tools,
        docs: pretest.docs,
        blocked: pretest.blocked,
        ok: pretest.ok,
        findings: pretest.findings.map(issue),
        errors: pretest.errors.map(issue)
    }
}

/** `sha256:<hex>` of the canonical JSON of a key's parts, or null when a part cannot be hashed (nothing is reused). */
function keyOf(parts: Record<string, unknown>): string | null {
    // The evidence of a large schema can hold many values: the limits are the guard's, raised for this one digest.
    return HashGenerator.computeHash({ value: parts, limits: { maxNodes: 2_000_000, maxTextLength: 64_000_000 } }).hash
}

/**
 * The inputs key of a schema's own units: equal keys mean the same source (bytes and `main`), the same evidence (the
 * pretest's outcome of every exchange), the same options (`minWorkingTests` through the pretest, runtime and lists
 * given or not, which tools it runs, the keys given), the same About and skills, the same judge identity and answers,
 * and the same library. Null when it cannot be computed: then nothing is reused.
 * @example schemaInputsKey({ schemaHash, schemaText, pretest, grader, judgeGiven: true, runtime: null,
 *   runtimeTools: 'handlers', serverParamNames: [] })
 */
export function schemaInputsKey(inputs: SchemaInputs): string | null {
    const run = runPart(inputs)
    if (run === null) return null
    return keyOf({
        key: INPUTS_KEY_VERSION,
        kind: 'schema',
        library: libraryPart(),
        schema: { hash: inputs.schemaHash, source: textHash(inputs.schemaText) },
        evidence: evidenceOf(inputs.pretest),
        run
    })
}

/**
 * The inputs key of a namespace's own units (tools-aggregate-namespace, namespace-description, namespace-skills,
 * about-namespace): its schemas by their inputs keys — one added, removed, renamed or changed changes it — and what
 * the run shares. Null when a member's key is null or a part cannot be hashed.
 * @example namespaceInputsKey({ namespace: 'openmeteo', members: [{ schemaFolder: 'forecast', inputsKey }], … })
 */
export function namespaceInputsKey(inputs: NamespaceInputs): string | null {
    if (inputs.members.some((m) => m.inputsKey === null)) return null
    const run = runPart(inputs)
    if (run === null) return null
    const members = [...inputs.members]
        .sort((a, b) => (a.schemaFolder < b.schemaFolder ? -1 : a.schemaFolder > b.schemaFolder ? 1 : 0))
        .map((m) => [m.schemaFolder, m.inputsKey])
    return keyOf({
        key: INPUTS_KEY_VERSION,
        kind: 'namespace',
        library: libraryPart(),
        namespace: inputs.namespace,
        members,
        run
    })
}

/** The runtime part of {@link RunInputs} from a run's options (a runtime port's version and isolation, when given). */
export function runtimeInputsOf(runtime: unknown): RunInputs['runtime'] {
    if (!isObject(runtime)) return null
    return {
        version: typeof runtime.version === 'string' ? runtime.version : null,
        isolation: typeof runtime.isolation === 'string' ? runtime.isolation : null
    }
}
