import { createIssue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { isObject } from '../model/object.js'

/**
 * The About file a schema's `main` declares in `main.resources.about`: its `name`, else
 * `<namespace>-about.md` as the island import reads it; null when the schema declares no About.
 * @param main - the schema's `main` export
 * @returns the file name under `resources/`, or null
 * @example declaredAboutFile({ namespace: 'demo', resources: { about: { name: 'demo-about.md' } } }) // 'demo-about.md'
 */
export function declaredAboutFile(main: unknown): string | null {
    if (!isObject(main)) return null
    const about = isObject(main.resources) ? main.resources.about : undefined
    if (!isObject(about)) return null
    if (typeof about.name === 'string') return about.name
    return typeof main.namespace === 'string' ? `${main.namespace}-about.md` : null
}

/**
 * Which file of a `resources/` folder is the About: the first of the declared names the folder holds
 * (only those, as the island import reads them), else — nothing declared — the first `*-about.md`
 * by name, so that grading can say it is not declared (GRA-022).
 * @param names - the file names in `resources/`
 * @param declared - the names the folder's schemas declare ({@link declaredAboutFile}), in schema order
 * @returns the file name, or undefined when there is none
 * @example aboutFileIn(['demo-about.md'], []) // 'demo-about.md'
 */
export function aboutFileIn(names: readonly string[], declared: readonly string[]): string | undefined {
    if (declared.length > 0) return declared.find((d) => names.includes(d))
    return names.filter((n) => n.endsWith('-about.md')).sort()[0]
}

/**
 * The About found or supplied against the About declared: GRA-022 when an About is there but no
 * schema declares it in `main.resources` (about-namespace is then not graded), GRA-023 when one is
 * declared but no About text came with it. Both say what to do.
 * @param args - `declared` file name or null, the `about` found or supplied, the schema's `namespace`, and `path` of
 *   the About in the input
 * @returns the warnings, none when the two agree
 * @example
 * aboutDeclarationIssues({
 *     declared: null,
 *     about: { name: 'demo-about.md' },
 *     namespace: 'demo',
 *     path: '/options/about'
 * })[0]?.code // 'GRA-022'
 */
export function aboutDeclarationIssues(args: {
    declared: string | null
    about: { readonly name?: string } | undefined
    namespace: string
    path: string
}): Issue[] {
    const { declared, about, namespace, path } = args
    if (declared === null && about !== undefined) {
        const name = typeof about.name === 'string' && about.name !== '' ? about.name : `${namespace}-about.md`
        return [createIssue('GRA-022', path, { file: `resources/${name}`, name })]
    }
    if (declared !== null && about === undefined)
        return [createIssue('GRA-023', path, { file: `resources/${declared}` })]
    return []
}
