// Stage "attach and scan": the units in grading order, the redacted attachments, the injection scan and the data
// boundary.
import type { DeterministicAnswers } from '../deterministic/answers.js'
import { createIssue } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { HashGenerator } from '../hashing/hash-generator.js'
import { islandName } from '../store/paths.js'
import { Redact } from '../prompts/redact.js'
import { chooseBoundary } from '../injection/boundary.js'
import { scanInjection } from '../injection/scan.js'
import { namespaceUnitPlans, type UnitPlan } from './units.js'
import type { EmittedPrompt, GradeSingleSchemaInput } from './types.js'
import type { SchemaRunOptions } from './run-input.js'
import type { SchemaIdentity } from './schema-read.js'

type Obj = Record<string, unknown>

/**
 * The injection scan of one schema: its `main` and source, the About and skills of the run, with the
 * paths of this function's input (`/schema/main/…`, the source at `sourcePath`, `/options/about/text`,
 * `/options/skills/<i>/text`).
 */
export function injectionOf(
    main: Obj,
    source: { name: string; text: string; path: string },
    options: Pick<SchemaRunOptions, 'about' | 'skills'>,
    aboutName: string
): { findings: Issue[]; flagged: string[] } {
    const about = options.about
    const skills = options.skills ?? []
    return scanInjection(
        main,
        [
            { name: source.name, text: source.text, source: true },
            ...(about !== undefined ? [{ name: aboutName, text: about.text }] : []),
            ...skills.map((sk) => ({ name: `skills/${sk.name}.mjs`, text: sk.text }))
        ],
        {
            mainPath: '/schema/main',
            filePaths: [
                source.path,
                ...(about !== undefined ? ['/options/about/text'] : []),
                ...skills.map((_, i) => `/options/skills/${i}/text`)
            ]
        }
    )
}

/**
 * Stage "plan": the units of a schema's run, in the order they are graded (its own areas; with `namespaceAreas`, the
 * namespace's too).
 */
function unitPlansOf(args: {
    tools: readonly string[]
    namespace: string
    schemaFolder: string
    deterministic: ReturnType<typeof DeterministicAnswers.build>
    namespaceAnswers: ReturnType<typeof DeterministicAnswers.buildNamespace>
    skills: NonNullable<SchemaRunOptions['skills']>
    namespaceAreas: boolean
}): UnitPlan[] {
    const { tools, namespace, schemaFolder, deterministic, namespaceAnswers } = args
    const plans: UnitPlan[] = [
        ...tools.map((tool): UnitPlan => {
            const notes = deterministic.deferred
                .filter((d) => d.area === 'single-test' && (d.tool === undefined || d.tool === tool))
                .map((d) => d.note)
            return {
                unit: `single-test/${tool}`,
                area: 'single-test',
                target: { namespace, schema: schemaFolder, tool: islandName(tool, 'tool') ?? tool },
                deterministic: deterministic.byArea['single-test'][tool] ?? [],
                focus: tool,
                ...(notes.length > 0 ? { notes } : {})
            }
        }),
        {
            unit: 'tools-aggregate-schema',
            area: 'tools-aggregate-schema',
            target: { namespace, schema: schemaFolder },
            deterministic: deterministic.byArea['tools-aggregate-schema'],
            focus: null
        },
        // The About's answers are this schema's part of them (whether it declares the About), not the namespace's.
        ...namespaceUnitPlans({
            namespace,
            schemaFolder,
            coverage: namespaceAnswers.byArea['tools-aggregate-namespace'],
            about: deterministic.byArea['about-namespace'],
            skills: args.skills
        })
    ]
    return args.namespaceAreas
        ? plans
        : plans.filter((p) => p.area === 'single-test' || p.area === 'tools-aggregate-schema')
}

/** Stage "attach": the files a judge reads for a schema's units, each redacted: the schema, the About, the skills. */
function attachmentsOf(args: {
    slug: string
    namespace: string
    redactedText: string
    about: SchemaRunOptions['about']
    skills: NonNullable<SchemaRunOptions['skills']>
    serverParams: Readonly<Record<string, string>>
}): EmittedPrompt['attachments'] {
    return [
        { name: `${args.slug}.mjs`, role: 'the FlowMCP v4 schema under grading', content: args.redactedText },
        ...namespaceAttachments(args)
    ]
}

/** The About and the skills as a judge reads them, redacted: the same for a schema's run and its namespace's. */
export function namespaceAttachments(args: {
    namespace: string
    about: SchemaRunOptions['about']
    skills: NonNullable<SchemaRunOptions['skills']>
    serverParams: Readonly<Record<string, string>>
}): EmittedPrompt['attachments'] {
    const { about, serverParams } = args
    return [
        ...(about !== undefined
            ? [
                  {
                      name: about.name ?? `${args.namespace}-about.md`,
                      role: 'the namespace About',
                      content: Redact.text({ text: about.text, serverParams }).text ?? ''
                  }
              ]
            : []),
        ...args.skills.map((s) => ({
            name: `skills/${s.name}.mjs`,
            role: `namespace skill ${s.name}`,
            content: Redact.text({ text: s.text, serverParams }).text ?? ''
        }))
    ]
}

/**
 * What every prompt of a schema's run carries: the redacted files, the boundary, the places the injection scan flagged.
 */
interface PromptMaterial {
    readonly aboutHash: string | undefined
    readonly redactedText: string
    readonly attachments: EmittedPrompt['attachments']
    readonly flagged: string[]
    readonly boundary: string
}

/**
 * Stage "attach and scan": the attachments, the injection scan (its findings in `errors`) and the run's data boundary.
 */
export function promptMaterialOf(args: {
    input: GradeSingleSchemaInput
    main: Obj
    schemaText: string
    options: SchemaRunOptions
    id: SchemaIdentity
    namespaceAreas: boolean
    errors: Issue[]
}): PromptMaterial {
    const { input, main, schemaText, options, errors } = args
    const { slug, namespace, serverParams } = args.id
    const aboutHash =
        options.about !== undefined
            ? (HashGenerator.hashBytes({ text: options.about.text }).short ?? undefined)
            : undefined
    const redactedText = Redact.text({ text: schemaText, serverParams }).text ?? ''
    const attachments = attachmentsOf({
        slug,
        namespace,
        redactedText,
        about: options.about,
        skills: options.skills ?? [],
        serverParams
    })
    // Text aimed at the grader: warnings here (the About and skills once per namespace run), the places in every
    // request.
    const injection = injectionOf(
        main,
        {
            name: `${slug}.mjs`,
            text: schemaText,
            path: input.schemaPath !== undefined ? '/schemaPath' : '/options/source'
        },
        options,
        options.about?.name ?? `${namespace}-about.md`
    )
    errors.push(
        ...(args.namespaceAreas
            ? injection.findings
            : injection.findings.filter(
                  (f) => !f.path.startsWith('/options/about') && !f.path.startsWith('/options/skills')
              ))
    )
    const boundary = chooseBoundary({
        given: options.boundary,
        texts: attachments.flatMap((a) => [a.name, a.content])
    }).boundary
    return { aboutHash, redactedText, attachments, flagged: injection.flagged, boundary }
}

/** Stage "plan": the units of the run, and GRA-015 for every answer keyed by a unit the run does not have. */
export function plansFor(
    args: Parameters<typeof unitPlansOf>[0],
    answers: SchemaRunOptions['answers'],
    errors: Issue[]
): UnitPlan[] {
    const plans = unitPlansOf(args)
    const known = new Set(plans.map((p) => p.unit))
    for (const key of Object.keys(answers ?? {})) {
        if (!known.has(key)) errors.push(createIssue('GRA-015', pointer('options', 'answers', key), { unit: key }))
    }
    return plans
}
