// Small islands as file maps, for the rollup tests.
import {
    createMemoryFs,
    RebuildIndex,
    type Issue,
    type MemoryFs,
    type NamespaceIndex,
    type SelectionIndex
} from '../../src/index.js'
import { entryText, type EntryOptions } from '../island/support.js'

export const ROOT = '/island'
export const NS_DIR = `${ROOT}/providers/defillama`
export const PRICES_HASH = '93baef35'
export const PRICES_TS = '2026-05-30T19-44-23Z'
export const NOW = '2026-05-31T12:30:00Z'

/** A namespace with one imported schema (prices: getFirstPrice, getLastPrice), an About and one skill. */
export function baseNamespace(): Record<string, string> {
    return {
        [`${NS_DIR}/prices/schema/prices--${PRICES_TS}--${PRICES_HASH}.mjs`]: 'export const main = {}\n',
        [`${NS_DIR}/prices/resources/about/defillama-about--${PRICES_TS}--abcdef01.md`]: '# About\n',
        [`${NS_DIR}/prices/skills/summarizePrices/summarizePrices--${PRICES_TS}--5a5a5a5a.mjs`]:
            'export const skill = {}\n',
        [`${NS_DIR}/prices/tools/getFirstPrice/.keep`]: '',
        [`${NS_DIR}/prices/tools/getLastPrice/.keep`]: ''
    }
}

/** Path of a grading file for a namespace node. */
export function gradingPath(
    node: 'tool' | 'aggregate' | 'namespace' | 'about' | 'skill',
    file: string,
    tool = 'getFirstPrice'
): string {
    const folders = {
        tool: `${NS_DIR}/prices/tools/${tool}/_gradings`,
        aggregate: `${NS_DIR}/prices/_gradings`,
        namespace: `${NS_DIR}/_gradings`,
        about: `${NS_DIR}/prices/resources/about/_gradings`,
        skill: `${NS_DIR}/prices/skills/summarizePrices/_gradings`
    }
    return `${folders[node]}/${file}`
}

/** `{ path: entry text }` for one grading of the prices schema. */
export function grading(
    node: 'tool' | 'aggregate' | 'namespace' | 'about' | 'skill',
    ts: string,
    options: Partial<EntryOptions> = {},
    tool?: string
): Record<string, string> {
    const area = {
        tool: 'single-test',
        aggregate: 'tools-aggregate-schema',
        namespace: 'tools-aggregate-namespace',
        about: 'about-namespace',
        skill: 'namespace-skills'
    }[node]
    const persona = node === 'about' || node === 'skill' ? `--decision-maker--${options.lens ?? 'crypto'}` : ''
    const fileTs = ts.replace(/:/g, '-')
    return {
        [gradingPath(node, `${options.area ?? area}${persona}--${fileTs}.json`, tool)]: entryText({
            area,
            schemaHash: PRICES_HASH,
            timestamp: ts,
            ...options
        })
    }
}

export async function rebuildNs(
    files: Record<string, string>,
    now = NOW
): Promise<{ index: NamespaceIndex; errors: Issue[]; fs: MemoryFs }> {
    const fs = createMemoryFs(files)
    const res = await RebuildIndex.rebuildNamespaceIndex({ fs, namespaceDir: NS_DIR, now })
    if (res.index === null) throw new Error(`rebuild failed: ${JSON.stringify(res.errors)}`)
    return { index: res.index, errors: res.errors, fs }
}

export async function rebuildSel(
    files: Record<string, string>,
    selection = 'defi-core',
    now = NOW
): Promise<{ index: SelectionIndex | null; errors: Issue[]; fs: MemoryFs }> {
    const fs = createMemoryFs(files)
    const res = await RebuildIndex.rebuildSelectionIndex({
        fs,
        selectionDir: `${ROOT}/selections/${selection}`,
        providersRoot: `${ROOT}/providers`,
        now
    })
    return { index: res.index, errors: res.errors, fs }
}

/** The prices schema graded throughout (both tools and the tools aggregate) at one time: the smallest subtree a schema node can have a grade for. */
export function gradedSchema(ts: string, options: Partial<EntryOptions> = {}): Record<string, string> {
    return {
        ...grading('aggregate', ts, options),
        ...grading('tool', ts, options, 'getFirstPrice'),
        ...grading('tool', ts, options, 'getLastPrice')
    }
}
